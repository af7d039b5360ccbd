import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { JSONSchemaProps } from '../../apis/apiextensions/v1/schema.js';
import type { APIGroupDefinition } from '../../runtime/registry/types.js';
import type { ResourceDefinition } from '../../runtime/apimachinery/definition/resource.js';
import { startServer, type TestServer } from './helpers.js';

/**
 * CEL rules through the real handlers and Store on SQLite: create checks the rules, update and
 * patch also run transition rules against the stored object, and a rule that would run away
 * is stopped by the cost budget (422, not a hung request).
 */

const str: JSONSchemaProps = { type: 'string' };
const int: JSONSchemaProps = { type: 'integer' };

const flunderSchema: JSONSchemaProps = {
  type: 'object',
  properties: {
    apiVersion: str,
    kind: str,
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      properties: {
        mode: { ...str, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'mode is immutable' }] },
        replicas: int,
        maxReplicas: int,
        items: { type: 'array', items: int, 'x-kubernetes-validations': [{ rule: 'self.all(x, self.all(y, self.all(z, x + y + z >= 0)))', message: 'items must be non-negative' }] },
      },
      'x-kubernetes-validations': [
        {
          rule: '!has(self.replicas) || !has(self.maxReplicas) || self.replicas <= self.maxReplicas',
          messageExpression: "'replicas (' + string(self.replicas) + ') may not exceed maxReplicas (' + string(self.maxReplicas) + ')'",
          fieldPath: '.replicas',
        },
      ],
    },
  },
  'x-kubernetes-validations': [{ rule: "self.metadata.name != 'reserved'", message: 'this name is reserved', fieldPath: '.metadata.name', reason: 'FieldValueForbidden' }],
};

function resource(kind: string, plural: string, namespaced: boolean, schema: JSONSchemaProps): ResourceDefinition {
  return {
    kind,
    listKind: `${kind}List`,
    plural,
    singular: kind.toLowerCase(),
    shortNames: [],
    categories: [],
    namespaced,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    subresources: { status: false },
    printerColumns: [],
    selectableFields: [],
    schema,
    openapiDefinition: `com.example.cel.v1.${kind}`,
  };
}

const celGroup: APIGroupDefinition = {
  name: 'cel.example.com',
  hubVersion: 'v1',
  storageVersion: 'v1',
  versions: [
    {
      name: 'v1',
      openapi: { components: { schemas: {} } },
      resources: [
        resource('Flunder', 'flunders', true, flunderSchema),
        resource('Fischer', 'fischers', false, { type: 'object', properties: { apiVersion: str, kind: str, metadata: { type: 'object' } } }),
      ],
    },
  ],
};

const BASE = '/apis/cel.example.com/v1/namespaces/default/flunders';
const MERGE = { 'content-type': 'application/merge-patch+json' };

function flunder(name: string, spec: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'cel.example.com/v1', kind: 'Flunder', metadata: { name, ...extra }, spec };
}

describe('CEL rules over HTTP (create, update, patch)', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ group: celGroup });
  });
  after(async () => {
    await s.close();
  });

  test("create: a valid object is stored; failing rules are 422 with kube's causes", async () => {
    assert.equal((await s.req('POST', BASE, { body: flunder('ok', { mode: 'a', replicas: 1, maxReplicas: 2 }) })).status, 201);

    const reserved = await s.req('POST', BASE, { body: flunder('reserved', {}) });
    assert.equal(reserved.status, 422, reserved.text);
    assert.equal(reserved.json()['message'], 'Flunder.cel.example.com "reserved" is invalid: metadata.name: Forbidden: this name is reserved');
    assert.deepEqual((reserved.json()['details'] as { causes: unknown[] }).causes, [{ reason: 'FieldValueForbidden', message: 'Forbidden: this name is reserved', field: 'metadata.name' }]);

    const tooMany = await s.req('POST', BASE, { body: flunder('many', { replicas: 5, maxReplicas: 2 }) });
    assert.equal(tooMany.status, 422, tooMany.text);
    assert.equal(tooMany.json()['message'], 'Flunder.cel.example.com "many" is invalid: spec.replicas: Invalid value: "object": replicas (5) may not exceed maxReplicas (2)');
    assert.equal((await s.req('GET', `${BASE}/many`)).status, 404);
  });

  test('update: transition rules compare with the stored object; absent before means no check', async () => {
    const created = await s.req('POST', BASE, { body: flunder('t', { replicas: 1 }) });
    assert.equal(created.status, 201, created.text);
    const rv = String((created.json()['metadata'] as Record<string, unknown>)['resourceVersion']);

    const setMode = await s.req('PUT', `${BASE}/t`, { body: flunder('t', { replicas: 1, mode: 'a' }, { resourceVersion: rv }) });
    assert.equal(setMode.status, 200, setMode.text);
    const rv2 = String((setMode.json()['metadata'] as Record<string, unknown>)['resourceVersion']);

    const change = await s.req('PUT', `${BASE}/t`, { body: flunder('t', { replicas: 1, mode: 'b' }, { resourceVersion: rv2 }) });
    assert.equal(change.status, 422, change.text);
    assert.equal(change.json()['message'], 'Flunder.cel.example.com "t" is invalid: spec.mode: Invalid value: "string": mode is immutable');

    const same = await s.req('PUT', `${BASE}/t`, { body: flunder('t', { replicas: 2, mode: 'a' }, { resourceVersion: rv2 }) });
    assert.equal(same.status, 200, same.text);
  });

  test('patch: the patched object is checked against the stored one', async () => {
    assert.equal((await s.req('POST', BASE, { body: flunder('p', { mode: 'a' }) })).status, 201);
    const change = await s.req('PATCH', `${BASE}/p`, { body: { spec: { mode: 'z' } }, headers: MERGE });
    assert.equal(change.status, 422, change.text);
    assert.equal(change.json()['message'], 'Flunder.cel.example.com "p" is invalid: spec.mode: Invalid value: "string": mode is immutable');
    const other = await s.req('PATCH', `${BASE}/p`, { body: { spec: { replicas: 3, maxReplicas: 1 } }, headers: MERGE });
    assert.equal(other.status, 422, other.text);
    assert.equal(other.json()['message'], 'Flunder.cel.example.com "p" is invalid: spec.replicas: Invalid value: "object": replicas (3) may not exceed maxReplicas (1)');
    assert.equal((await s.req('PATCH', `${BASE}/p`, { body: { spec: { replicas: 3 } }, headers: MERGE })).status, 200);
  });

  test('a runaway rule over a big list is stopped by the cost budget: 422, the server keeps serving', async () => {
    const items = Array.from({ length: 3000 }, (_, i) => i);
    const r = await s.req('POST', BASE, { body: flunder('big', { items }) });
    assert.equal(r.status, 422, r.text);
    assert.equal(
      r.json()['message'],
      'Flunder.cel.example.com "big" is invalid: spec.items: Invalid value: "array": \'operation cancelled: actual cost limit exceeded\': no further validation rules will be run due to call cost exceeds limit for rule: items must be non-negative',
    );
    assert.equal((await s.req('POST', BASE, { body: flunder('small', { items: [1, 2, 3] }) })).status, 201);
  });
});
