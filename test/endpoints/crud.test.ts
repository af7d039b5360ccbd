import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { flunderV1alpha1, flunderV1beta1, startServer, V1ALPHA1, V1BETA1, warnings, type Response, type TestServer } from './helpers.js';

const NS = `${V1ALPHA1}/namespaces/default/flunders`;
const NS_BETA = `${V1BETA1}/namespaces/default/flunders`;

describe('endpoints over HTTP: create, get, update, delete in both wardle versions', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer();
  });
  after(async () => {
    await s.close();
  });

  test('create in v1alpha1 (201), read in v1beta1 and v1alpha1', async () => {
    const created = await s.req('POST', NS, { body: flunderV1alpha1('a', { reference: 'f1', referenceType: 'Fischer' }) });
    assert.equal(created.status, 201);
    assert.equal(created.headers['content-type'], 'application/json');
    const body = created.json();
    assert.equal(body['apiVersion'], 'wardle.example.com/v1alpha1');
    assert.equal(body['kind'], 'Flunder');
    const meta = body['metadata'] as Record<string, unknown>;
    assert.equal(meta['namespace'], 'default');
    assert.deepEqual(meta['labels'], { admitted: 'yes' }, 'mutating admission ran');
    assert.match(String(meta['resourceVersion']), /^\d+$/);
    assert.deepEqual(body['spec'], { reference: 'f1', referenceType: 'Fischer' });

    const beta = await s.req('GET', `${NS_BETA}/a`);
    assert.equal(beta.status, 200);
    assert.equal(beta.json()['apiVersion'], 'wardle.example.com/v1beta1');
    assert.deepEqual(beta.json()['spec'], { fischerReference: 'f1', referenceType: 'Fischer' });
    const alpha = await s.req('GET', `${NS}/a`);
    assert.deepEqual(alpha.json()['spec'], { reference: 'f1', referenceType: 'Fischer' });
  });

  test('create in v1beta1 with a YAML body; hand-written defaults applied', async () => {
    const yaml = 'apiVersion: wardle.example.com/v1beta1\nkind: Flunder\nmetadata:\n  name: yml\nspec:\n  flunderReference: other\n';
    const r = await s.req('POST', NS_BETA, { body: yaml, headers: { 'content-type': 'application/yaml' } });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json()['spec'], { flunderReference: 'other', referenceType: 'Flunder' });
  });

  test('missing apiVersion/kind are taken from the URL; YAML output on request', async () => {
    const r = await s.req('POST', NS, { body: { metadata: { name: 'nokind' } }, headers: { accept: 'application/yaml' } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers['content-type'], 'application/yaml');
    assert.match(r.text, /^apiVersion: wardle.example.com\/v1alpha1\nkind: Flunder\n/m);
  });

  test('409 AlreadyExists and 404 NotFound, word for word', async () => {
    const dup = await s.req('POST', NS, { body: flunderV1alpha1('a') });
    assert.equal(dup.status, 409);
    assert.deepEqual(dup.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'flunders.wardle.example.com "a" already exists',
      reason: 'AlreadyExists',
      details: { name: 'a', group: 'wardle.example.com', kind: 'flunders' },
      code: 409,
    });
    const missing = await s.req('GET', `${NS}/nope`);
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'flunders.wardle.example.com "nope" not found',
      reason: 'NotFound',
      details: { name: 'nope', group: 'wardle.example.com', kind: 'flunders' },
      code: 404,
    });
  });

  test('422 Invalid from the request version schema, with causes', async () => {
    const r = await s.req('POST', NS, { body: flunderV1alpha1('bad', { reference: 'Bad_Name', referenceType: 'Nope' }) });
    assert.equal(r.status, 422, r.text);
    const body = r.json();
    assert.equal(body['reason'], 'Invalid');
    assert.match(String(body['message']), /^Flunder\.wardle\.example\.com "bad" is invalid: \[/);
    const details = body['details'] as { kind: string; causes: { field: string; reason: string }[] };
    assert.equal(details.kind, 'Flunder');
    // An unsupported value blocks the declared rules; the cause saying so (hasBlockingErr) is custom resources' alone.
    assert.deepEqual(details.causes.map((c) => `${c.field}:${c.reason}`).sort(), ['spec.reference:FieldValueInvalid', 'spec.referenceType:FieldValueNotSupported']);
  });

  test('validation runs on the object as mutating admission left it (create, PUT, patch; either version)', async () => {
    // kube 1.32: mutating admission, then the store's BeforeCreate/BeforeUpdate validates.
    const MERGE = { 'content-type': 'application/merge-patch+json' };
    // (The plugin works on the hub, v1beta1: a v1alpha1 request is validated in v1alpha1, converted back.)
    for (const [path, make, ref] of [
      [NS, flunderV1alpha1, 'reference'],
      [NS_BETA, flunderV1beta1, 'flunderReference'],
    ] as const) {
      const spec = (o: Response): Record<string, unknown> => o.json()['spec'] as Record<string, unknown>;
      const created = await s.req('POST', path, { body: make('mended-x', { [ref]: 'r', referenceType: 'Nope' }) });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(spec(created), { [ref]: 'r', referenceType: 'Flunder' });
      const resourceVersion = (created.json()['metadata'] as Record<string, unknown>)['resourceVersion'];
      const put = await s.req('PUT', `${path}/mended-x`, { body: make('mended-x', { [ref]: 'r2', referenceType: 'Nope' }, { resourceVersion }) });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(spec(put), { [ref]: 'r2', referenceType: 'Flunder' });
      const patched = await s.req('PATCH', `${path}/mended-x`, { body: { spec: { [ref]: 'r3', referenceType: 'Nope' } }, headers: MERGE });
      assert.equal(patched.status, 200, patched.text);
      assert.deepEqual(spec(patched), { [ref]: 'r3', referenceType: 'Flunder' });
      assert.equal((await s.req('DELETE', `${path}/mended-x`)).status, 200);
    }
    // Without the plugin's mending, the same body is the 422.
    const unmended = await s.req('POST', NS_BETA, { body: flunderV1beta1('unmended', { flunderReference: 'r', referenceType: 'Nope' }) });
    assert.equal(unmended.status, 422, unmended.text);
    assert.equal(unmended.json()['message'], 'Flunder.wardle.example.com "unmended" is invalid: spec.referenceType: Unsupported value: "Nope": supported values: "Flunder", "Fischer"');
  });

  test('validating admission rejects (403)', async () => {
    const r = await s.req('POST', NS, { body: flunderV1alpha1('banned') });
    assert.equal(r.status, 403);
    assert.equal(r.json()['message'], 'flunders.wardle.example.com "banned" is forbidden: this name may not be used');
  });

  test('body apiVersion, kind, name and namespace must match the URL', async () => {
    const gv = await s.req('POST', NS, { body: flunderV1beta1('x') });
    assert.equal(gv.status, 400);
    assert.equal(gv.json()['message'], 'the API version in the data (wardle.example.com/v1beta1) does not match the expected API version (wardle.example.com/v1alpha1)');
    const kind = await s.req('POST', NS, { body: { ...flunderV1alpha1('x'), kind: 'Fischer' } });
    assert.equal(kind.status, 400);
    assert.equal(kind.json()['message'], 'Fischer in version "v1alpha1" cannot be handled as a Flunder: converting (v1alpha1.Fischer) to (wardle.Flunder): unknown conversion');
    const slash = await s.req('POST', NS, { body: { ...flunderV1alpha1('x'), apiVersion: '/' } });
    assert.equal(slash.status, 400);
    const labels = await s.req('POST', NS, { body: flunderV1alpha1('x', {}, { labels: 'x' }) });
    assert.equal(labels.status, 400, 'metadata fields are type-checked against ObjectMeta, as the typed decoder does');
    assert.equal(
      labels.json()['message'],
      'Flunder in version "v1alpha1" cannot be handled as a Flunder: json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string',
    );
    const ns = await s.req('POST', NS, { body: flunderV1alpha1('x', {}, { namespace: 'other' }) });
    assert.equal(ns.status, 400);
    assert.equal(ns.json()['message'], 'the namespace of the provided object does not match the namespace sent on the request');
    const name = await s.req('PUT', `${NS}/a`, { body: flunderV1alpha1('b') });
    assert.equal(name.status, 400);
    assert.equal(name.json()['message'], 'the name of the object (b) does not match the name on the URL (a)');
    const malformed = await s.req('POST', NS, { body: '{"apiVersion":' });
    assert.equal(malformed.status, 400);
    assert.match(String(malformed.json()['message']), /^the object provided is unrecognized \(must be of type Flunder\): couldn't get version\/kind; json parse error: /);
    const media = await s.req('POST', NS, { body: '{}', headers: { 'content-type': 'application/vnd.kubernetes.protobuf' } });
    assert.equal(media.status, 415);
    assert.equal(media.json()['message'], 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml');
  });

  test('PUT: 200 with the new object, 409 on a stale resourceVersion, 404 when absent', async () => {
    const cur = (await s.req('GET', `${NS}/a`)).json();
    const rv = String((cur['metadata'] as Record<string, unknown>)['resourceVersion']);
    const updated = await s.req('PUT', `${NS}/a`, { body: { ...cur, spec: { reference: 'f2', referenceType: 'Fischer' } } });
    assert.equal(updated.status, 200, updated.text);
    assert.deepEqual(updated.json()['spec'], { reference: 'f2', referenceType: 'Fischer' });
    assert.notEqual((updated.json()['metadata'] as Record<string, unknown>)['resourceVersion'], rv);
    const stale = await s.req('PUT', `${NS}/a`, { body: cur });
    assert.equal(stale.status, 409);
    assert.equal(
      stale.json()['message'],
      'Operation cannot be fulfilled on flunders.wardle.example.com "a": the object has been modified; please apply your changes to the latest version and try again',
    );
    // Store.Update compares resourceVersions before BeforeUpdate validates: still the 409.
    const staleInvalid = await s.req('PUT', `${NS}/a`, { body: { ...cur, spec: { reference: 'Bad_Name', referenceType: 'Nope' } } });
    assert.equal(staleInvalid.status, 409, staleInvalid.text);
    assert.equal(staleInvalid.json()['message'], stale.json()['message']);
    const { name: _name, ...unnamedMeta } = updated.json()['metadata'] as Record<string, unknown>;
    const unnamed = await s.req('PUT', `${NS}/a`, { body: { ...updated.json(), metadata: unnamedMeta } });
    assert.equal(unnamed.status, 400);
    assert.equal(unnamed.json()['message'], 'the name of the object (a based on URL) was undeterminable: name must be provided');
    const absent = await s.req('PUT', `${NS}/absent`, { body: flunderV1alpha1('absent', {}, { resourceVersion: '1' }) });
    assert.equal(absent.status, 404);
  });

  test('dryRun=All: 201 without resourceVersion, nothing stored; bad dryRun values are 422', async () => {
    const r = await s.req('POST', `${NS}?dryRun=All`, { body: flunderV1alpha1('dry') });
    assert.equal(r.status, 201);
    const meta = r.json()['metadata'] as Record<string, unknown>;
    assert.equal(meta['resourceVersion'] ?? '', '');
    assert.match(String(meta['uid']), /-/);
    assert.equal((await s.req('GET', `${NS}/dry`)).status, 404);
    const bad = await s.req('POST', `${NS}?dryRun=Some`, { body: flunderV1alpha1('dry') });
    assert.equal(bad.status, 422);
    assert.equal(bad.json()['message'], 'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Some"}: supported values: "All"');
  });

  test('fieldManager longer than 128 bytes or not printable is 422', async () => {
    const long = await s.req('POST', `${NS}?fieldManager=${'m'.repeat(129)}`, { body: flunderV1alpha1('fm') });
    assert.equal(long.status, 422);
    assert.equal(long.json()['message'], 'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes');
    const ctl = await s.req('POST', `${NS}?fieldManager=a%07b`, { body: flunderV1alpha1('fm') });
    assert.equal(ctl.status, 422);
    assert.equal(ctl.json()['message'], 'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Invalid value: "a\\ab": invalid character U+0007 (at position 1)');
  });

  test('DELETE: Success Status without finalizers; the object while finalizers remain', async () => {
    const created = (await s.req('POST', NS, { body: flunderV1alpha1('del') })).json();
    const uid = (created['metadata'] as Record<string, unknown>)['uid'];
    const r = await s.req('DELETE', `${NS}/del`, { body: { propagationPolicy: 'Background' } });
    assert.equal(r.status, 200);
    assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'del', group: 'wardle.example.com', kind: 'flunders', uid } });

    await s.req('POST', NS, { body: flunderV1alpha1('fin', {}, { finalizers: ['example.com/keep'] }) });
    const kept = await s.req('DELETE', `${NS}/fin`);
    assert.equal(kept.status, 200);
    assert.equal(kept.json()['kind'], 'Flunder');
    assert.match(String((kept.json()['metadata'] as Record<string, unknown>)['deletionTimestamp']), /Z$/);
    const again = await s.req('GET', `${NS}/fin`);
    assert.equal(again.status, 200);
    const gone = await s.req('PATCH', `${NS}/fin`, { body: { metadata: { finalizers: null } }, headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(gone.status, 200, gone.text);
    assert.equal((await s.req('GET', `${NS}/fin`)).status, 404);
  });

  test('DELETE options: query parameters, dryRun, invalid policy (422), malformed body (500, the decoder error as delete.go answers it)', async () => {
    await s.req('POST', NS, { body: flunderV1alpha1('opts') });
    const dry = await s.req('DELETE', `${NS}/opts?dryRun=All`);
    assert.equal(dry.status, 200);
    assert.equal((await s.req('GET', `${NS}/opts`)).status, 200);
    const bad = await s.req('DELETE', `${NS}/opts`, { body: { propagationPolicy: 'Sometimes' } });
    assert.equal(bad.status, 422);
    assert.equal(bad.json()['message'], 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sometimes": supported values: "Foreground", "Background", "Orphan", "nil"');
    for (const [body, message] of [
      ['{"gracePeriodSeconds":', "couldn't get version/kind; json parse error: unexpected end of JSON input"],
      [
        '[]',
        'couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }',
      ],
      [{ gracePeriodSeconds: 'soon' }, 'json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64'],
      [{ preconditions: { uid: 1 } }, 'json: cannot unmarshal number into Go struct field Preconditions.preconditions.uid of type types.UID'],
      [{ apiVersion: 'v1', kind: 'Pod' }, 'no kind "Pod" is registered for version "v1" in scheme "pkg/apis/meta/internalversion/scheme/register.go:27"'],
    ] as const) {
      const r = await s.req('DELETE', `${NS}/opts`, { body });
      assert.deepEqual([r.status, r.json()['reason'], r.json()['message']], [500, undefined, message], JSON.stringify(body));
    }
    // Any apiVersion names DeleteOptions (kube registers it unversioned).
    assert.equal((await s.req('DELETE', `${NS}/opts`, { body: { apiVersion: 'v1', kind: 'DeleteOptions', dryRun: ['All'] } })).status, 200);
    const precondition = await s.req('DELETE', `${NS}/opts`, { body: { preconditions: { uid: 'not-it' } } });
    assert.equal(precondition.status, 409);
    // null decodes as empty options (the query is not read when there is a body): deleted.
    assert.equal((await s.req('DELETE', `${NS}/opts?dryRun=All`, { body: 'null' })).status, 200);
    assert.equal((await s.req('GET', `${NS}/opts`)).status, 404);
  });

  test('deletecollection answers the list of deleted objects', async () => {
    await s.req('POST', `${V1ALPHA1}/namespaces/coll/flunders`, { body: flunderV1alpha1('c1', {}, { labels: { set: 'x' } }) });
    await s.req('POST', `${V1ALPHA1}/namespaces/coll/flunders`, { body: flunderV1alpha1('c2', {}, { labels: { set: 'x' } }) });
    await s.req('POST', `${V1ALPHA1}/namespaces/coll/flunders`, { body: flunderV1alpha1('c3') });
    const r = await s.req('DELETE', `${V1BETA1}/namespaces/coll/flunders?labelSelector=set%3Dx`);
    assert.equal(r.status, 200, r.text);
    const body = r.json();
    assert.equal(body['kind'], 'FlunderList');
    assert.equal(body['apiVersion'], 'wardle.example.com/v1beta1');
    assert.deepEqual((body['items'] as { metadata: { name: string } }[]).map((i) => i.metadata.name).sort(), ['c1', 'c2']);
    const left = (await s.req('GET', `${V1ALPHA1}/namespaces/coll/flunders`)).json();
    assert.deepEqual(
      (left['items'] as { metadata: { name: string } }[]).map((i) => i.metadata.name),
      ['c3'],
    );
  });

  test('cluster-scoped Fischer: create, list, namespaced path is 404', async () => {
    const r = await s.req('POST', `${V1ALPHA1}/fischers`, { body: { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Fischer', metadata: { name: 'f1' }, disallowedFlunders: ['x'] } });
    assert.equal(r.status, 201, r.text);
    assert.equal((r.json()['metadata'] as Record<string, unknown>)['namespace'], undefined);
    assert.equal((await s.req('GET', `${V1ALPHA1}/fischers/f1`)).status, 200);
    assert.equal((await s.req('GET', `${V1ALPHA1}/namespaces/default/fischers/f1`)).status, 404);
    assert.equal((await s.req('GET', `${V1BETA1}/fischers`)).status, 404, 'Fischer is not served in v1beta1');
  });

  test('unknown resources are 404; verbs a path does not offer are 405', async () => {
    const unknown = await s.req('GET', `${V1ALPHA1}/namespaces/default/widgets`);
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.json()['details'], {});
    assert.equal(unknown.json()['message'], 'the server could not find the requested resource');
    const put = await s.req('PUT', NS, { body: flunderV1alpha1('a') });
    assert.equal(put.status, 405);
    assert.equal(put.json()['message'], 'update is not supported on resources of kind "flunders.wardle.example.com"');
    const statusDelete = await s.req('DELETE', `${NS}/a/status`);
    assert.equal(statusDelete.status, 405);
    const allNsCreate = await s.req('POST', `${V1ALPHA1}/flunders`, { body: flunderV1alpha1('z') });
    assert.equal(allNsCreate.status, 405);
    const sub = await s.req('GET', `${NS}/a/scale`);
    assert.equal(sub.status, 404);
  });

  test('status subresource: PUT/PATCH change status only; main resource keeps status', async () => {
    await s.req('POST', NS, { body: flunderV1alpha1('st', { reference: 'r1' }) });
    const cur = (await s.req('GET', `${NS}/st/status`)).json();
    const put = await s.req('PUT', `${NS}/st/status`, { body: { ...cur, spec: { reference: 'ignored' }, status: {} } });
    assert.equal(put.status, 200, put.text);
    assert.equal((put.json()['spec'] as Record<string, unknown>)['reference'], 'r1');
    const patch = await s.req('PATCH', `${NS}/st/status`, { body: { metadata: { labels: { ignored: 'yes' } } }, headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(patch.status, 200, patch.text);
    assert.equal(((patch.json()['metadata'] as Record<string, unknown>)['labels'] as Record<string, string>)['ignored'], undefined);
  });

  test("a patch may move the object to another served version: that version's struct decodes it, then it is converted (kube's patcher decodes with the codec)", async () => {
    const MERGE = { 'content-type': 'application/merge-patch+json' };
    assert.equal((await s.req('POST', NS_BETA, { body: flunderV1beta1('moved', { flunderReference: 'a' }) })).status, 201);
    // v1alpha1 has `reference`, not v1beta1's `flunderReference`, which its decoder drops with a warning.
    const moved = await s.req('PATCH', `${NS_BETA}/moved`, { body: { apiVersion: 'wardle.example.com/v1alpha1', spec: { reference: 'b' } }, headers: MERGE });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.json()['apiVersion'], 'wardle.example.com/v1beta1', 'the answer is in the URL version');
    assert.deepEqual(moved.json()['spec'], { flunderReference: 'b', referenceType: 'Flunder' });
    assert.deepEqual(warnings(moved), ['unknown field "spec.flunderReference"']);
    const stored = await s.req('GET', `${NS}/moved`);
    assert.deepEqual(stored.json()['spec'], { reference: 'b', referenceType: 'Flunder' });
    // That version's types judge the patched JSON: a number where v1alpha1 has a string.
    const mistyped = await s.req('PATCH', `${NS_BETA}/moved`, { body: { apiVersion: 'wardle.example.com/v1alpha1', spec: { reference: 1 } }, headers: MERGE });
    assert.equal(mistyped.status, 422, mistyped.text);
    assert.match(String(mistyped.json()['message']), /json: cannot unmarshal number into Go struct field FlunderSpec\.spec\.reference of type string/);
    // A version the group does not serve stays the typed decoder's error.
    const unserved = await s.req('PATCH', `${NS_BETA}/moved`, { body: { apiVersion: 'wardle.example.com/v9' }, headers: MERGE });
    assert.equal(unserved.status, 422, unserved.text);
    assert.match(String(unserved.json()['message']), /no kind "Flunder" is registered for version "wardle\.example\.com\/v9"/);
  });

  test('deprecated versions answer with their warning', async () => {
    const { wardleGroup } = await import('./helpers.js');
    const deprecated = {
      ...wardleGroup,
      versions: wardleGroup.versions.map((v) => (v.name === 'v1alpha1' ? { ...v, deprecation: { warning: 'wardle.example.com/v1alpha1 Flunder is deprecated; use v1beta1' } } : v)),
    };
    const d = await startServer({ group: deprecated });
    try {
      const r = await d.req('GET', `${V1ALPHA1}/namespaces/default/flunders`);
      assert.equal(r.status, 200);
      assert.deepEqual(warnings(r), ['wardle.example.com/v1alpha1 Flunder is deprecated; use v1beta1']);
      assert.deepEqual(warnings(await d.req('GET', `${V1BETA1}/namespaces/default/flunders`)), []);
    } finally {
      await d.close();
    }
  });
});
