import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CRONTABS, TABLE_ACCEPT, createEstablishedCRD, cronTab, cronTabCRD, cronTabVersion, startEnv, type Env, type Obj } from './env.js';

function causes(body: Obj): string[] {
  const details = body['details'] as { causes?: Array<{ field?: string; message?: string }> } | undefined;
  return (details?.causes ?? []).map((c) => `${c.field ?? ''}: ${c.message ?? ''}`);
}

const spec = (o: Obj): Obj => o['spec'] as Obj;
const meta = (o: Obj): Obj => o['metadata'] as Obj;

describe('custom resources of the CronTab CRD over HTTP (control plane on SQLite)', () => {
  let env: Env;
  before(async () => {
    env = await startEnv();
    await createEstablishedCRD(env.client, cronTabCRD(), CRONTABS);
  });
  after(() => env.close());

  test('create, get, list, update, merge and JSON patch, delete', async () => {
    const c = env.client;
    const created = await c.json('POST', CRONTABS, cronTab('crud'));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body['apiVersion'], 'stable.example.com/v1');
    assert.equal(created.body['kind'], 'CronTab');
    assert.equal(meta(created.body)['namespace'], 'default');
    assert.equal(meta(created.body)['generation'], 1);
    assert.ok(typeof meta(created.body)['uid'] === 'string');

    const got = await c.json('GET', `${CRONTABS}/crud`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, created.body);

    const list = await c.json('GET', CRONTABS);
    assert.equal(list.status, 200);
    assert.equal(list.body['kind'], 'CronTabList');
    assert.equal(list.body['apiVersion'], 'stable.example.com/v1');
    assert.ok((list.body['items'] as Obj[]).some((i) => meta(i)['name'] === 'crud'));
    const all = await c.json('GET', '/apis/stable.example.com/v1/crontabs');
    assert.equal(all.status, 200, 'namespaced resources list across namespaces');

    const put = await c.json('PUT', `${CRONTABS}/crud`, { ...got.body, spec: { ...spec(got.body), image: 'v2' } });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(spec(put.body)['image'], 'v2');
    assert.equal(meta(put.body)['generation'], 2);

    const merge = await c.json('PATCH', `${CRONTABS}/crud`, { spec: { replicas: 3 } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(merge.status, 200, JSON.stringify(merge.body));
    assert.equal(spec(merge.body)['replicas'], 3);
    const json = await c.json('PATCH', `${CRONTABS}/crud`, [{ op: 'replace', path: '/spec/image', value: 'v3' }], { 'Content-Type': 'application/json-patch+json' });
    assert.equal(json.status, 200, JSON.stringify(json.body));
    assert.equal(spec(json.body)['image'], 'v3');

    const deleted = await c.json('DELETE', `${CRONTABS}/crud`);
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body['details'], { name: 'crud', group: 'stable.example.com', kind: 'crontabs', uid: meta(created.body)['uid'] });
    assert.equal((await c.json('GET', `${CRONTABS}/crud`)).status, 404);
  });

  test('strategic merge patch is 415, as for every custom resource', async () => {
    await env.client.json('POST', CRONTABS, cronTab('smp'));
    const r = await env.client.json('PATCH', `${CRONTABS}/smp`, { spec: { replicas: 2 } }, { 'Content-Type': 'application/strategic-merge-patch+json' });
    assert.equal(r.status, 415);
    assert.equal(r.body['reason'], 'UnsupportedMediaType');
    assert.equal(
      r.body['message'],
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
  });

  test('an invalid object is a 422 naming the field', async () => {
    const r = await env.client.json('POST', CRONTABS, cronTab('bad', { cronSpec: 'not a cron', image: 'x', replicas: 11 }));
    assert.equal(r.status, 422);
    assert.equal(
      r.body['message'],
      'CronTab.stable.example.com "bad" is invalid: [spec.cronSpec: Invalid value: "not a cron": spec.cronSpec in body should match \'^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$\', spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10]',
    );
    assert.deepEqual(
      causes(r.body).map((x) => x.split(':')[0]),
      ['spec.cronSpec', 'spec.replicas'],
    );
    const wrongType = await env.client.json('POST', CRONTABS, cronTab('bad2', { image: 3 }));
    assert.equal(wrongType.status, 422);
    assert.deepEqual(causes(wrongType.body), ['spec.image: Invalid value: "integer": spec.image in body must be of type string: "integer"']);
    const badName = await env.client.json('POST', CRONTABS, cronTab('Bad_Name'));
    assert.equal(badName.status, 422);
    assert.match(causes(badName.body)[0] as string, /^metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
  });

  test('unknown fields are pruned (and reported under fieldValidation); defaults are applied', async () => {
    const body = cronTab('pruned', { cronSpec: '* * * * *', image: 'x', color: 'red' });
    (body as Obj)['extra'] = true;
    const r = await env.client.json('POST', CRONTABS, body);
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.deepEqual(spec(r.body), { cronSpec: '* * * * *', image: 'x', replicas: 1 });
    assert.equal(r.body['extra'], undefined);
    const strict = await env.client.json('POST', `${CRONTABS}?fieldValidation=Strict`, cronTab('strict', { image: 'x', color: 'red' }));
    assert.equal(strict.status, 400);
    assert.equal(strict.body['message'], 'CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.color"');
    const warn = await env.client.request({
      method: 'POST',
      path: `${CRONTABS}?fieldValidation=Warn`,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(cronTab('warned', { image: 'x', color: 'red' })),
    });
    assert.equal(warn.status, 201);
    assert.match(String(warn.headers['warning']), /unknown field \\"spec.color\\"/);
  });

  test('status subresource: spec and status are written separately; generation follows spec only', async () => {
    const c = env.client;
    const created = await c.json('POST', CRONTABS, { ...cronTab('st'), status: { replicas: 9 } });
    assert.equal(created.body['status'], undefined, 'status is dropped on create');
    const status = await c.json('PUT', `${CRONTABS}/st/status`, { ...created.body, spec: { ...spec(created.body), image: 'ignored' }, status: { replicas: 2, labelSelector: 'app=st' } });
    assert.equal(status.status, 200, JSON.stringify(status.body));
    assert.deepEqual(status.body['status'], { replicas: 2, labelSelector: 'app=st' });
    assert.equal(spec(status.body)['image'], 'my-cron-image', 'spec changes through /status are ignored');
    assert.equal(meta(status.body)['generation'], 1);
    const main = await c.json('PATCH', `${CRONTABS}/st`, { spec: { image: 'new' }, status: { replicas: 7 } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(main.status, 200);
    assert.deepEqual(main.body['status'], { replicas: 2, labelSelector: 'app=st' }, 'status changes through the main resource are ignored');
    assert.equal(meta(main.body)['generation'], 2);
    const got = await c.json('GET', `${CRONTABS}/st/status`);
    assert.equal(got.status, 200);
    assert.equal(got.body['kind'], 'CronTab');
  });

  test('scale subresource: autoscaling/v1 Scale from the replica paths; kubectl scale patches it', async () => {
    const c = env.client;
    const created = await c.json('POST', CRONTABS, cronTab('sc', { cronSpec: '* * * * *', image: 'x', replicas: 2 }));
    await c.json('PUT', `${CRONTABS}/sc/status`, { ...created.body, status: { replicas: 1, labelSelector: 'app=sc' } });
    const scale = await c.json('GET', `${CRONTABS}/sc/scale`);
    assert.equal(scale.status, 200);
    assert.equal(scale.body['apiVersion'], 'autoscaling/v1');
    assert.equal(scale.body['kind'], 'Scale');
    assert.deepEqual(scale.body['spec'], { replicas: 2 });
    assert.deepEqual(scale.body['status'], { replicas: 1, selector: 'app=sc' });
    const patched = await c.json('PATCH', `${CRONTABS}/sc/scale`, { spec: { replicas: 7 } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual(patched.body['spec'], { replicas: 7 });
    assert.equal(spec((await c.json('GET', `${CRONTABS}/sc`)).body)['replicas'], 7);
    const negative = await c.json('PATCH', `${CRONTABS}/sc/scale`, { spec: { replicas: -1 } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(negative.status, 422);
    const tooMany = await c.json('PATCH', `${CRONTABS}/sc/scale`, { spec: { replicas: 11 } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(tooMany.status, 422, 'the CR schema bounds the replicas the scale writes');
  });

  test('Table with the printer columns; selectable fields in field selectors', async () => {
    const c = env.client;
    await c.json('POST', CRONTABS, cronTab('tab-a', { cronSpec: '*/5 * * * *', image: 'img-a', replicas: 4 }));
    await c.json('POST', CRONTABS, cronTab('tab-b', { cronSpec: '* * * * *', image: 'img-b' }));
    const table = await c.json('GET', `${CRONTABS}?fieldSelector=spec.image%3Dimg-a`, undefined, { Accept: TABLE_ACCEPT });
    assert.equal(table.status, 200, JSON.stringify(table.body));
    assert.equal(table.body['kind'], 'Table');
    assert.deepEqual(
      (table.body['columnDefinitions'] as Obj[]).map((d) => [d['name'], d['type']]),
      [
        ['Name', 'string'],
        ['Spec', 'string'],
        ['Replicas', 'integer'],
        ['Age', 'date'],
      ],
    );
    const rows = table.body['rows'] as Array<{ cells: unknown[] }>;
    assert.equal(rows.length, 1);
    assert.deepEqual(rows[0]?.cells.slice(0, 3), ['tab-a', '*/5 * * * *', 4]);
    const badField = await c.json('GET', `${CRONTABS}?fieldSelector=spec.cronSpec%3Dx`);
    assert.equal(badField.status, 400);
    assert.equal(badField.body['message'], 'field label not supported: spec.cronSpec');
  });

  test('watch from a list resourceVersion sees writes in order', async () => {
    const c = env.client;
    const list = await c.json('GET', CRONTABS);
    const rv = String(meta(list.body)['resourceVersion']);
    const w = await c.watch(`${CRONTABS}?watch=true&resourceVersion=${rv}`);
    try {
      await c.json('POST', CRONTABS, cronTab('watched'));
      await c.json('PATCH', `${CRONTABS}/watched`, { spec: { image: 'w2' } }, { 'Content-Type': 'application/merge-patch+json' });
      await c.json('DELETE', `${CRONTABS}/watched`);
      const events = await w.until((evs) => evs.filter((e) => meta(e.object)['name'] === 'watched').length >= 3);
      const mine = events.filter((e) => meta(e.object)['name'] === 'watched');
      assert.deepEqual(
        mine.map((e) => e.type),
        ['ADDED', 'MODIFIED', 'DELETED'],
      );
      assert.equal(mine[0]?.object['apiVersion'], 'stable.example.com/v1');
    } finally {
      w.close();
    }
  });

  test('dryRun writes nothing; finalizers hold a deletion', async () => {
    const c = env.client;
    const dry = await c.json('POST', `${CRONTABS}?dryRun=All`, cronTab('dry'));
    assert.equal(dry.status, 201);
    assert.equal((await c.json('GET', `${CRONTABS}/dry`)).status, 404);
    await c.json('POST', CRONTABS, cronTab('held', undefined, undefined, { finalizers: ['example.com/hold'] }));
    const first = await c.json('DELETE', `${CRONTABS}/held`);
    assert.equal(first.status, 200);
    assert.ok(meta(first.body)['deletionTimestamp'], 'the object stays, marked for deletion');
    const release = await c.json('PATCH', `${CRONTABS}/held`, { metadata: { finalizers: null } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(release.status, 200);
    assert.equal((await c.json('GET', `${CRONTABS}/held`)).status, 404);
  });

  test('updates: a stale resourceVersion is a 409 before validation; a body without a name; storage preconditions', async () => {
    const c = env.client;
    const created = await c.json('POST', CRONTABS, cronTab('upd'));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const stale: Obj = { ...structuredClone(created.body), spec: { ...spec(created.body), replicas: 'many' } };
    (stale['metadata'] as Obj)['resourceVersion'] = '1';
    const conflict = await c.json('PUT', `${CRONTABS}/upd`, stale);
    assert.deepEqual(
      [conflict.status, conflict.body['reason'], conflict.body['message']],
      [409, 'Conflict', 'Operation cannot be fulfilled on crontabs.stable.example.com "upd": the object has been modified; please apply your changes to the latest version and try again'],
    );
    // A merge patch or an apply configuration (replicas over the schema's maximum) that sets a
    // stale resourceVersion: the same 409.
    const modified = 'Operation cannot be fulfilled on crontabs.stable.example.com "upd": the object has been modified; please apply your changes to the latest version and try again';
    const patched = await c.json('PATCH', `${CRONTABS}/upd`, { metadata: { resourceVersion: '1' }, spec: { replicas: 'many' } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.deepEqual([patched.status, patched.body['reason'], patched.body['message']], [409, 'Conflict', modified]);
    const applyConfig = { apiVersion: created.body['apiVersion'], kind: created.body['kind'], metadata: { name: 'upd', resourceVersion: '1' }, spec: { replicas: 11 } };
    const applied = await c.json('PATCH', `${CRONTABS}/upd?fieldManager=stale&force=true`, applyConfig, { 'Content-Type': 'application/apply-patch+yaml' });
    assert.deepEqual([applied.status, applied.body['reason'], applied.body['message']], [409, 'Conflict', modified]);
    const unnamed = structuredClone(created.body);
    delete (unnamed['metadata'] as Obj)['name'];
    const noName = await c.json('PUT', `${CRONTABS}/upd`, unnamed);
    assert.deepEqual([noName.status, noName.body['reason'], noName.body['message']], [400, 'BadRequest', 'the name of the object (upd based on URL) was undeterminable: name must be provided']);
    const otherUID = structuredClone(created.body);
    (otherUID['metadata'] as Obj)['uid'] = 'other-uid';
    const precondition = await c.json('PUT', `${CRONTABS}/upd`, otherUID);
    assert.deepEqual(
      [precondition.status, precondition.body['reason'], precondition.body['message']],
      [
        409,
        'Conflict',
        `Operation cannot be fulfilled on crontabs.stable.example.com "upd": StorageError: invalid object, Code: 4, Key: /registry/stable.example.com/crontabs/default/upd, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: other-uid, UID in object meta: ${String(meta(created.body)['uid'])}`,
      ],
    );
  });

  test("a write into a namespace that does not exist is NamespaceLifecycle's 404 before any validation", async () => {
    // A mutating plugin (kube's Admit): it runs before the namespace's name and the object are
    // validated (the store's BeforeCreate), for a custom resource as for a built-in kind.
    for (const ns of ['missing', 'Bad_NS']) {
      for (const body of [cronTab('x'), cronTab('x', { cronSpec: 'not a cron', image: 'x', replicas: 11 })]) {
        const r = await env.client.json('POST', CRONTABS.replace('/default/', `/${ns}/`), body);
        assert.deepEqual([r.status, r.body['reason'], r.body['message']], [404, 'NotFound', `namespaces "${ns}" not found`]);
      }
      const cm = await env.client.json('POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { 'bad key!': 'v' } });
      assert.deepEqual([cm.status, cm.body['reason'], cm.body['message']], [404, 'NotFound', `namespaces "${ns}" not found`]);
    }
    // In a namespace that exists, the same bodies are the validation's 422s.
    const invalid = await env.client.json('POST', CRONTABS, cronTab('x', { cronSpec: 'not a cron', image: 'x', replicas: 11 }));
    assert.deepEqual([invalid.status, invalid.body['reason']], [422, 'Invalid']);
    const cm = await env.client.json('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { 'bad key!': 'v' } });
    assert.deepEqual(
      [cm.status, cm.body['reason'], cm.body['message']],
      [
        422,
        'Invalid',
        `ConfigMap "x" is invalid: data[bad key!]: Invalid value: "bad key!": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
      ],
    );
  });

  test('a resourceVersion that does not parse is dropped on create; a future one is a Timeout', async () => {
    const r = await env.client.json('POST', CRONTABS, cronTab('rv-garbage', undefined, undefined, { resourceVersion: 'abc' }));
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.match(String(meta(r.body)['resourceVersion']), /^\d+$/);
    const future = await env.client.json('GET', `${CRONTABS}?resourceVersion=99999999`);
    assert.equal(future.status, 504);
    assert.equal(future.body['reason'], 'Timeout');
    assert.match(String(future.body['message']), /^Timeout: Too large resource version: 99999999, current: \d+$/);
  });

  test('lists carry an empty continue; PartialObjectMetadata of a list names the unstructured list type', async () => {
    const list = await env.client.json('GET', CRONTABS);
    assert.equal(list.status, 200);
    assert.deepEqual(Object.keys(meta(list.body)).sort(), ['continue', 'resourceVersion']);
    assert.equal(meta(list.body)['continue'], '');
    const pom = await env.client.json('GET', CRONTABS, undefined, { Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' });
    assert.deepEqual(
      [pom.status, pom.body['reason'], pom.body['message']],
      [406, 'NotAcceptable', 'you requested PartialObjectMetadata, but the requested object is a list (*unstructured.UnstructuredList)'],
    );
    // Built-in types name the internal version's type.
    const cms = await env.client.json('GET', '/api/v1/namespaces/default/configmaps', undefined, { Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' });
    assert.deepEqual([cms.status, cms.body['message']], [406, 'you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)']);
  });

  test('routing by verb alone: PUT or PATCH of the collection needs a name; POST naming an object creates', async () => {
    const c = env.client;
    const put = await c.json('PUT', CRONTABS, cronTab('coll'));
    assert.deepEqual([put.status, put.body['reason'], put.body['message']], [400, 'BadRequest', 'name must be provided']);
    const patch = await c.json('PATCH', CRONTABS, { spec: {} }, { 'Content-Type': 'application/merge-patch+json' });
    assert.deepEqual([patch.status, patch.body['message']], [400, 'name must be provided']);
    const smp = await c.json('PATCH', CRONTABS, { spec: {} }, { 'Content-Type': 'application/strategic-merge-patch+json' });
    assert.equal(smp.status, 415);
    const named = await c.json('POST', `${CRONTABS}/posted`, cronTab('posted'));
    assert.equal(named.status, 201, JSON.stringify(named.body));
    const again = await c.json('POST', `${CRONTABS}/posted`, cronTab('posted'));
    assert.deepEqual([again.status, again.body['reason'], again.body['message']], [409, 'AlreadyExists', 'crontabs.stable.example.com "posted" already exists']);
    // The body names the object; the URL's name is not checked against it.
    const elsewhere = await c.json('POST', `${CRONTABS}/posted`, cronTab('posted-too'));
    assert.equal(elsewhere.status, 201, JSON.stringify(elsewhere.body));
    assert.equal(meta(elsewhere.body)['name'], 'posted-too');
    const status = await c.json('POST', `${CRONTABS}/posted/status`, cronTab('posted'));
    assert.equal(status.status, 405);
  });

  test('requests for resources no CRD serves fall through to 404', async () => {
    // Past the CRD handler nothing serves them: kube's plain-text 404.
    const plain404 = async (path: string, why?: string): Promise<void> => {
      const r = await env.client.request({ path });
      assert.deepEqual([r.status, r.text], [404, '404 page not found\n'], why ?? path);
    };
    await plain404('/apis/stable.example.com/v1/namespaces/default/nothings');
    await plain404('/apis/stable.example.com/v9/namespaces/default/crontabs');
    await plain404('/apis/stable.example.com/v1/crontabs/x', 'a namespaced resource by name needs its namespace');
    // An unknown subresource reaches the CRD handler, which names the object.
    assert.equal((await env.client.json('GET', `${CRONTABS}/x/bogus`)).status, 404);
  });
});

describe('schema features of custom resources', () => {
  let env: Env;
  const PATH = '/apis/features.example.com/v1/namespaces/default/widgets';
  before(async () => {
    env = await startEnv();
    const schema = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          'x-kubernetes-validations': [
            { rule: '!has(self.minReplicas) || !has(self.maxReplicas) || self.minReplicas <= self.maxReplicas', message: 'minReplicas must not exceed maxReplicas', fieldPath: '.minReplicas' },
            { rule: '!has(oldSelf.mode) || self.mode == oldSelf.mode', message: 'mode is immutable', reason: 'FieldValueForbidden' },
          ],
          properties: {
            minReplicas: { type: 'integer' },
            maxReplicas: { type: 'integer' },
            mode: { type: 'string' },
            port: { 'x-kubernetes-int-or-string': true },
            note: { type: 'string', nullable: true },
            free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
            ports: {
              type: 'array',
              'x-kubernetes-list-type': 'map',
              'x-kubernetes-list-map-keys': ['name'],
              items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } },
            },
            template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
          },
        },
      },
    };
    const crd = cronTabCRD({ group: 'features.example.com', plural: 'widgets', kind: 'Widget', versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }] });
    await createEstablishedCRD(env.client, crd, PATH);
  });
  after(() => env.close());

  const widget = (name: string, s: Obj): Obj => ({ apiVersion: 'features.example.com/v1', kind: 'Widget', metadata: { name }, spec: s });

  test('CEL rules: message and fieldPath on create; transition rules with oldSelf on update', async () => {
    const c = env.client;
    const bad = await c.json('POST', PATH, widget('cel-bad', { minReplicas: 3, maxReplicas: 1 }));
    assert.equal(bad.status, 422);
    assert.deepEqual(causes(bad.body), ['spec.minReplicas: Invalid value: "object": minReplicas must not exceed maxReplicas']);
    const ok = await c.json('POST', PATH, widget('cel', { minReplicas: 1, maxReplicas: 2, mode: 'a' }));
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    const change = await c.json('PATCH', `${PATH}/cel`, { spec: { mode: 'b' } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(change.status, 422);
    assert.deepEqual(causes(change.body), ['spec: Forbidden: mode is immutable']);
  });

  test('int-or-string, nullable, preserve-unknown-fields', async () => {
    const c = env.client;
    for (const port of [80, 'http']) {
      const r = await c.json('POST', PATH, widget(`ios-${typeof port}`, { port, note: null, free: { any: { deep: [1] } } }));
      assert.equal(r.status, 201, JSON.stringify(r.body));
      assert.equal(spec(r.body)['port'], port);
      assert.equal(spec(r.body)['note'], null);
      assert.deepEqual(spec(r.body)['free'], { any: { deep: [1] } });
    }
    const obj = await c.json('POST', PATH, widget('ios-object', { port: { a: 1 } }));
    assert.equal(obj.status, 422, JSON.stringify(obj.body));
    // The schema has CEL rules: after a type error they are not run, and kube says so.
    assert.deepEqual(causes(obj.body), [
      'spec.port: Invalid value: "object": spec.port in body must be of type integer,string: "object"',
      '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
  });

  test('list-type set and map reject duplicates', async () => {
    const r = await env.client.json(
      'POST',
      PATH,
      widget('dups', {
        tags: ['a', 'a'],
        ports: [
          { name: 'http', port: 80 },
          { name: 'http', port: 81 },
        ],
      }),
    );
    assert.equal(r.status, 422);
    assert.deepEqual(causes(r.body), ['spec.tags[1]: Duplicate value: "a"', 'spec.ports[1]: Duplicate value: map[string]interface {}{"name":"http"}']);
  });

  test('embedded resources need apiVersion and kind; their metadata is ObjectMeta', async () => {
    const c = env.client;
    const missing = await c.json('POST', PATH, widget('emb-missing', { template: { spec: {} } }));
    assert.equal(missing.status, 422);
    assert.deepEqual(causes(missing.body), [
      'spec.template.apiVersion: Required value',
      'spec.template.kind: Required value',
      '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
    const badMeta = await c.json('POST', PATH, widget('emb-meta', { template: { apiVersion: 'a/b/c', kind: 'Pod', metadata: { name: 'a/b', labels: { 'bad key!': 'x' } }, spec: { any: 1 } } }));
    assert.equal(badMeta.status, 422);
    assert.deepEqual(
      causes(badMeta.body).map((x) => x.split(': ')[0]),
      ['spec.template.apiVersion', 'spec.template.metadata.name', 'spec.template.metadata.labels'],
    );
    assert.ok(causes(badMeta.body).includes('spec.template.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c'), JSON.stringify(causes(badMeta.body)));
    assert.ok(causes(badMeta.body).includes('spec.template.metadata.name: Invalid value: "a/b": may not contain \'/\''), JSON.stringify(causes(badMeta.body)));
    const good = await c.json('POST', PATH, widget('emb', { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', bogus: 1 }, spec: { any: 1 } } }));
    assert.equal(good.status, 201, JSON.stringify(good.body));
    assert.deepEqual(spec(good.body)['template'], { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { any: 1 } });
  });
});

describe('a cluster-scoped CRD and a deprecated version', () => {
  let env: Env;
  before(async () => {
    env = await startEnv();
    const versions = [
      cronTabVersion('v1', { storage: true }),
      cronTabVersion('v1beta1', { extra: { deprecated: true } }),
      cronTabVersion('v1alpha1', { extra: { deprecated: true, deprecationWarning: 'v1alpha1 goes away soon' } }),
    ];
    await createEstablishedCRD(
      env.client,
      cronTabCRD({ group: 'cluster.example.com', plural: 'clustertabs', kind: 'ClusterTab', scope: 'Cluster', versions }),
      '/apis/cluster.example.com/v1/clustertabs',
    );
  });
  after(() => env.close());

  test('cluster-scoped paths only; deprecated versions warn', async () => {
    const c = env.client;
    const body = { apiVersion: 'cluster.example.com/v1beta1', kind: 'ClusterTab', metadata: { name: 'one' }, spec: { image: 'x' } };
    const r = await c.request({ method: 'POST', path: '/apis/cluster.example.com/v1beta1/clustertabs', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers['warning'], '299 - "cluster.example.com/v1beta1 ClusterTab is deprecated; use cluster.example.com/v1 ClusterTab"');
    const alpha = await c.request({ path: '/apis/cluster.example.com/v1alpha1/clustertabs/one' });
    assert.equal(alpha.status, 200);
    assert.equal(alpha.headers['warning'], '299 - "v1alpha1 goes away soon"');
    assert.equal(JSON.parse(alpha.text).apiVersion, 'cluster.example.com/v1alpha1');
    const v1 = await c.request({ path: '/apis/cluster.example.com/v1/clustertabs/one' });
    assert.equal(v1.headers['warning'], undefined);
    assert.equal((await c.request({ path: '/apis/cluster.example.com/v1/namespaces/default/clustertabs/one' })).status, 404);
  });
});
