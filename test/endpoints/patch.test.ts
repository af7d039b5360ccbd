import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { flunderV1alpha1, startServer, V1ALPHA1, V1BETA1, warnings, type TestServer } from './helpers.js';

const NS = `${V1ALPHA1}/namespaces/default/flunders`;
const NS_BETA = `${V1BETA1}/namespaces/default/flunders`;
const MERGE = { 'content-type': 'application/merge-patch+json' };
const JSONPATCH = { 'content-type': 'application/json-patch+json' };
const SMP = { 'content-type': 'application/strategic-merge-patch+json' };

describe('endpoints over HTTP: patch and fieldValidation', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer();
    for (const name of ['p', 'fv']) {
      const r = await s.req('POST', NS, { body: flunderV1alpha1(name, { reference: 'r1', referenceType: 'Flunder' }) });
      assert.equal(r.status, 201, r.text);
    }
  });
  after(async () => {
    await s.close();
  });

  test('merge patch in v1beta1 on an object created in v1alpha1', async () => {
    const r = await s.req('PATCH', `${NS_BETA}/p?fieldManager=kubectl-patch`, { body: { spec: { flunderReference: 'r2' }, metadata: { labels: { tier: 'web' } } }, headers: MERGE });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json()['spec'], { flunderReference: 'r2', referenceType: 'Flunder' });
    assert.equal(((r.json()['metadata'] as Record<string, unknown>)['labels'] as Record<string, string>)['tier'], 'web');
    assert.deepEqual((await s.req('GET', `${NS}/p`)).json()['spec'], { reference: 'r2', referenceType: 'Flunder' });
  });

  test('JSON patch; a failing operation is 422', async () => {
    const r = await s.req('PATCH', `${NS}/p`, { body: [{ op: 'replace', path: '/spec/reference', value: 'r3' }], headers: JSONPATCH });
    assert.equal(r.status, 200, r.text);
    assert.equal((r.json()['spec'] as Record<string, unknown>)['reference'], 'r3');
    const bad = await s.req('PATCH', `${NS}/p`, { body: [{ op: 'test', path: '/spec/reference', value: 'nope' }], headers: JSONPATCH });
    assert.equal(bad.status, 422);
    assert.equal(bad.json()['reason'], 'Invalid');
  });

  test('strategic merge patch is accepted for groups from apis/', async () => {
    const r = await s.req('PATCH', `${NS}/p`, { body: { metadata: { annotations: { note: 'hi' } } }, headers: SMP });
    assert.equal(r.status, 200, r.text);
    assert.equal(((r.json()['metadata'] as Record<string, unknown>)['annotations'] as Record<string, string>)['note'], 'hi');
  });

  test('unsupported patch types are 415 with the accepted list (server-side apply last, as kube lists it)', async () => {
    for (const ct of ['application/json', 'text/plain', 'application/apply-patch+cbor']) {
      const r = await s.req('PATCH', `${NS}/p`, { body: {}, headers: { 'content-type': ct } });
      assert.equal(r.status, 415, ct);
      assert.equal(
        r.json()['message'],
        'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
      );
    }
  });

  test('force on a non-apply patch is 422; PATCH of a missing object is 404; malformed patch is 400', async () => {
    const force = await s.req('PATCH', `${NS}/p?force=false`, { body: {}, headers: MERGE });
    assert.equal(force.status, 422);
    assert.equal(force.json()['message'], 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
    const missing = await s.req('PATCH', `${NS}/missing`, { body: {}, headers: MERGE });
    assert.equal(missing.status, 404);
    const malformed = await s.req('PATCH', `${NS}/p`, { body: '{"spec":', headers: MERGE });
    assert.equal(malformed.status, 400);
    assert.match(String(malformed.json()['message']), /^error decoding patch: /);
  });

  test('a patch that renames the object is 400; one that breaks the schema is 422', async () => {
    const rename = await s.req('PATCH', `${NS}/p`, { body: { metadata: { name: 'other' } }, headers: MERGE });
    assert.equal(rename.status, 400);
    assert.equal(rename.json()['message'], 'the name of the object (other) does not match the name on the URL (p)');
    const invalid = await s.req('PATCH', `${NS}/p`, { body: { spec: { referenceType: 'Nope' } }, headers: MERGE });
    assert.equal(invalid.status, 422);
    // A typed kind: no "some validation rules were not checked" cause, which is customResourceStrategy's alone.
    assert.equal(invalid.json()['message'], 'Flunder.wardle.example.com "p" is invalid: spec.referenceType: Unsupported value: "Nope": supported values: "Flunder", "Fischer"');
  });

  test('a patch carrying a stale resourceVersion is 409', async () => {
    const r = await s.req('PATCH', `${NS}/p`, { body: { metadata: { resourceVersion: '1' }, spec: { reference: 'x' } }, headers: MERGE });
    assert.equal(r.status, 409);
  });

  test("fieldValidation of a YAML body: go-yaml's duplicate-key error first, one warning per line", async () => {
    // 1.32's strict serializer: YAMLToJSONStrict's error, then the JSON decoder's; as warnings,
    // parseYAMLWarnings splits the go-yaml error into its lines.
    const yaml = (name: string): string =>
      `apiVersion: wardle.example.com/v1alpha1\nkind: Flunder\nmetadata:\n  name: ${name}\nspec:\n  reference: a\n  reference: b\n  foo: 1\n  referenceType: Flunder\n  referenceType: Fischer\n`;
    const YAML = { 'content-type': 'application/yaml' };
    const strict = await s.req('POST', `${NS}?fieldValidation=Strict`, { body: yaml('y1'), headers: YAML });
    assert.equal(strict.status, 400, strict.text);
    assert.equal(
      strict.json()['message'],
      'Flunder in version "v1alpha1" cannot be handled as a Flunder: strict decoding error: yaml: unmarshal errors:\n  line 7: key "reference" already set in map\n  line 10: key "referenceType" already set in map, unknown field "spec.foo"',
    );
    const warn = await s.req('POST', NS, { body: yaml('y1'), headers: YAML });
    assert.equal(warn.status, 201, warn.text);
    assert.deepEqual(warnings(warn), ['line 7: key "reference" already set in map', 'line 10: key "referenceType" already set in map', 'unknown field "spec.foo"']);
    assert.deepEqual(warn.json()['spec'], { reference: 'b', referenceType: 'Fischer' });
    const ignore = await s.req('POST', `${NS}?fieldValidation=Ignore`, { body: yaml('y2'), headers: YAML });
    assert.equal(ignore.status, 201, ignore.text);
    assert.deepEqual(warnings(ignore), []);
    // A PUT decodes its body the same way.
    const rv = (warn.json()['metadata'] as Record<string, unknown>)['resourceVersion'];
    const put = await s.req('PUT', `${NS}/y1?fieldValidation=Strict`, { body: yaml('y1').replace('metadata:\n', `metadata:\n  resourceVersion: "${String(rv)}"\n`), headers: YAML });
    assert.equal(put.status, 400, put.text);
    assert.match(String(put.json()['message']), /strict decoding error: yaml: unmarshal errors:\n {2}line 8: key "reference" already set in map\n {2}line 11: /);
  });

  test('fieldValidation on create: Strict 400, Warn headers, Ignore silent; unknown fields always dropped', async () => {
    const body = '{"apiVersion":"wardle.example.com/v1alpha1","kind":"Flunder","metadata":{"name":"s1","name":"s1"},"spec":{"foo":1,"reference":"r"}}';
    const strict = await s.req('POST', `${NS}?fieldValidation=Strict`, { body });
    assert.equal(strict.status, 400);
    assert.equal(strict.json()['message'], 'Flunder in version "v1alpha1" cannot be handled as a Flunder: strict decoding error: duplicate field "metadata.name", unknown field "spec.foo"');
    const warn = await s.req('POST', NS, { body });
    assert.equal(warn.status, 201, warn.text);
    assert.deepEqual(warnings(warn), ['duplicate field "metadata.name"', 'unknown field "spec.foo"']);
    assert.deepEqual(warn.json()['spec'], { reference: 'r', referenceType: 'Flunder' });
    const ignore = await s.req('POST', `${NS}?fieldValidation=Ignore`, { body: body.replace(/s1/g, 's2') });
    assert.equal(ignore.status, 201);
    assert.deepEqual(warnings(ignore), []);
    assert.equal('foo' in (ignore.json()['spec'] as object), false);
    const bad = await s.req('POST', `${NS}?fieldValidation=Loose`, { body });
    assert.equal(bad.status, 422);
    assert.equal(bad.json()['message'], 'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Loose": supported values: "", "Ignore", "Strict", "Warn"');
  });

  test('fieldValidation on update and patch', async () => {
    const cur = (await s.req('GET', `${NS}/fv`)).json();
    const put = await s.req('PUT', `${NS}/fv?fieldValidation=Strict`, { body: { ...cur, spec: { reference: 'r1', bogus: true } } });
    assert.equal(put.status, 400);
    assert.equal(put.json()['message'], 'Flunder in version "v1alpha1" cannot be handled as a Flunder: strict decoding error: unknown field "spec.bogus"');
    const patchStrict = await s.req('PATCH', `${NS}/fv?fieldValidation=Strict`, { body: { spec: { bogus: true } }, headers: MERGE });
    assert.equal(patchStrict.status, 422);
    const msg = String(patchStrict.json()['message']);
    assert.match(msg, /^ "" is invalid: patch: Invalid value: "\{.*\}": strict decoding error: unknown field "spec\.bogus"$/);
    // The patched JSON as the patcher made it: the unknown field is shown, not pruned away.
    const shown = JSON.parse(JSON.parse(`"${/Invalid value: "(.*)": strict/s.exec(msg)![1]!}"`) as string) as { spec: Record<string, unknown> };
    assert.equal(shown.spec['bogus'], true);
    const patchWarn = await s.req('PATCH', `${NS}/fv`, { body: { spec: { bogus: true } }, headers: MERGE });
    assert.equal(patchWarn.status, 200);
    assert.deepEqual(warnings(patchWarn), ['unknown field "spec.bogus"']);
    const smpStrict = await s.req('PATCH', `${NS}/fv?fieldValidation=Strict`, { body: { spec: { bogus: 1 } }, headers: SMP });
    assert.equal(smpStrict.status, 422);
    assert.match(String(smpStrict.json()['message']), /patch: Invalid value: "map\[spec:map\[bogus:1\]\]": strict decoding error: unknown field "spec\.bogus"/);
  });
});
