// Custom resource numbers that Go's JSON decoder makes float64s where JavaScript has an integer
// (1.0, 1e0, integers beyond int64), as 1.32 judges them: kube-openapi's type validator
// (IsFloat64AJSONInteger), the scale accessor, CEL's UnstructuredToVal; and the object
// validator's order (a property's errors before the object's Required).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertInvalid, startCronTabHandler, type Answer, type CRDHandlerEnv } from './crd-handler-env.js';
import { cronTabSchema, type Obj } from './env.js';

const PATH = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const body = (metadata: unknown, extra: Obj = {}): Obj => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata, spec: { image: 'x' }, ...extra });
const NOT_CHECKED = '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

const SCHEMA: Obj = (() => {
  const s = cronTabSchema({
    minReplicas: { type: 'integer', default: 0 },
    size: { type: 'integer', format: 'int32' },
    ratio: { type: 'number', maximum: 2 },
    port: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-validations': [{ rule: "self != 'bad'" }] },
  });
  const spec = (s['properties'] as Obj)['spec'] as Obj;
  spec['required'] = ['image'];
  spec['x-kubernetes-validations'] = [{ rule: 'self.minReplicas <= self.replicas', message: 'minReplicas must not exceed replicas' }];
  return s;
})();

describe('custom resource numbers Go decodes as float64 (1.0, 1e0, beyond int64), as 1.32', () => {
  let env: CRDHandlerEnv;
  const call = (method: string, path: string, payload?: unknown, contentType?: string): Promise<Answer> => env.call(method, path, payload, contentType);

  before(async () => {
    env = await startCronTabHandler(SCHEMA);
  });

  after(() => env.close());

  const invalid = assertInvalid;

  const ACCESSOR_1 = '.spec.replicas: Invalid value: 0: .spec.replicas accessor error: 1 is of the type float64, expected int64';

  test('create: 1.0 and 1e0 pass the integer type (IsFloat64AJSONInteger) and fail the scale accessor and CEL (expected int, got float64)', async () => {
    for (const literal of ['1.0', '1e0', '10E-1']) {
      const r = await call('POST', PATH, `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"fl"},"spec":{"image":"a","replicas":${literal}}}`);
      invalid(r, 'fl', [ACCESSOR_1, 'spec: Invalid value: "object": invalid data, expected int, got float64 evaluating rule: minReplicas must not exceed replicas']);
      const causes = (r.body['details'] as { causes: unknown[] }).causes;
      assert.deepEqual(causes[1], {
        reason: 'FieldValueInvalid',
        field: 'spec',
        message: 'Invalid value: "object": invalid data, expected int, got float64 evaluating rule: minReplicas must not exceed replicas',
      });
    }
  });

  test('create: an integer beyond int64 is a float64: the integer type, the bound (Go %v), the accessor, then the notice', async () => {
    invalid(await call('POST', PATH, '{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"big"},"spec":{"image":"a","replicas":99999999999999999999}}'), 'big', [
      'spec.replicas: Invalid value: "number": spec.replicas in body must be of type integer: "number"',
      'spec.replicas: Invalid value: 1e+20: spec.replicas in body should be less than or equal to 10',
      '.spec.replicas: Invalid value: 0: .spec.replicas accessor error: 1e+20 is of the type float64, expected int64',
      NOT_CHECKED,
    ]);
  });

  test('create: a float64 bound error prints Go %v of the float64 (1e+06), an int64 the integer', async () => {
    const r = await call('POST', PATH, '{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"r"},"spec":{"image":"a","replicas":1,"ratio":1000000.0}}');
    invalid(r, 'r', ['spec.ratio: Invalid value: 1e+06: spec.ratio in body should be less than or equal to 2']);
  });

  test('create: with a format, the type check names the format (typeValidator): a bool is "", a float64 "float64"', async () => {
    invalid(await call('POST', PATH, body({ name: 'fmt' }, { spec: { image: 'a', size: true } })), 'fmt', ['spec.size: Invalid value: "": spec.size in body must be of type int32: ""', NOT_CHECKED]);
    invalid(await call('POST', PATH, body({ name: 'fmt' }, { spec: { image: 'a', size: 1.5 } })), 'fmt', [
      'spec.size: Invalid value: "float64": spec.size in body must be of type int32: "float64"',
      NOT_CHECKED,
    ]);
    invalid(await call('POST', PATH, body({ name: 'fmt' }, { spec: { image: 'a', size: 'x' } })), 'fmt', [
      'spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"',
      NOT_CHECKED,
    ]);
    // kube checks no number format: an int64 beyond int32 is taken.
    assert.equal((await call('POST', PATH, body({ name: 'fmt-big' }, { spec: { image: 'a', size: 3000000000 } }))).status, 201);
  });

  test('create: int-or-string takes a whole float64 as its type, CEL does not (the value is the structural type, "")', async () => {
    invalid(await call('POST', PATH, '{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"ios"},"spec":{"image":"a","port":80.0}}'), 'ios', [
      `spec.port: Invalid value: "": invalid data, expected XIntOrString value to be either a string or integer evaluating rule: self != 'bad'`,
    ]);
  });

  test('create: type errors of an object before its Required (the object validator: properties, then required)', async () => {
    invalid(await call('POST', PATH, body({ name: 'req' }, { spec: { replicas: 'x' } })), 'req', [
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
      'spec.image: Required value',
      '.spec.replicas: Invalid value: 0: .spec.replicas accessor error: x is of the type string, expected int64',
      NOT_CHECKED,
    ]);
  });

  test('YAML bodies have no float64 literals: replicas: 1.0 is the integer 1', async () => {
    const r = await call('POST', PATH, 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: y10\nspec:\n  image: a\n  replicas: 1.0\n', 'application/yaml');
    assert.equal(r.status, 201, JSON.stringify(r.body));
  });
});
