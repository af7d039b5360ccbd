import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHTTPSServer, type Server } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ensurePKI } from '../../runtime/controlplane/certs.js';
import { CRDS, createEstablishedCRD, cronTabCRD, cronTabSchema, cronTabVersion, eventually, startEnv, type Env, type Obj } from './env.js';

const V1 = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const V2 = '/apis/stable.example.com/v2/namespaces/default/crontabs';

/** v2 calls v1's cronSpec `schedule`. */
const V2_SCHEMA = {
  type: 'object',
  properties: {
    spec: { type: 'object', properties: { schedule: { type: 'string' }, image: { type: 'string' }, replicas: { type: 'integer', default: 1 } } },
    status: { type: 'object', properties: { replicas: { type: 'integer' }, labelSelector: { type: 'string' } } },
  },
};

const spec = (o: Obj): Obj => o['spec'] as Obj;
const meta = (o: Obj): Obj => o['metadata'] as Obj;

/** What the test webhook does with a review. */
type Mode = 'convert' | 'fail' | 'garbage' | 'wrong-uid';

interface Webhook {
  readonly url: string;
  readonly port: number;
  readonly caBundle: string;
  mode: Mode;
  /** The number of objects of each review received. */
  readonly reviews: number[];
  close(): Promise<void>;
}

/** The conversion of the test: v1 cronSpec ↔ v2 schedule, everything else kept. */
function convert(obj: Obj, desired: string): Obj {
  const s = { ...spec(obj) };
  if (desired.endsWith('/v2') && 'cronSpec' in s) {
    s['schedule'] = s['cronSpec'];
    delete s['cronSpec'];
  }
  if (desired.endsWith('/v1') && 'schedule' in s) {
    s['cronSpec'] = s['schedule'];
    delete s['schedule'];
  }
  return { ...obj, apiVersion: desired, spec: s };
}

/** A conversion webhook on loopback over HTTPS, its certificate from a CA of its own (SANs 127.0.0.1 and conv.default.svc). */
async function startWebhook(dir: string): Promise<Webhook> {
  const pki = await ensurePKI(dir, { hosts: ['conv.default.svc'] });
  const reviews: number[] = [];
  const hook: { mode: Mode } = { mode: 'convert' };
  const server: Server = createHTTPSServer({ cert: pki.servingCertPEM, key: pki.servingKeyPEM }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request: { uid: string; desiredAPIVersion: string; objects: Obj[] } };
      reviews.push(review.request.objects.length);
      res.setHeader('Content-Type', 'application/json');
      if (hook.mode === 'garbage') return res.end('this is not JSON');
      const response =
        hook.mode === 'fail'
          ? { uid: review.request.uid, result: { status: 'Failure', message: 'the converter is unhappy' } }
          : {
              uid: hook.mode === 'wrong-uid' ? 'someone-else' : review.request.uid,
              result: { status: 'Success' },
              convertedObjects: review.request.objects.map((o) => convert(o, review.request.desiredAPIVersion)),
            };
      res.end(JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}/convert`,
    port,
    caBundle: Buffer.from(pki.caCertPEM).toString('base64'),
    get mode() {
      return hook.mode;
    },
    set mode(m: Mode) {
      hook.mode = m;
    },
    reviews,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback port nothing listens on. */
async function deadPort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

function versions(): Obj[] {
  return [
    cronTabVersion('v1', { storage: true, extra: { selectableFields: undefined } }),
    cronTabVersion('v2', { schema: V2_SCHEMA, extra: { additionalPrinterColumns: undefined, selectableFields: undefined } }),
  ];
}

describe('conversion None: apiVersion rewritten, fields each version does not know pruned', () => {
  let env: Env;
  before(async () => {
    env = await startEnv();
    const vs = [cronTabVersion('v1', { storage: true }), cronTabVersion('v2', { schema: cronTabSchema({ color: { type: 'string' } }) })];
    await createEstablishedCRD(env.client, cronTabCRD({ versions: vs }), V2);
  });
  after(() => env.close());

  test('written in v1, read in v2; written in v2, read in v1; lists and watches in either', async () => {
    const c = env.client;
    const one = await c.json('POST', V1, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'one' }, spec: { cronSpec: '* * * * *', image: 'a' } });
    assert.equal(one.status, 201, JSON.stringify(one.body));
    const asV2 = await c.json('GET', `${V2}/one`);
    assert.equal(asV2.status, 200);
    assert.equal(asV2.body['apiVersion'], 'stable.example.com/v2');
    assert.deepEqual(spec(asV2.body), { cronSpec: '* * * * *', image: 'a', replicas: 1 });

    const two = await c.json('POST', V2, { apiVersion: 'stable.example.com/v2', kind: 'CronTab', metadata: { name: 'two' }, spec: { cronSpec: '* * * * *', image: 'b', color: 'red' } });
    assert.equal(two.status, 201, JSON.stringify(two.body));
    // Stored in v1, which has no color: the answer is read back from storage, as kube's is.
    assert.equal(spec(two.body)['color'], undefined);
    const asV1 = await c.json('GET', `${V1}/two`);
    assert.equal(asV1.body['apiVersion'], 'stable.example.com/v1');
    assert.equal(spec(asV1.body)['color'], undefined);
    const againV2 = await c.json('GET', `${V2}/two`);
    assert.equal(spec(againV2.body)['color'], undefined);

    const list = await c.json('GET', V2);
    assert.equal(list.body['apiVersion'], 'stable.example.com/v2');
    assert.deepEqual(
      (list.body['items'] as Obj[]).map((i) => i['apiVersion']),
      ['stable.example.com/v2', 'stable.example.com/v2'],
    );

    const w = await c.watch(`${V2}?watch=true&resourceVersion=${String(meta(list.body)['resourceVersion'])}`);
    try {
      await c.json('PATCH', `${V1}/one`, { spec: { image: 'patched' } }, { 'Content-Type': 'application/merge-patch+json' });
      const [ev] = await w.until((evs) => evs.length >= 1);
      assert.equal(ev?.type, 'MODIFIED');
      assert.equal(ev?.object['apiVersion'], 'stable.example.com/v2');
      assert.equal(spec(ev?.object as Obj)['image'], 'patched');
    } finally {
      w.close();
    }
  });
});

describe('conversion Webhook: a ConversionReview to a test HTTPS server', () => {
  let env: Env;
  let hook: Webhook;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'webhook-'));
    [env, hook] = await Promise.all([startEnv(), startWebhook(dir)]);
    const conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: hook.url, caBundle: hook.caBundle } } };
    await createEstablishedCRD(env.client, cronTabCRD({ versions: versions(), conversion }), V2);
  });
  after(async () => {
    await env.close();
    await hook.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('objects written in v2 are stored in v1 and read back in either; lists convert in one review', async () => {
    const c = env.client;
    hook.reviews.length = 0;
    const created = await c.json('POST', V2, { apiVersion: 'stable.example.com/v2', kind: 'CronTab', metadata: { name: 'w1', labels: { a: 'b' } }, spec: { schedule: '*/1 * * * *', image: 'x' } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(spec(created.body), { schedule: '*/1 * * * *', image: 'x', replicas: 1 });
    assert.deepEqual(meta(created.body)['labels'], { a: 'b' });
    const v1 = await c.json('GET', `${V1}/w1`);
    assert.deepEqual(spec(v1.body), { cronSpec: '*/1 * * * *', image: 'x', replicas: 1 });

    await c.json('POST', V1, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'w2' }, spec: { cronSpec: '* * * * *', image: 'y' } });
    await c.json('POST', V1, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'w3' }, spec: { cronSpec: '* * * * *', image: 'z' } });
    const v2 = await c.json('GET', `${V2}/w2`);
    assert.equal(v2.body['apiVersion'], 'stable.example.com/v2');
    assert.deepEqual(spec(v2.body), { schedule: '* * * * *', image: 'y', replicas: 1 });

    hook.reviews.length = 0;
    const list = await c.json('GET', `${V2}?resourceVersion=0`);
    assert.equal(list.status, 200);
    assert.deepEqual(
      (list.body['items'] as Obj[]).map((i) => spec(i)['schedule']),
      ['*/1 * * * *', '* * * * *', '* * * * *'],
    );
    // One review for the items not converted before (w2 was read in v2 already: its conversion is shared).
    assert.equal(hook.reviews.length, 1, `reviews: ${JSON.stringify(hook.reviews)}`);
    assert.ok((hook.reviews[0] ?? 0) >= 2, `reviews: ${JSON.stringify(hook.reviews)}`);

    const patched = await c.json('PATCH', `${V2}/w2`, { spec: { schedule: '5 * * * *' } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(spec((await c.json('GET', `${V1}/w2`)).body)['cronSpec'], '5 * * * *');
  });

  test('watches in v2 receive converted events', async () => {
    const c = env.client;
    const list = await c.json('GET', V2);
    const w = await c.watch(`${V2}?watch=true&resourceVersion=${String(meta(list.body)['resourceVersion'])}`);
    try {
      await c.json('POST', V1, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'watched' }, spec: { cronSpec: '1 * * * *', image: 'w' } });
      const [ev] = await w.until((evs) => evs.length >= 1);
      assert.equal(ev?.type, 'ADDED');
      assert.equal(ev?.object['apiVersion'], 'stable.example.com/v2');
      assert.equal(spec(ev?.object as Obj)['schedule'], '1 * * * *');
    } finally {
      w.close();
    }
  });

  test('a webhook that fails, answers garbage or the wrong review: 500 naming the conversion, nothing written', async () => {
    const c = env.client;
    await c.json('POST', V1, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'kept' }, spec: { cronSpec: '* * * * *', image: 'kept' } });
    const cases: Array<[Mode, string]> = [
      ['fail', 'conversion webhook for stable.example.com/v1, Kind=CronTab failed: the converter is unhappy'],
      ['garbage', "conversion webhook for stable.example.com/v1, Kind=CronTab failed: couldn't get version/kind; json parse error: "],
      ['wrong-uid', 'conversion webhook for stable.example.com/v1, Kind=CronTab failed: expected response.uid='],
    ];
    try {
      for (const [mode, message] of cases) {
        hook.mode = mode;
        const get = await c.json('GET', `${V2}/kept`);
        assert.equal(get.status, 500, `${mode}: ${JSON.stringify(get.body)}`);
        assert.equal(get.body['kind'], 'Status');
        assert.ok(String(get.body['message']).startsWith(message), `${mode}: ${String(get.body['message'])}`);
        const create = await c.json('POST', V2, { apiVersion: 'stable.example.com/v2', kind: 'CronTab', metadata: { name: `new-${mode}` }, spec: { schedule: '* * * * *' } });
        assert.equal(create.status, 500);
        assert.ok(String(create.body['message']).startsWith('conversion webhook for stable.example.com/v2, Kind=CronTab failed: '), String(create.body['message']));
        assert.equal((await c.json('GET', `${V1}/new-${mode}`)).status, 404, 'nothing was created');
        const patch = await c.json('PATCH', `${V2}/kept`, { spec: { image: 'changed' } }, { 'Content-Type': 'application/merge-patch+json' });
        assert.equal(patch.status, 500);
        assert.equal(spec((await c.json('GET', `${V1}/kept`)).body)['image'], 'kept', 'nothing was changed');
      }
    } finally {
      hook.mode = 'convert';
    }
  });

  test('webhook down: 500 naming the webhook URL; a CRD change rebuilds the serving state with the new webhook', async () => {
    const c = env.client;
    const port = await deadPort();
    const deadURL = `https://127.0.0.1:${port}/convert`;
    await updateWebhook(env, { url: deadURL, caBundle: hook.caBundle });
    await eventually(async () => {
      const r = await c.json('GET', `${V2}/w1`);
      assert.equal(r.status, 500);
      assert.equal(r.body['message'], `conversion webhook for stable.example.com/v1, Kind=CronTab failed: Post "${deadURL}?timeout=30s": dial tcp 127.0.0.1:${port}: connect: connection refused`);
    });
    const list = await c.json('GET', V2);
    assert.equal(list.status, 500);
    const before = await c.json('GET', `${V1}/w1`);
    const put = await c.json('PUT', `${V2}/w1`, {
      apiVersion: 'stable.example.com/v2',
      kind: 'CronTab',
      metadata: { name: 'w1', resourceVersion: meta(before.body)['resourceVersion'] },
      spec: { schedule: '9 * * * *' },
    });
    assert.equal(put.status, 500);
    assert.deepEqual((await c.json('GET', `${V1}/w1`)).body, before.body, 'nothing changed');
    // The storage version needs no conversion: v1 keeps working.
    assert.equal((await c.json('GET', V1)).status, 200);

    await updateWebhook(env, { url: hook.url, caBundle: hook.caBundle });
    await eventually(async () => assert.equal((await c.json('GET', `${V2}/w1`)).status, 200));
  });

  test('a certificate the caBundle does not trust fails the TLS handshake', async () => {
    const c = env.client;
    const otherDir = mkdtempSync(join(tmpdir(), 'other-ca-'));
    try {
      const other = await ensurePKI(otherDir, { hosts: [] });
      await updateWebhook(env, { url: hook.url, caBundle: Buffer.from(other.caCertPEM).toString('base64') });
      await eventually(async () => {
        const r = await c.json('GET', `${V2}/w1`);
        assert.equal(r.status, 500);
        assert.equal(
          r.body['message'],
          `conversion webhook for stable.example.com/v1, Kind=CronTab failed: Post "${hook.url}?timeout=30s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
        );
      });
    } finally {
      await updateWebhook(env, { url: hook.url, caBundle: hook.caBundle });
      rmSync(otherDir, { recursive: true, force: true });
    }
  });

  test('a service reference resolves through the Service and its Endpoints', async () => {
    const c = env.client;
    const svc = await c.json('POST', '/api/v1/namespaces/default/services', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'conv' },
      spec: { ports: [{ name: 'https', port: 443, targetPort: hook.port }] },
    });
    assert.equal(svc.status, 201, JSON.stringify(svc.body));
    const eps = await c.json('POST', '/api/v1/namespaces/default/endpoints', {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'conv' },
      subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: hook.port }] }],
    });
    assert.equal(eps.status, 201, JSON.stringify(eps.body));
    await updateWebhook(env, { service: { namespace: 'default', name: 'conv', path: '/convert' }, caBundle: hook.caBundle });
    await eventually(async () => {
      const r = await c.json('GET', `${V2}/w1`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.ok('schedule' in spec(r.body));
    });
    await updateWebhook(env, { service: { namespace: 'default', name: 'missing', path: '/convert' }, caBundle: hook.caBundle });
    await eventually(async () => {
      const r = await c.json('GET', `${V2}/w1`);
      assert.equal(r.body['message'], 'conversion webhook for stable.example.com/v1, Kind=CronTab failed: Post "https://missing.default.svc:443/convert?timeout=30s": service "missing" not found');
    });
  });
});

/** Replaces the CRD's webhook clientConfig (retrying while controllers write its status). */
async function updateWebhook(env: Env, clientConfig: Obj): Promise<void> {
  for (;;) {
    const crd = (await env.client.json('GET', `${CRDS}/crontabs.stable.example.com`)).body as { spec: { conversion: { webhook: Obj } } };
    crd.spec.conversion.webhook['clientConfig'] = clientConfig;
    const r = await env.client.json('PUT', `${CRDS}/crontabs.stable.example.com`, crd);
    if (r.status === 200) return;
    if (r.status !== 409) throw new Error(`update CRD: ${r.status} ${JSON.stringify(r.body)}`);
  }
}
