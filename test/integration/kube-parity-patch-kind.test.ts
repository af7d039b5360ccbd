// A PATCH whose result changes the object's kind, answered as kube-apiserver's patcher answers it,
// over raw HTTPS against the control plane command on SQLite and etcd: a custom resource decodes as
// unstructured and its validation refuses the kind (422 on `kind`, for the group kind the object
// carries, and on `apiVersion` likewise); a built-in kind's JSON and merge patches fail the typed
// DecodeInto (422 on `patch`); a strategic merge patch is converted field by field into the typed
// object, so its kind and apiVersion are dropped.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { cronTab, cronTabCRD, createEstablishedCRD } from '../apiextensions/env.js';
import { describeBackends } from './harness.js';
import { HttpsClient } from './https.js';
import { uniqueName } from './objects.js';

type Obj = Record<string, unknown>;

const CR_GROUP = 'patchkind.example.com';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };
const JSON_PATCH = { 'Content-Type': 'application/json-patch+json' };
const STRATEGIC = { 'Content-Type': 'application/strategic-merge-patch+json' };

describeBackends('PATCH that changes the kind', (cp) => {
  let c: HttpsClient;
  let ns: string;
  let crontabs: string;
  before(async () => {
    c = new HttpsClient(cp().credentials);
    ns = uniqueName('patchkind');
    const r = await c.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    crontabs = `/apis/${CR_GROUP}/v1/namespaces/${ns}/crontabs`;
    await createEstablishedCRD(c, cronTabCRD({ group: CR_GROUP }), crontabs);
  });
  after(() => c.close());

  it('custom resource: 422 on kind for merge and JSON patches, named by the kind the object carries; the object is unchanged', async () => {
    const name = uniqueName('ct');
    const created = await c.json('POST', crontabs, cronTab(name, undefined, `${CR_GROUP}/v1`));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const invalidKind: Obj = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      reason: 'Invalid',
      code: 422,
      message: `Foo.${CR_GROUP} "${name}" is invalid: kind: Invalid value: "Foo": must be CronTab`,
      details: { name, group: CR_GROUP, kind: 'Foo', causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "Foo": must be CronTab', field: 'kind' }] },
    };
    const merge = await c.json('PATCH', `${crontabs}/${name}`, { kind: 'Foo' }, MERGE);
    assert.equal(merge.status, 422);
    assert.deepEqual(merge.body, invalidKind);
    const jsonPatch = await c.json('PATCH', `${crontabs}/${name}`, [{ op: 'replace', path: '/kind', value: 'Foo' }], JSON_PATCH);
    assert.deepEqual(jsonPatch.body, invalidKind);
    const stored = await c.json('GET', `${crontabs}/${name}`);
    assert.equal(stored.body['kind'], 'CronTab');
    assert.equal((stored.body['metadata'] as Obj)['resourceVersion'], (created.body['metadata'] as Obj)['resourceVersion']);
  });

  it('custom resource: another apiVersion is 422 on apiVersion (with kind when both change), named by the group the object carries; an unparsable one is 422 on patch', async () => {
    const name = uniqueName('ct');
    const created = await c.json('POST', crontabs, cronTab(name, undefined, `${CR_GROUP}/v1`));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const apiVersionCause = (v: string): Obj => ({ reason: 'FieldValueInvalid', message: `Invalid value: "${v}": must be ${CR_GROUP}/v1`, field: 'apiVersion' });

    const otherGroup = await c.json('PATCH', `${crontabs}/${name}`, { apiVersion: 'other.example.com/v1' }, MERGE);
    assert.equal(otherGroup.status, 422, JSON.stringify(otherGroup.body));
    assert.deepEqual(otherGroup.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      reason: 'Invalid',
      code: 422,
      message: `CronTab.other.example.com "${name}" is invalid: apiVersion: Invalid value: "other.example.com/v1": must be ${CR_GROUP}/v1`,
      details: { name, group: 'other.example.com', kind: 'CronTab', causes: [apiVersionCause('other.example.com/v1')] },
    });

    const both = await c.json('PATCH', `${crontabs}/${name}`, { apiVersion: `${CR_GROUP}/v9`, kind: 'Foo' }, MERGE);
    assert.deepEqual(both.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      reason: 'Invalid',
      code: 422,
      message: `Foo.${CR_GROUP} "${name}" is invalid: [kind: Invalid value: "Foo": must be CronTab, apiVersion: Invalid value: "${CR_GROUP}/v9": must be ${CR_GROUP}/v1]`,
      details: {
        name,
        group: CR_GROUP,
        kind: 'Foo',
        causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "Foo": must be CronTab', field: 'kind' }, apiVersionCause(`${CR_GROUP}/v9`)],
      },
    });

    const unparsable = await c.json('PATCH', `${crontabs}/${name}`, [{ op: 'replace', path: '/apiVersion', value: 'a/b/c' }], JSON_PATCH);
    assert.equal(unparsable.status, 422);
    assert.match(String(unparsable.body['message']), /^ "" is invalid: patch: Invalid value: ".*": unexpected GroupVersion string: a\/b\/c$/s);
    const stored = await c.json('GET', `${crontabs}/${name}`);
    assert.equal((stored.body['metadata'] as Obj)['resourceVersion'], (created.body['metadata'] as Obj)['resourceVersion']);
  });

  it('built-in kind: 422 on patch with the patched object for merge and JSON patches (another kind or apiVersion); a strategic merge patch drops both', async () => {
    const services = `/api/v1/namespaces/${ns}/services`;
    const name = uniqueName('svc');
    const created = await c.json('POST', services, { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ name: 'http', port: 80 }] } });
    assert.equal(created.status, 201, JSON.stringify(created.body));

    for (const [kind, cause] of [
      ['Namespace', 'converting (v1.Namespace) to (core.Service): unknown conversion'],
      ['Foo', /^no kind "Foo" is registered for version "v1" in scheme "[^"]+"$/],
    ] as const) {
      const r = await c.json('PATCH', `${services}/${name}`, { kind }, MERGE);
      assert.equal(r.status, 422, JSON.stringify(r.body));
      assert.equal(r.body['reason'], 'Invalid');
      const details = r.body['details'] as { causes: Array<{ reason: string; field: string; message: string }> } & Obj;
      assert.deepEqual(Object.keys(details), ['causes'], 'no name, group or kind: kube names no object');
      assert.equal(details.causes.length, 1);
      assert.equal(details.causes[0]!.field, 'patch');
      assert.equal(details.causes[0]!.reason, 'FieldValueInvalid');
      const m = /^Invalid value: "(.*)": (.*)$/s.exec(details.causes[0]!.message);
      assert.ok(m, details.causes[0]!.message);
      const shown = JSON.parse(JSON.parse(`"${m[1]}"`) as string) as Obj;
      assert.equal(shown['kind'], kind, 'the patched object is shown');
      assert.deepEqual(shown['spec'], created.body['spec']);
      if (typeof cause === 'string') assert.equal(m[2], cause);
      else assert.match(m[2]!, cause);
      assert.equal(r.body['message'], ` "" is invalid: patch: ${details.causes[0]!.message}`);
    }
    const jsonPatch = await c.json('PATCH', `${services}/${name}`, [{ op: 'replace', path: '/kind', value: 'Namespace' }], JSON_PATCH);
    assert.equal(jsonPatch.status, 422, JSON.stringify(jsonPatch.body));

    const otherVersion = await c.json('PATCH', `${services}/${name}`, { apiVersion: 'apps/v1' }, MERGE);
    assert.equal(otherVersion.status, 422, JSON.stringify(otherVersion.body));
    const otherCause = (otherVersion.body['details'] as { causes: Array<{ field: string; message: string }> }).causes[0]!;
    assert.equal(otherCause.field, 'patch');
    assert.match(otherCause.message, /^Invalid value: ".*": no kind "Service" is registered for version "apps\/v1" in scheme "[^"]+"$/s);

    const smp = await c.json('PATCH', `${services}/${name}`, { apiVersion: 'apps/v1', kind: 'Namespace', metadata: { labels: { patched: 'yes' } } }, STRATEGIC);
    assert.equal(smp.status, 200, JSON.stringify(smp.body));
    assert.equal(smp.body['kind'], 'Service');
    assert.equal(smp.body['apiVersion'], 'v1');
    assert.deepEqual((smp.body['metadata'] as Obj)['labels'], { patched: 'yes' });
  });
});
