// Acceptance (issue 6): the CronTab example of the Kubernetes documentation end to end with the
// real kubectl against the control plane command (a subprocess, as a user starts it) on SQLite
// and on etcd. The CRD is the manifest kept in apis/crds/ (the one the typed client is generated
// from). What kubectl prints is asserted word for word where kube-apiserver's answer is fixed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { fails, ok } from '../integration/assertions.js';
import { describeBackends, repoRoot } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { Kubectl, kubectlUnavailable, squashLines } from '../integration/kubectl.js';

const CRD_MANIFEST = readFileSync(join(repoRoot, 'apis/crds/stable.example.com_crontabs.yaml'), 'utf8');
const CRD = 'crd/crontabs.stable.example.com';

interface CronTabSpec {
  cronSpec?: string;
  image?: string;
  replicas?: number;
}

/** A CronTab manifest as a user writes it (YAML on kubectl's stdin). */
function cronTab(name: string, spec: CronTabSpec = { cronSpec: '* * * * */5', image: 'my-awesome-cron-image', replicas: 1 }): string {
  const lines = ['apiVersion: stable.example.com/v1', 'kind: CronTab', 'metadata:', `  name: ${name}`, 'spec:'];
  for (const [k, v] of Object.entries(spec)) lines.push(`  ${k}: ${JSON.stringify(v)}`);
  return `${lines.join('\n')}\n`;
}

/** A Table row of `kubectl get ct`: name, cron spec, replicas, then an age. */
const row = (name: string, spec: string, replicas: string): RegExp => new RegExp(`^${name} ${spec.replace(/[*/]/g, (c) => `\\${c}`)} ${replicas} \\d+s$`);

describe('the CronTab example through kubectl', { skip: kubectlUnavailable() ?? false }, () => {
  describeBackends('CronTab', (cp) => {
    let kc: Kubectl;
    let https: HttpsClient;
    before(() => {
      kc = new Kubectl(cp);
      https = new HttpsClient(cp().credentials);
    });
    after(() => {
      https.close();
      kc.dispose();
    });

    const run = async (args: string[], stdin?: string): Promise<string> => ok(await kc.run(args, stdin === undefined ? {} : { stdin }), cp());
    const json = async <T>(args: string[]): Promise<T> => JSON.parse(await run([...args, '-o', 'json'])) as T;

    it('apply the CRD; kubectl wait --for=condition=Established returns', async () => {
      assert.equal(await run(['apply', '-f', '-'], CRD_MANIFEST), 'customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created');
      assert.equal(await run(['wait', '--for=condition=Established', CRD, '--timeout=10s']), 'customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com condition met');
    });

    it('kubectl get ct: nothing, then a Table with the printer columns; kubectl get all lists CronTabs (category all)', async () => {
      const empty = await kc.run(['get', 'ct']);
      assert.equal(empty.code, 0);
      assert.equal(empty.stdout, '');
      assert.equal(empty.stderr.trim(), 'No resources found in default namespace.');
      assert.equal(await run(['create', '-f', '-'], cronTab('my-new-cron-object')), 'crontab.stable.example.com/my-new-cron-object created');
      const table = squashLines(await run(['get', 'ct']));
      assert.equal(table.length, 2, table.join('\n'));
      assert.equal(table[0], 'NAME SPEC REPLICAS AGE');
      assert.match(table[1] ?? '', row('my-new-cron-object', '* * * * */5', '1'));
      // Other kinds of the category (services, …) print tables of their own before or after.
      const all = squashLines(await run(['get', 'all']));
      const at = all.findIndex((l) => row('crontab.stable.example.com/my-new-cron-object', '* * * * */5', '1').test(l));
      assert.ok(at > 0, all.join('\n'));
      assert.equal(all[at - 1], 'NAME SPEC REPLICAS AGE', all.join('\n'));
    });

    it('apply creates, leaves an unchanged object alone, configures a changed one', async () => {
      assert.equal(await run(['apply', '-f', '-'], cronTab('applied')), 'crontab.stable.example.com/applied created');
      assert.equal(await run(['apply', '-f', '-'], cronTab('applied')), 'crontab.stable.example.com/applied unchanged');
      const changed = cronTab('applied', { cronSpec: '*/10 * * * *', image: 'my-awesome-cron-image:2', replicas: 2 });
      assert.equal(await run(['apply', '-f', '-'], changed), 'crontab.stable.example.com/applied configured');
      const got = await json<{ metadata: { generation: number; annotations: Record<string, string> }; spec: CronTabSpec }>(['get', 'ct', 'applied']);
      assert.deepEqual(got.spec, { cronSpec: '*/10 * * * *', image: 'my-awesome-cron-image:2', replicas: 2 });
      assert.equal(got.metadata.generation, 2);
      const lastApplied = JSON.parse(got.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'] ?? '{}') as { spec?: CronTabSpec };
      assert.deepEqual(lastApplied.spec, got.spec);
    });

    it('patch: merge and JSON patches apply; a strategic merge patch is refused with the 415 as kubectl words it', async () => {
      assert.equal(await run(['patch', 'ct', 'applied', '--type=merge', '-p', '{"spec":{"replicas":3}}']), 'crontab.stable.example.com/applied patched');
      assert.equal(await run(['patch', 'ct', 'applied', '--type=json', '-p', '[{"op":"replace","path":"/spec/image","value":"patched-image"}]']), 'crontab.stable.example.com/applied patched');
      assert.equal(await run(['patch', 'ct', 'applied', '--type=merge', '-p', '{"spec":{"replicas":3}}']), 'crontab.stable.example.com/applied patched (no change)');
      const got = await json<{ spec: CronTabSpec }>(['get', 'ct', 'applied']);
      assert.deepEqual(got.spec, { cronSpec: '*/10 * * * *', image: 'patched-image', replicas: 3 });
      // kubectl patch defaults to --type=strategic. kube-apiserver's list also names
      // application/apply-patch+yaml: this server has no server-side apply (README), so it does not.
      fails(
        await kc.run(['patch', 'ct', 'applied', '-p', '{"spec":{"replicas":4}}']),
        'error: application/strategic-merge-patch+json is not supported by stable.example.com/v1, Kind=CronTab: the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
      );
    });

    it('get -w prints the ADDED, MODIFIED and DELETED events of a CronTab', async () => {
      const watch = kc.start(['get', 'ct', '-w', '--output-watch-events']);
      try {
        // The initial list is printed before the watch starts from its resourceVersion.
        await watch.waitForLine(/^ADDED my-new-cron-object /);
        await run(['create', '-f', '-'], cronTab('watched', { cronSpec: '*/5 * * * *', image: 'img', replicas: 2 }));
        await run(['patch', 'ct', 'watched', '--type=merge', '-p', '{"spec":{"replicas":4}}']);
        await run(['delete', 'ct', 'watched']);
        await watch.waitForLine(/^DELETED watched /);
      } finally {
        await watch.stop();
      }
      const lines = watch.lines();
      assert.equal(lines[0], 'EVENT NAME SPEC REPLICAS AGE');
      const mine = lines.filter((l) => / watched /.test(l));
      assert.equal(mine.length, 3, lines.join('\n'));
      assert.match(mine[0] ?? '', /^ADDED watched \*\/5 \* \* \* \* 2 \d+s$/);
      assert.match(mine[1] ?? '', /^MODIFIED watched \*\/5 \* \* \* \* 4 \d+s$/);
      assert.match(mine[2] ?? '', /^DELETED watched \*\/5 \* \* \* \* 4 \d+s$/);
    });

    it("invalid objects are rejected with the field path, as kubectl prints kube-apiserver's 422", async () => {
      fails(
        await kc.run(['create', '-f', '-'], { stdin: cronTab('bad', { cronSpec: '* * * * */5', image: 'x', replicas: 11 }) }),
        'The CronTab "bad" is invalid: spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10',
      );
      fails(
        await kc.run(['apply', '-f', '-'], { stdin: cronTab('bad', { cronSpec: 'every minute', image: 'x' }) }),
        'The CronTab "bad" is invalid: spec.cronSpec: Invalid value: "every minute": spec.cronSpec in body should match \'^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$\'',
      );
      fails(
        await kc.run(['patch', 'ct', 'applied', '--type=merge', '-p', '{"spec":{"replicas":0}}']),
        'The CronTab "applied" is invalid: spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1',
      );
      fails(
        await kc.run(['patch', 'ct', 'applied', '--type=merge', '-p', '{"spec":{"image":7}}']),
        'The CronTab "applied" is invalid: spec.image: Invalid value: "integer": spec.image in body must be of type string: "integer"',
      );
      fails(await kc.run(['get', 'ct', 'bad']), 'Error from server (NotFound): crontabs.stable.example.com "bad" not found');
    });

    it('status subresource: kubectl patch --subresource=status writes status only; the main resource ignores status', async () => {
      assert.equal(
        await run(['patch', 'ct', 'my-new-cron-object', '--subresource=status', '--type=merge', '-p', '{"spec":{"image":"ignored"},"status":{"replicas":2,"labelSelector":"app=cron"}}']),
        'crontab.stable.example.com/my-new-cron-object patched',
      );
      type Got = { metadata: { generation: number }; spec: CronTabSpec; status?: { replicas?: number; labelSelector?: string } };
      const got = await json<Got>(['get', 'ct', 'my-new-cron-object']);
      assert.deepEqual(got.status, { replicas: 2, labelSelector: 'app=cron' });
      assert.equal(got.spec.image, 'my-awesome-cron-image', 'spec is not written through /status');
      assert.equal(got.metadata.generation, 1, 'a status change does not bump the generation');
      const viaStatus = await json<Got>(['get', 'ct', 'my-new-cron-object', '--subresource=status']);
      assert.deepEqual(viaStatus.status, got.status);
      await run(['patch', 'ct', 'my-new-cron-object', '--type=merge', '-p', '{"status":{"replicas":9}}']);
      assert.deepEqual((await json<Got>(['get', 'ct', 'my-new-cron-object'])).status, { replicas: 2, labelSelector: 'app=cron' });
    });

    it('scale subresource: kubectl scale writes spec.replicas; get --subresource=scale shows the Scale', async () => {
      assert.equal(await run(['scale', 'ct/my-new-cron-object', '--replicas=3']), 'crontab.stable.example.com/my-new-cron-object scaled');
      const scale = await json<Record<string, unknown>>(['get', 'ct', 'my-new-cron-object', '--subresource=scale']);
      assert.equal(scale['apiVersion'], 'autoscaling/v1');
      assert.equal(scale['kind'], 'Scale');
      assert.deepEqual(scale['spec'], { replicas: 3 });
      assert.deepEqual(scale['status'], { replicas: 2, selector: 'app=cron' });
      // The CRD's columns evaluated on the Scale, as kube's CRD handler prints it (no cronSpec there).
      const table = squashLines(await run(['get', 'ct', 'my-new-cron-object', '--subresource=scale']));
      assert.equal(table[0], 'NAME SPEC REPLICAS AGE');
      assert.match(table[1] ?? '', /^my-new-cron-object 3 \d+s$/);
      const got = await json<{ metadata: { generation: number }; spec: CronTabSpec }>(['get', 'ct', 'my-new-cron-object']);
      assert.equal(got.spec.replicas, 3);
      assert.equal(got.metadata.generation, 2);
      fails(await kc.run(['scale', 'ct/my-new-cron-object', '--replicas=5', '--current-replicas=4']), 'error: Expected replicas to be 4, was 3');
      fails(
        await kc.run(['scale', 'ct/my-new-cron-object', '--replicas=30']),
        'The CronTab "my-new-cron-object" is invalid: spec.replicas: Invalid value: 30: spec.replicas in body should be less than or equal to 10',
      );
    });

    it('get -o yaml prints the stored object', async () => {
      const out = await run(['get', 'ct', 'my-new-cron-object', '-o', 'yaml']);
      const obj = parse(out) as { metadata: Record<string, string> };
      const expected = `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  creationTimestamp: "${obj.metadata['creationTimestamp']}"
  generation: 2
  name: my-new-cron-object
  namespace: default
  resourceVersion: "${obj.metadata['resourceVersion']}"
  uid: ${obj.metadata['uid']}
spec:
  cronSpec: '* * * * */5'
  image: my-awesome-cron-image
  replicas: 3
status:
  labelSelector: app=cron
  replicas: 2`;
      assert.equal(out, expected);
      assert.match(obj.metadata['creationTimestamp'] ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.match(obj.metadata['resourceVersion'] ?? '', /^\d+$/);
      assert.match(obj.metadata['uid'] ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    });

    it("explain crontab.spec prints the schema's documentation", async () => {
      assert.equal(
        await run(['explain', 'crontab.spec']),
        `GROUP:      stable.example.com
KIND:       CronTab
VERSION:    v1

FIELD: spec <Object>


DESCRIPTION:
    The schedule and what runs on it.
    
FIELDS:
  cronSpec\t<string>
    The cron schedule, five fields.

  image\t<string>
    The image run on the schedule.

  replicas\t<integer>
    How many runs at a time.`,
      );
    });

    it('delete removes a CronTab', async () => {
      assert.equal(await run(['delete', 'ct', 'applied']), 'crontab.stable.example.com "applied" deleted');
      fails(await kc.run(['get', 'ct', 'applied']), 'Error from server (NotFound): crontabs.stable.example.com "applied" not found');
      fails(await kc.run(['delete', 'ct', 'applied']), 'Error from server (NotFound): crontabs.stable.example.com "applied" not found');
    });

    it('deleting the CRD removes every CronTab, in every namespace', async () => {
      await run(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'crontabs-elsewhere' } }));
      for (const name of ['one', 'two']) await run(['create', '-n', 'crontabs-elsewhere', '-f', '-'], cronTab(name));
      const before = squashLines(await run(['get', 'ct', '-A', '--no-headers']));
      assert.deepEqual(
        before.map((l) => l.split(' ').slice(0, 2).join(' ')),
        ['crontabs-elsewhere one', 'crontabs-elsewhere two', 'default my-new-cron-object'],
      );

      assert.equal(await run(['delete', CRD, '--timeout=60s']), 'customresourcedefinition.apiextensions.k8s.io "crontabs.stable.example.com" deleted');
      fails(await kc.run(['get', CRD]), 'Error from server (NotFound): customresourcedefinitions.apiextensions.k8s.io "crontabs.stable.example.com" not found');
      // No CRD serves it any more: kube's plain-text 404 at the end of the chain.
      assert.equal((await https.request({ path: '/apis/stable.example.com/v1/crontabs' })).status, 404);

      // The same CRD again starts empty: nothing of the old CronTabs was left in storage.
      await run(['apply', '-f', '-'], CRD_MANIFEST);
      await run(['wait', '--for=condition=Established', CRD, '--timeout=10s']);
      const again = await kc.run(['get', 'ct', '-A']);
      assert.equal(again.code, 0, again.stderr);
      assert.equal(again.stdout, '');
      assert.equal(again.stderr.trim(), 'No resources found');
    });
  });
});
