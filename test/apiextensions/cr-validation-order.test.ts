// The order of a custom resource's validation errors, and the CEL step after them, as 1.32's
// customResourceStrategy (registry/customresource strategy.go Validate/ValidateUpdate,
// status_strategy.go ValidateUpdate, validator.go): a wrong kind alone (ValidateTypeMeta), with
// CEL still run after it; otherwise ObjectMeta, the schema, the scale subresource's replica paths
// (spec and status), embedded resources and list types, and only then either the CEL rules or,
// after a blocking error (hasBlockingErr), the notice that some were not checked.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertInvalid, startCronTabHandler, type Answer, type CRDHandlerEnv } from './crd-handler-env.js';
import { cronTabSchema, type Obj } from './env.js';

const PATH = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const body = (metadata: unknown, extra: Obj = {}): Obj => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata, spec: { image: 'x' }, ...extra });
const NOT_CHECKED = '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';
const RULE = 'spec: Invalid value: "object": minReplicas must not exceed replicas';

const SCHEMA: Obj = (() => {
  const s = cronTabSchema({ minReplicas: { type: 'integer', default: 0 } });
  const spec = (s['properties'] as Obj)['spec'] as Obj;
  spec['required'] = ['image'];
  spec['x-kubernetes-validations'] = [{ rule: 'self.minReplicas <= self.replicas', message: 'minReplicas must not exceed replicas' }];
  return s;
})();

describe('custom resource validation in 1.32 customResourceStrategy order', () => {
  let env: CRDHandlerEnv;
  const call = (method: string, path: string, payload?: unknown, contentType?: string): Promise<Answer> => env.call(method, path, payload, contentType);

  before(async () => {
    env = await startCronTabHandler(SCHEMA);
  });

  after(() => env.close());

  const invalid = assertInvalid;

  test('create: the schema, then the scale path, then the rules or the notice', async () => {
    invalid(await call('POST', PATH, body({ name: 'neg' }, { spec: { image: 'a', replicas: -1 } })), 'neg', [
      'spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0',
      '.spec.replicas: Invalid value: -1: should be a non-negative integer',
      RULE,
    ]);
    invalid(await call('POST', PATH, body({ name: 'f' }, { spec: { image: 'a', replicas: 1.5 } })), 'f', [
      'spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"',
      '.spec.replicas: Invalid value: 0: .spec.replicas accessor error: 1.5 is of the type float64, expected int64',
      NOT_CHECKED,
    ]);
    invalid(await call('POST', PATH, body({ name: 's' }, { spec: 'x' })), 's', [
      'spec: Invalid value: "string": spec in body must be of type object: "string"',
      '.spec.replicas: Invalid value: 0: .spec.replicas accessor error: x is of the type string, expected map[string]interface{}',
      NOT_CHECKED,
    ]);
  });

  test('create: 1.0 and 1e0 are float64s to Go: the scale accessor refuses them', async () => {
    for (const literal of ['1.0', '1e0']) {
      const r = await call('POST', PATH, `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"fl"},"spec":{"image":"a","replicas":${literal}}}`);
      assert.equal(r.status, 422, JSON.stringify(r.body));
      const causes = (r.body['details'] as { causes: Array<{ field: string; message: string }> }).causes;
      // kube 1.32 adds CEL's "invalid data, expected int, got float64 evaluating rule: …" after it.
      assert.deepEqual(causes[0], { reason: 'FieldValueInvalid', field: '.spec.replicas', message: 'Invalid value: 0: .spec.replicas accessor error: 1 is of the type float64, expected int64' });
    }
  });

  test('update: a PUT or a patch carries 1.0 and 1e0 as float64s too (the body is copied for each round of the update)', async () => {
    const current = (await call('GET', `${PATH}/ct`)).body;
    for (const literal of ['1.0', '1e0']) {
      const text = JSON.stringify({ ...current, spec: { image: 'a', replicas: 0 } }).replace('"replicas":0', `"replicas":${literal}`);
      const r = await call('PUT', `${PATH}/ct`, text);
      assert.equal(r.status, 422, JSON.stringify(r.body));
      const causes = (r.body['details'] as { causes: Array<{ field: string; message: string }> }).causes;
      assert.deepEqual(causes[0], { reason: 'FieldValueInvalid', field: '.spec.replicas', message: 'Invalid value: 0: .spec.replicas accessor error: 1 is of the type float64, expected int64' });
    }
    // kube's patchers keep the patch's number text in the patched JSON: merge and JSON patches alike.
    for (const [patch, type] of [
      ['{"spec":{"replicas":1.0}}', 'application/merge-patch+json'],
      ['[{"op":"replace","path":"/spec/replicas","value":1e0}]', 'application/json-patch+json'],
      ['[{"op":"add","path":"/spec","value":{"image":"a","replicas":1.0}}]', 'application/json-patch+json'],
    ]) {
      const r = await call('PATCH', `${PATH}/ct`, patch, type);
      assert.equal(r.status, 422, JSON.stringify(r.body));
      const causes = (r.body['details'] as { causes: Array<{ field: string; message: string }> }).causes;
      assert.deepEqual(
        causes[0],
        { reason: 'FieldValueInvalid', field: '.spec.replicas', message: 'Invalid value: 0: .spec.replicas accessor error: 1 is of the type float64, expected int64' },
        patch,
      );
    }
    const plain = await call('PATCH', `${PATH}/ct`, '{"spec":{"replicas":1}}', 'application/merge-patch+json');
    assert.equal(plain.status, 200, JSON.stringify(plain.body));
  });

  test('create: ObjectMeta errors come first and count for the blocking rule', async () => {
    invalid(await call('POST', PATH, body({ name: '' })), '', ['metadata.name: Required value: name or generateName is required', NOT_CHECKED]);
    invalid(await call('POST', PATH, body({ name: 'ann', annotations: { a: 'x'.repeat(256 * 1024) } })), 'ann', ['metadata.annotations: Too long: may not be more than 262144 bytes', NOT_CHECKED]);
    // Invalid is not blocking: the rules run.
    invalid(await call('POST', PATH, body({ name: 'Bad' }, { spec: { image: 'a', replicas: 1, minReplicas: 5 } })), 'Bad', [
      "metadata.name: Invalid value: \"Bad\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      RULE,
    ]);
    // generateName is judged on the name it yields.
    const generated = await call('POST', PATH, body({ generateName: 'gen-' }));
    assert.equal(generated.status, 201, JSON.stringify(generated.body));
  });

  test('ownerReferences as ValidateOwnerReferences words them, not as schema-required fields', async () => {
    invalid(await call('POST', PATH, body({ name: 'o1', ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p' }] })), 'o1', [
      'metadata.ownerReferences.uid: Invalid value: "": uid must not be empty',
    ]);
    invalid(await call('POST', PATH, body({ name: 'o2', ownerReferences: [{ name: 'p', uid: '1' }] })), 'o2', [
      'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
      'metadata.ownerReferences.kind: Invalid value: "": kind must not be empty',
    ]);
    invalid(await call('POST', PATH, body({ name: 'o3', ownerReferences: [{ apiVersion: 'a/b/c', kind: 'Pod', name: 'p', uid: '1' }] })), 'o3', [
      'metadata.ownerReferences.apiVersion: Invalid value: "a/b/c": version must not be empty',
    ]);
    const two = await call(
      'POST',
      PATH,
      body({
        name: 'o4',
        ownerReferences: [
          { apiVersion: 'v1', kind: 'Pod', name: 'p', uid: '1', controller: true },
          { apiVersion: 'v1', kind: 'Pod', name: 'q', uid: '2', controller: true },
        ],
      }),
    );
    assert.equal(two.status, 422);
    assert.match(
      String(two.body['message']),
      /^CronTab\.stable\.example\.com "o4" is invalid: metadata\.ownerReferences: Invalid value: \[\]v1\.OwnerReference\{.*\}: Only one reference can have Controller set to true\. Found "true" in references for Pod\/p and Pod\/q$/,
    );
  });

  test('another kind: the type meta error alone from the validator, then the rules on the undefaulted object', async () => {
    const r = await call('POST', PATH, { apiVersion: 'stable.example.com/v1', kind: 'Gizmo', metadata: { name: 'kg' }, spec: { image: 'img', replicas: 2 } });
    invalid(r, 'kg', ['kind: Invalid value: "Gizmo": must be CronTab', 'spec: Invalid value: "object": no such key: minReplicas evaluating rule: minReplicas must not exceed replicas'], 'Gizmo');
    assert.equal((await call('GET', `${PATH}/kg`)).status, 404);
  });

  test('update and /status: the scale paths with the schema, the notice after them', async () => {
    const got = await call('GET', `${PATH}/ct`);
    const current = got.body;
    const put = await call('PUT', `${PATH}/ct`, { ...current, spec: { image: 'a', replicas: 'x' } });
    invalid(put, 'ct', [
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
      '.spec.replicas: Invalid value: 0: .spec.replicas accessor error: x is of the type string, expected int64',
      NOT_CHECKED,
    ]);
    const status = await call('PUT', `${PATH}/ct/status`, { ...current, status: { replicas: -2 } });
    invalid(status, 'ct', ['.status.replicas: Invalid value: -2: should be a non-negative integer']);
  });

  test('/scale: the Scale is not validated; its replicas are, in the resource, by its kind (apiextensions ScaleREST)', async () => {
    const scale = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'ct', namespace: 'default' }, spec: { replicas: -1 } };
    invalid(await call('PUT', `${PATH}/ct/scale`, scale), 'ct', [
      'spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0',
      '.spec.replicas: Invalid value: -1: should be a non-negative integer',
      RULE,
    ]);
    // A count the schema accepts is still held to the resource's rules: kubectl scale cannot go below minReplicas.
    const min = await call('PATCH', `${PATH}/ct`, { spec: { minReplicas: 2, replicas: 3 } }, 'application/merge-patch+json');
    assert.equal(min.status, 200, JSON.stringify(min.body));
    invalid(await call('PATCH', `${PATH}/ct/scale`, { spec: { replicas: 1 } }, 'application/merge-patch+json'), 'ct', [RULE]);
    const ok = await call('PATCH', `${PATH}/ct/scale`, { spec: { replicas: 2 } }, 'application/merge-patch+json');
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
  });

  test('update: ObjectMeta errors are in the causes twice (BeforeUpdate, then the strategy), once in the message', async () => {
    const r = await call('PATCH', `${PATH}/ct`, { metadata: { uid: 'other' } }, 'application/merge-patch+json');
    const immutable = { reason: 'FieldValueInvalid', message: 'Invalid value: "other": field is immutable', field: 'metadata.uid' };
    assert.deepEqual(
      [r.status, r.body['message'], (r.body['details'] as Obj)['causes']],
      [422, 'CronTab.stable.example.com "ct" is invalid: metadata.uid: Invalid value: "other": field is immutable', [immutable, immutable]],
    );
  });
});
