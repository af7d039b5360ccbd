// How kube 1.32 decodes a custom resource body (apimachinery's json serializer into an
// Unstructured, then apiextensions-apiserver's unstructuredSchemaCoercer, which decodes metadata
// into a metav1.ObjectMeta): a missing kind, a missing apiVersion and a metadata of the wrong JSON
// type are 400s with kube's wording on create and update, and 422s on `patch` for a patch; the
// /scale subresource decodes a typed autoscaling/v1 Scale. Never a 500 with a JavaScript error.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startCRDHandler, type Answer, type CRDHandlerEnv } from './crd-handler-env.js';
import { cronTabCRD, type Obj } from './env.js';

const PATH = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const cannotHandle = (cause: string): string => `CronTab in version "v1" cannot be handled as a CronTab: ${cause}`;
const unrecognized = (cause: string): string => `the object provided is unrecognized (must be of type CronTab): ${cause}`;
const body = (metadata: unknown, extra: Obj = {}): Obj => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata, spec: { image: 'x' }, ...extra });

describe('custom resource decoding as kube 1.32', () => {
  let env: CRDHandlerEnv;
  const call = (method: string, path: string, payload?: unknown, contentType?: string): Promise<Answer> => env.call(method, path, payload, contentType);

  before(async () => {
    const crd = cronTabCRD();
    (crd['spec'] as { names: Obj }).names['listKind'] = 'CronTabList';
    env = await startCRDHandler(crd, PATH);
    const created = await call('POST', PATH, body({ name: 'ct', labels: { a: 'b' } }, { spec: { image: 'x', replicas: 1 } }));
    assert.equal(created.status, 201, JSON.stringify(created.body));
  });

  after(() => env.close());

  const answer = (r: { status: number; body: Obj }): [number, unknown, unknown] => [r.status, r.body['reason'], r.body['message']];

  test('metadata of the wrong JSON type: 400 with Go decoding metadata into ObjectMeta, on create and update', async () => {
    for (const [metadata, cause] of [
      ['x', 'json: cannot unmarshal string into Go value of type v1.ObjectMeta'],
      [5, 'json: cannot unmarshal number into Go value of type v1.ObjectMeta'],
      [true, 'json: cannot unmarshal bool into Go value of type v1.ObjectMeta'],
      [[], 'json: cannot unmarshal array into Go value of type v1.ObjectMeta'],
      [{ name: 5 }, 'json: cannot unmarshal number into Go struct field ObjectMeta.name of type string'],
      [{ name: 'l', labels: ['a'] }, 'json: cannot unmarshal array into Go struct field ObjectMeta.labels of type map[string]string'],
      [{ name: 'l', labels: { a: 1 } }, 'json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string'],
      [{ name: 'l', uid: 1 }, 'json: cannot unmarshal number into Go struct field ObjectMeta.uid of type types.UID'],
      [{ name: 'l', generation: 1.5 }, 'json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.generation of type int64'],
      [{ name: 'l', managedFields: 'x' }, 'json: cannot unmarshal string into Go struct field ObjectMeta.managedFields of type []v1.ManagedFieldsEntry'],
      [{ name: 'l', managedFields: [{ manager: 1 }] }, 'json: cannot unmarshal number into Go struct field ManagedFieldsEntry.managedFields.manager of type string'],
      [{ name: 'l', ownerReferences: [{ controller: 'yes' }] }, 'json: cannot unmarshal string into Go struct field OwnerReference.ownerReferences.controller of type bool'],
      // json.Marshal sorts the keys before the decode: labels comes before name.
      [{ name: 5, labels: 'x' }, 'json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string'],
      // A metav1.Time's error ends the decode and wins over an earlier type error.
      [{ annotations: 1, creationTimestamp: 'yesterday' }, 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"'],
      [{ creationTimestamp: 5 }, 'json: cannot unmarshal number into Go struct field ObjectMeta.creationTimestamp of type string'],
      [{ creationTimestamp: '2024-13-01T00:00:00Z' }, 'parsing time "2024-13-01T00:00:00Z": month out of range'],
      [{ creationTimestamp: '2023-02-29T00:00:00Z' }, 'parsing time "2023-02-29T00:00:00Z": day out of range'],
      [{ creationTimestamp: '2024-01-01 00:00:00Z' }, 'parsing time "2024-01-01 00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 00:00:00Z" as "T"'],
      [{ creationTimestamp: '2024-01-01T00:00:00' }, 'parsing time "2024-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"'],
      [{ creationTimestamp: '2024-01-01T00:00:00Zjunk' }, 'parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk"'],
      [{ deletionTimestamp: '\u00e9' }, 'parsing time "\\xc3\\xa9" as "2006-01-02T15:04:05Z07:00": cannot parse "\\xc3\\xa9" as "2006"'],
      [{ managedFields: [{ time: 'now' }] }, 'parsing time "now" as "2006-01-02T15:04:05Z07:00": cannot parse "now" as "2006"'],
    ] as const) {
      const created = await call('POST', PATH, body(metadata));
      assert.deepEqual(answer(created), [400, 'BadRequest', cannotHandle(cause)], JSON.stringify(metadata));
      const updated = await call('PUT', `${PATH}/ct`, body(metadata));
      assert.deepEqual(answer(updated), [400, 'BadRequest', cannotHandle(cause)], JSON.stringify(metadata));
    }
    // Through /status the same decoder runs.
    const status = await call('PUT', `${PATH}/ct/status`, body('x'));
    assert.deepEqual(answer(status), [400, 'BadRequest', cannotHandle('json: cannot unmarshal string into Go value of type v1.ObjectMeta')]);
    // A valid time is decoded (and wiped by the create).
    const ok = await call('POST', PATH, body({ name: 'timed', creationTimestamp: '2024-02-29T23:59:59.5+01:00' }));
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
  });

  test("a YAML body's duplicate keys are go-yaml's strict error, ahead of the pruned unknown fields", async () => {
    const yaml = (name: string): string => `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: ${name}\nspec:\n  image: a\n  image: b\n  bogus: 1\n`;
    const strict = await call('POST', `${PATH}?fieldValidation=Strict`, yaml('ydup1'), 'application/yaml');
    assert.deepEqual(answer(strict), [400, 'BadRequest', cannotHandle('strict decoding error: yaml: unmarshal errors:\n  line 7: key "image" already set in map, unknown field "spec.bogus"')]);
    const warn = await call('POST', `${PATH}?fieldValidation=Warn`, yaml('ydup2'), 'application/yaml');
    assert.equal(warn.status, 201, JSON.stringify(warn.body));
    assert.deepEqual(warn.warnings, ['line 7: key "image" already set in map', 'unknown field "spec.bogus"']);
    assert.equal((warn.body['spec'] as Obj)['image'], 'b');
  });

  test('a missing kind is runtime.NewMissingKindErr, a missing apiVersion is not defaulted', async () => {
    for (const [text, message] of [
      ['null', unrecognized("Object 'Kind' is missing in 'null' (6e756c6c)")],
      ['{}', unrecognized("Object 'Kind' is missing in '{}' ({})")],
      [
        '{"apiVersion":"stable.example.com/v1","metadata":{"name":"nokind"}}',
        unrecognized(`Object 'Kind' is missing in '{"apiVersion":"stable.example.com/v1","metadata":{"name":"nokind"}}' ({"apiVersion":"stable.example. ...)`),
      ],
      ['{"kind":"CronTab","metadata":{"name":"noapi"}}', 'the API version in the data () does not match the expected API version (stable.example.com/v1)'],
      ['{"apiVersion":"a/b/c","kind":"CronTab","metadata":{"name":"mal"}}', unrecognized('unexpected GroupVersion string: a/b/c ({"apiVersion":"a/b/c","kind":" ...)')],
    ] as const) {
      assert.deepEqual(answer(await call('POST', PATH, text)), [400, 'BadRequest', message], text);
    }
    // YAML: the message quotes the original body.
    for (const [text, message] of [
      ['', unrecognized("Object 'Kind' is missing in '' (<empty>)")],
      ['# nothing\n', unrecognized("Object 'Kind' is missing in '# nothing\n' (23206e6f7468696e670a)")],
      ['null\n', unrecognized("Object 'Kind' is missing in 'null\n' (6e756c6c0a)")],
    ] as const) {
      assert.deepEqual(answer(await call('POST', PATH, text, 'application/yaml')), [400, 'BadRequest', message], JSON.stringify(text));
    }
    // fieldValidation=Ignore decodes without the strict decoder: the unstructured scheme fails under the URL's kind.
    assert.deepEqual(answer(await call('POST', `${PATH}?fieldValidation=Ignore`, '{}')), [400, 'BadRequest', cannotHandle("Object 'Kind' is missing in '{}'")]);
    // A PUT decodes the same way (its fieldValidation reaches the decoder too).
    assert.deepEqual(answer(await call('PUT', `${PATH}/ct?fieldValidation=Ignore`, '{}')), [400, 'BadRequest', cannotHandle("Object 'Kind' is missing in '{}'")]);
  });

  test('patch: a patched object that does not decode is a 422 on `patch` with the decoder error', async () => {
    const invalid = async (patch: unknown, type: string): Promise<{ field?: string; message?: string; status: number; message0: unknown }> => {
      const r = await call('PATCH', `${PATH}/ct`, patch, type);
      const cause = ((r.body['details'] as Obj | undefined)?.['causes'] as Array<{ field?: string; message?: string }> | undefined)?.[0] ?? {};
      return { ...cause, status: r.status, message0: r.body['message'] };
    };
    for (const [patch, type, detail] of [
      [
        [{ op: 'copy', from: '/spec/image', path: '/metadata/labels' }],
        'application/json-patch+json',
        'json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string',
      ],
      [{ metadata: 'x' }, 'application/merge-patch+json', 'json: cannot unmarshal string into Go value of type v1.ObjectMeta'],
      [{ metadata: { creationTimestamp: 'x' } }, 'application/merge-patch+json', 'parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"'],
      [
        [{ op: 'replace', path: '', value: [] }],
        'application/json-patch+json',
        'couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }',
      ],
    ] as const) {
      const got = await invalid(patch, type);
      assert.equal(got.status, 422, JSON.stringify(got));
      assert.equal(got.field, 'patch');
      assert.ok(got.message?.endsWith(`: ${detail}`), `${JSON.stringify(patch)}: ${String(got.message)}`);
      assert.ok(String(got.message0).startsWith(' "" is invalid: patch: Invalid value: '), String(got.message0));
    }
    const removedKind = await invalid([{ op: 'remove', path: '/kind' }], 'application/json-patch+json');
    assert.equal(removedKind.status, 422);
    assert.match(removedKind.message ?? '', /: Object 'Kind' is missing in '\{.*\}'$/);
    const stored = await call('GET', `${PATH}/ct`);
    assert.deepEqual((stored.body['metadata'] as Obj)['labels'], { a: 'b' }, 'the stored object is unchanged');
  });

  test("/scale decodes a typed Scale with the resource's typer, which has no Scale: every body that does not decode gets its error", async () => {
    // kube's CRD handler copies the main scope for /scale: the Scale codec, but the typer of the
    // CRD's parameter scheme, which transformDecodeError asks first (1.26 prints its build's name
    // for that scheme, otherwise the same answer for each of these bodies).
    const typerError = [400, 'BadRequest', 'no kind is registered for the type v1.Scale in scheme "pkg/apiserver/customresource_handler.go:725"'];
    const scale = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'ct', namespace: 'default' }, spec: { replicas: 2 } };
    for (const bad of [
      { ...scale, metadata: 'x' },
      { ...scale, metadata: { name: 'ct', labels: [] } },
      { ...scale, spec: { replicas: 'x' } },
      { ...scale, spec: { replicas: 1.5 } },
      { ...scale, apiVersion: 'v1', kind: 'Pod' },
      { ...scale, apiVersion: 'autoscaling/v2' },
    ]) {
      assert.deepEqual(answer(await call('PUT', `${PATH}/ct/scale`, bad)), typerError, JSON.stringify(bad));
    }
    const malformed = await env.call('PUT', `${PATH}/ct/scale`, '{"spec":', 'application/json');
    assert.deepEqual(answer(malformed), typerError);
    // A patch decodes the patched Scale with the Scale codec alone: the decoder's own error on the patched JSON.
    const patched = await call('PATCH', `${PATH}/ct/scale`, { spec: { replicas: '5' } }, 'application/merge-patch+json');
    assert.equal(patched.status, 422, JSON.stringify(patched.body));
    assert.match(String(patched.body['message']), /^ "" is invalid: patch: Invalid value: ".*": json: cannot unmarshal string into Go struct field ScaleSpec\.spec\.replicas of type int32$/s);
    assert.equal(((patched.body['details'] as Obj)['causes'] as Obj[])[0]?.['field'], 'patch');
    const metaPatched = await call('PATCH', `${PATH}/ct/scale`, { metadata: 'x' }, 'application/merge-patch+json');
    assert.equal(metaPatched.status, 422, JSON.stringify(metaPatched.body));
    // A Scale that decodes is served as before.
    const ok = await call('PUT', `${PATH}/ct/scale`, scale);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
  });

  test("patch errors show the patched object as Go writes a custom resource: every object's keys sorted", async () => {
    const r = await call('PATCH', `${PATH}/ct?fieldValidation=Strict`, { spec: { zeta: 1, alpha: { b: 1, a: 2 } } }, 'application/merge-patch+json');
    assert.equal(r.status, 422, JSON.stringify(r.body));
    const cause = String(((r.body['details'] as Obj)['causes'] as Obj[])[0]?.['message']);
    const quoted = /^Invalid value: ("(?:[^"\\]|\\.)*"): strict decoding error/.exec(cause)?.[1];
    assert.ok(quoted !== undefined, cause);
    const text = JSON.parse(quoted) as string;
    const sortedEverywhere = (v: unknown): boolean =>
      Array.isArray(v) ? v.every(sortedEverywhere) : v === null || typeof v !== 'object' ? true : Object.keys(v).join() === Object.keys(v).sort().join() && Object.values(v).every(sortedEverywhere);
    const patched = JSON.parse(text) as Obj;
    assert.ok(sortedEverywhere(patched), text);
    assert.deepEqual(Object.keys(patched), ['apiVersion', 'kind', 'metadata', 'spec']);
  });

  test("a body of another version: its own version's schema prunes it first (none: all but type meta and metadata), as warnings on the 400 or Strict's error", async () => {
    const v2 = { ...body({ name: 'v2' }, { spec: { image: 'x' } }), apiVersion: 'stable.example.com/v2' };
    const warned = await call('POST', PATH, v2);
    assert.deepEqual(
      [warned.status, warned.body['message'], warned.warnings],
      [400, 'the API version in the data (stable.example.com/v2) does not match the expected API version (stable.example.com/v1)', ['unknown field "spec"']],
    );
    const strict = await call('POST', `${PATH}?fieldValidation=Strict`, v2);
    assert.deepEqual(answer(strict), [400, 'BadRequest', 'CronTab in version "v2" cannot be handled as a CronTab: strict decoding error: unknown field "spec"']);
    const ignored = await call('POST', `${PATH}?fieldValidation=Ignore`, v2);
    assert.deepEqual([ignored.status, ignored.warnings], [400, []]);
    // Only a body of the CRD's group and kind is pruned: another group's, or none, is not.
    for (const apiVersion of ['other.example.com/v1', 'v1', undefined]) {
      const other = await call('POST', PATH, { ...v2, apiVersion });
      assert.deepEqual([other.status, other.warnings], [400, []], String(apiVersion));
    }
  });

  test('managedFields entries the field manager cannot decode are replaced, not refused (1.32 decodeLiveOrNew)', async () => {
    const created = await call('POST', PATH, body({ name: 'badop', managedFields: [{ manager: 'm', operation: 'Bogus', apiVersion: 'stable.example.com/v1', fieldsType: 'FieldsV1', fieldsV1: {} }] }));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const managed = (created.body['metadata'] as Obj)['managedFields'] as Obj[];
    assert.ok(managed.length > 0 && managed.every((e) => e['manager'] !== 'm' && e['operation'] === 'Update'), JSON.stringify(managed));
  });
});
