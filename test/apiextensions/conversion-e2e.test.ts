// Acceptance (issue 6): a two-version CRD whose versions differ in shape (v1 `cronSpec`/`image`,
// v2 `schedule.cron`/`jobTemplate.image`), converted by a webhook that a test HTTPS server
// answers with a certificate from its own CA (caBundle in the CRD). Against the control plane
// command (a subprocess) on SQLite and etcd, through the real kubectl and raw HTTPS: objects
// written in one version read back in the other, lists and watches converted, a Service-backed
// clientConfig; the webhook down is a 500 naming the webhook, and nothing is written.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fails, ok } from '../integration/assertions.js';
import { describeBackends } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { Kubectl, kubectlUnavailable, squashLines } from '../integration/kubectl.js';
import { startConversionWebhook, type ConversionWebhook, type Obj } from './conversion-e2e-webhook.js';

const NAME = 'crontabs.stable.example.com';
const V1 = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const V2 = '/apis/stable.example.com/v2/namespaces/default/crontabs';
const V2_RESOURCE = 'crontabs.v2.stable.example.com';
const V1_RESOURCE = 'crontabs.v1.stable.example.com';

const str = { type: 'string' };
const V1_SCHEMA = {
  type: 'object',
  properties: {
    spec: { type: 'object', properties: { cronSpec: str, image: str, replicas: { type: 'integer' } } },
    status: { type: 'object', properties: { replicas: { type: 'integer' } } },
  },
};
const V2_SCHEMA = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        schedule: { type: 'object', properties: { cron: str } },
        jobTemplate: { type: 'object', properties: { image: str } },
        replicas: { type: 'integer' },
      },
    },
    status: { type: 'object', properties: { replicas: { type: 'integer' } } },
  },
};

function crd(clientConfig: Obj): Obj {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: NAME },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'] },
      conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig } },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: V1_SCHEMA },
          subresources: { status: {} },
          additionalPrinterColumns: [
            { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' },
            { name: 'Image', type: 'string', jsonPath: '.spec.image' },
          ],
        },
        {
          name: 'v2',
          served: true,
          storage: false,
          schema: { openAPIV3Schema: V2_SCHEMA },
          subresources: { status: {} },
          additionalPrinterColumns: [
            { name: 'Schedule', type: 'string', jsonPath: '.spec.schedule.cron' },
            { name: 'Image', type: 'string', jsonPath: '.spec.jobTemplate.image' },
          ],
        },
      ],
    },
  };
}

const v1CronTab = (name: string, cronSpec: string, image: string): Obj => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name }, spec: { cronSpec, image, replicas: 1 } });
const v2CronTab = (name: string, cron: string, image: string): Obj => ({
  apiVersion: 'stable.example.com/v2',
  kind: 'CronTab',
  metadata: { name },
  spec: { schedule: { cron }, jobTemplate: { image }, replicas: 1 },
});
const spec = (o: Obj): Obj => o['spec'] as Obj;
const meta = (o: Obj): Obj => o['metadata'] as Obj;

describe('conversion webhook end to end', { skip: kubectlUnavailable() ?? false }, () => {
  describeBackends('two-version CronTab CRD', (cp) => {
    let kc: Kubectl;
    let https: HttpsClient;
    let hook: ConversionWebhook;
    before(async () => {
      kc = new Kubectl(cp);
      https = new HttpsClient(cp().credentials);
      hook = await startConversionWebhook();
    });
    after(async () => {
      https.close();
      kc.dispose();
      await hook.close();
    });

    const run = async (args: string[], stdin?: string): Promise<string> => ok(await kc.run(args, stdin === undefined ? {} : { stdin }), cp());
    const getJSON = async (args: string[]): Promise<Obj> => JSON.parse(await run([...args, '-o', 'json'])) as Obj;

    it('the CRD with a url clientConfig and its caBundle is applied and Established', async () => {
      await run(['apply', '-f', '-'], JSON.stringify(crd({ url: hook.url, caBundle: hook.caBundle })));
      await run(['wait', '--for=condition=Established', `crd/${NAME}`, '--timeout=10s']);
    });

    it("written in v1, read back in v2 (kubectl and HTTPS); the Table has v2's columns", async () => {
      hook.reviews.length = 0;
      assert.equal(await run(['create', '-f', '-'], JSON.stringify(v1CronTab('from-v1', '*/5 * * * *', 'img:1'))), 'crontab.stable.example.com/from-v1 created');
      const asV2 = await getJSON(['get', V2_RESOURCE, 'from-v1']);
      assert.equal(asV2['apiVersion'], 'stable.example.com/v2');
      assert.deepEqual(spec(asV2), { schedule: { cron: '*/5 * * * *' }, jobTemplate: { image: 'img:1' }, replicas: 1 });
      const raw = await https.json('GET', `${V2}/from-v1`);
      assert.equal(raw.status, 200);
      // kubectl hides managedFields unless --show-managed-fields; the server sends them.
      const { managedFields, ...rawMeta } = raw.body['metadata'] as Obj;
      assert.ok(Array.isArray(managedFields));
      assert.deepEqual({ ...raw.body, metadata: rawMeta }, asV2);
      assert.ok(
        hook.reviews.some((r) => r.desiredAPIVersion === 'stable.example.com/v2' && r.from.includes('stable.example.com/v1')),
        JSON.stringify(hook.reviews),
      );
      const table = squashLines(await run(['get', V2_RESOURCE]));
      assert.deepEqual(table.slice(0, 1), ['NAME SCHEDULE IMAGE']);
      assert.equal(table[1], 'from-v1 */5 * * * * img:1');
      // The v1 object is what storage holds: no conversion to read it in v1.
      const asV1 = await https.json('GET', `${V1}/from-v1`);
      assert.deepEqual(spec(asV1.body), { cronSpec: '*/5 * * * *', image: 'img:1', replicas: 1 });
    });

    it('written in v2, stored in v1 and read back in v1; apply and merge patch in v2 change the stored object', async () => {
      hook.reviews.length = 0;
      assert.equal(await run(['apply', '-f', '-'], JSON.stringify(v2CronTab('from-v2', '0 * * * *', 'img:2'))), 'crontab.stable.example.com/from-v2 created');
      assert.ok(
        hook.reviews.some((r) => r.desiredAPIVersion === 'stable.example.com/v1' && r.from.includes('stable.example.com/v2')),
        'the v2 object was converted to the storage version',
      );
      const asV1 = await getJSON(['get', V1_RESOURCE, 'from-v2']);
      assert.equal(asV1['apiVersion'], 'stable.example.com/v1');
      assert.deepEqual(spec(asV1), { cronSpec: '0 * * * *', image: 'img:2', replicas: 1 });
      const table = squashLines(await run(['get', V1_RESOURCE, 'from-v2']));
      assert.deepEqual(table, ['NAME SPEC IMAGE', 'from-v2 0 * * * * img:2']);

      assert.equal(await run(['apply', '-f', '-'], JSON.stringify(v2CronTab('from-v2', '30 * * * *', 'img:2'))), 'crontab.stable.example.com/from-v2 configured');
      assert.equal(await run(['patch', V2_RESOURCE, 'from-v2', '--type=merge', '-p', '{"spec":{"jobTemplate":{"image":"img:3"}}}']), 'crontab.stable.example.com/from-v2 patched');
      const raw = await https.json('GET', `${V1}/from-v2`);
      assert.deepEqual(spec(raw.body), { cronSpec: '30 * * * *', image: 'img:3', replicas: 1 });
      assert.equal(meta(raw.body)['generation'], 3);
      // A JSON patch addresses the fields of the version it is sent to.
      const jsonPatch = await https.json('PATCH', `${V2}/from-v2`, [{ op: 'replace', path: '/spec/schedule/cron', value: '45 * * * *' }], { 'Content-Type': 'application/json-patch+json' });
      assert.equal(jsonPatch.status, 200, JSON.stringify(jsonPatch.body));
      assert.deepEqual(spec(jsonPatch.body), { schedule: { cron: '45 * * * *' }, jobTemplate: { image: 'img:3' }, replicas: 1 });
      assert.equal(spec((await https.json('GET', `${V1}/from-v2`)).body)['cronSpec'], '45 * * * *');
    });

    it('lists and watches in v2 are converted', async () => {
      const list = await https.json('GET', V2);
      assert.equal(list.status, 200);
      assert.equal(list.body['apiVersion'], 'stable.example.com/v2');
      const items = list.body['items'] as Obj[];
      assert.deepEqual(
        items.map((i) => [meta(i)['name'], i['apiVersion'], (spec(i)['schedule'] as Obj)['cron']]),
        [
          ['from-v1', 'stable.example.com/v2', '*/5 * * * *'],
          ['from-v2', 'stable.example.com/v2', '45 * * * *'],
        ],
      );
      const w = await https.watch(`${V2}?watch=true&resourceVersion=${String(meta(list.body)['resourceVersion'])}`);
      try {
        await https.json('POST', V1, v1CronTab('watched', '1 * * * *', 'w'));
        const [ev] = await w.until((evs) => evs.length >= 1);
        assert.equal(ev?.type, 'ADDED');
        assert.equal(ev?.object['apiVersion'], 'stable.example.com/v2');
        assert.deepEqual(spec(ev?.object ?? {}), { schedule: { cron: '1 * * * *' }, jobTemplate: { image: 'w' }, replicas: 1 });
      } finally {
        w.close();
      }
    });

    it('webhook down: a 500 naming the webhook for reads and writes in v2, nothing changed; v1 keeps working; back up, v2 works again', async () => {
      const before = await https.json('GET', `${V1}/from-v1`);
      await hook.stop();
      const refused = `Post "${hook.url}?timeout=30s": dial tcp 127.0.0.1:${hook.port}: connect: connection refused`;
      try {
        // Written in the storage version: no conversion is needed to store it.
        assert.equal((await https.json('POST', V1, v1CronTab('while-down', '2 * * * *', 'd'))).status, 201);
        const readFailure = `conversion webhook for stable.example.com/v1, Kind=CronTab failed: ${refused}`;
        const get = await https.json('GET', `${V2}/while-down`);
        assert.equal(get.status, 500);
        assert.deepEqual(get.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: readFailure, code: 500 });
        const list = await https.json('GET', V2);
        assert.equal(list.status, 500);
        assert.equal(list.body['message'], readFailure);
        fails(await kc.run(['get', V2_RESOURCE, 'while-down']), `Error from server: ${readFailure}`);

        const writeFailure = `conversion webhook for stable.example.com/v2, Kind=CronTab failed: ${refused}`;
        const create = await https.json('POST', V2, v2CronTab('created-while-down', '* * * * *', 'x'));
        assert.equal(create.status, 500);
        assert.equal(create.body['message'], writeFailure);
        fails(await kc.run(['create', '-f', '-'], { stdin: JSON.stringify(v2CronTab('created-while-down', '* * * * *', 'x')) }), `Error from server: error when creating "STDIN": ${writeFailure}`);
        assert.equal((await https.json('GET', `${V1}/created-while-down`)).status, 404, 'nothing was created');
        const patch = await https.json('PATCH', `${V2}/from-v1`, { spec: { jobTemplate: { image: 'changed' } } }, { 'Content-Type': 'application/merge-patch+json' });
        assert.equal(patch.status, 500);
        assert.match(String(patch.body['message']), /^conversion webhook for stable\.example\.com\/v[12], Kind=CronTab failed: /);
        assert.ok(String(patch.body['message']).endsWith(refused), String(patch.body['message']));
        assert.deepEqual((await https.json('GET', `${V1}/from-v1`)).body, before.body, 'nothing was changed');
        // The storage version needs no conversion.
        assert.equal((await https.json('GET', V1)).status, 200);
        assert.equal(await run(['patch', V1_RESOURCE, 'from-v1', '--type=merge', '-p', '{"spec":{"replicas":2}}']), 'crontab.stable.example.com/from-v1 patched');
      } finally {
        await hook.start();
      }
      const again = await https.json('GET', `${V2}/while-down`);
      assert.equal(again.status, 200, JSON.stringify(again.body));
      assert.deepEqual(spec(again.body), { schedule: { cron: '2 * * * *' }, jobTemplate: { image: 'd' }, replicas: 1 });
      const patched = await https.json('GET', `${V2}/from-v1`);
      assert.deepEqual(spec(patched.body), { schedule: { cron: '*/5 * * * *' }, jobTemplate: { image: 'img:1' }, replicas: 2 });
    });

    it('a Service-backed clientConfig reaches the webhook through the Service and its Endpoints', async () => {
      await run(
        ['apply', '-f', '-'],
        JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'conv', namespace: 'default' }, spec: { ports: [{ name: 'https', port: 443, targetPort: hook.port }] } }),
      );
      await run(
        ['apply', '-f', '-'],
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'Endpoints',
          metadata: { name: 'conv', namespace: 'default' },
          subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: hook.port }] }],
        }),
      );
      const clientConfig = { service: { namespace: 'default', name: 'conv', path: '/convert' }, caBundle: hook.caBundle };
      assert.equal(await run(['apply', '-f', '-'], JSON.stringify(crd(clientConfig))), `customresourcedefinition.apiextensions.k8s.io/${NAME} configured`);
      hook.reviews.length = 0;
      // The serving state is rebuilt from the changed CRD shortly after the write.
      const deadline = Date.now() + 20_000;
      let got: { status: number; body: Obj };
      for (;;) {
        got = await https.json('GET', `${V2}/from-v2`);
        if ((got.status === 200 && hook.reviews.some((r) => r.host === 'conv.default.svc:443')) || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(got.status, 200, JSON.stringify(got.body));
      assert.deepEqual(spec(got.body), { schedule: { cron: '45 * * * *' }, jobTemplate: { image: 'img:3' }, replicas: 1 });
      assert.ok(
        hook.reviews.some((r) => r.host === 'conv.default.svc:443'),
        `the webhook was called through the Service: ${JSON.stringify(hook.reviews)}`,
      );
      const stored = (await https.json('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${NAME}`)).body;
      assert.deepEqual(((spec(stored)['conversion'] as Obj)['webhook'] as Obj)['clientConfig'], {
        service: { namespace: 'default', name: 'conv', path: '/convert', port: 443 },
        caBundle: hook.caBundle,
      });
    });
  });
});
