// A CRD whose schema declares properties named `__proto__`, `constructor` and `toString` (client
// data like any other) is served as kube serves it, through the control plane on SQLite and etcd:
// objects round-trip, defaults apply, CEL rules check, printer columns and selectable fields read
// those properties, unknown fields next to them are pruned, and Object.prototype stays clean.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createEstablishedCRD, TABLE_ACCEPT } from '../apiextensions/env.js';
import { describeBackends, type ControlPlane } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';

type Obj = Record<string, unknown>;
const GADGETS = '/apis/proto.example.com/v1/namespaces/default/gadgets';

const own = (o: unknown, k: string): unknown => (typeof o === 'object' && o !== null && Object.prototype.hasOwnProperty.call(o, k) ? (o as Obj)[k] : undefined);
const at = (o: unknown, ...path: string[]): unknown => path.reduce<unknown>((v, k) => own(v, k), o);

// Written as JSON text: an object literal's `__proto__` would set the prototype, not a property.
const CRD = JSON.parse(`{
  "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
  "metadata": {"name": "gadgets.proto.example.com"},
  "spec": {
    "group": "proto.example.com", "scope": "Namespaced",
    "names": {"plural": "gadgets", "singular": "gadget", "kind": "Gadget", "listKind": "GadgetList"},
    "versions": [{
      "name": "v1", "served": true, "storage": true,
      "schema": {"openAPIV3Schema": {"type": "object", "properties": {
        "spec": {"type": "object",
          "x-kubernetes-validations": [{"rule": "self.toString <= 10", "message": "toString must be at most 10"}],
          "properties": {
            "__proto__": {"type": "string", "default": "from-default"},
            "constructor": {"type": "string", "x-kubernetes-validations": [{"rule": "self != 'bad'", "message": "constructor must not be bad"}]},
            "toString": {"type": "integer", "default": 3},
            "hasOwnProperty": {"type": "object", "properties": {"__proto__": {"type": "boolean", "default": true}}}
          }}
      }}},
      "additionalPrinterColumns": [
        {"name": "Ctor", "type": "string", "jsonPath": ".spec.constructor"},
        {"name": "Proto", "type": "string", "jsonPath": ".spec.__proto__"},
        {"name": "ToString", "type": "integer", "jsonPath": ".spec.toString"}
      ],
      "selectableFields": [{"jsonPath": ".spec.constructor"}, {"jsonPath": ".spec.__proto__"}]
    }]
  }
}`) as Obj;

const gadget = (name: string, spec: string): string => `{"apiVersion":"proto.example.com/v1","kind":"Gadget","metadata":{"name":"${name}"},"spec":${spec}}`;

describeBackends('a CRD schema with prototype-named properties', (cp: () => ControlPlane) => {
  let admin: HttpsClient;
  before(async () => {
    admin = new HttpsClient(cp().credentials);
    await createEstablishedCRD(admin, CRD, GADGETS);
  });
  after(() => admin.close());

  async function assertClean(): Promise<void> {
    assert.equal(cp().exited(), undefined, `the server exited\n${cp().log().slice(-3000)}`);
    const metrics = await admin.request({ path: '/metrics' });
    assert.equal(metrics.status, 200, metrics.text.slice(0, 300));
    assert.equal(({} as Obj)['isAdmin'], undefined);
  }

  test('objects round-trip with defaults applied and unknown fields pruned', async () => {
    const r = await admin.json('POST', GADGETS, gadget('a', '{"constructor":"c1","hasOwnProperty":{},"unknown":{"__proto__":{"isAdmin":true}}}'));
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.equal(at(r.body, 'spec', '__proto__'), 'from-default');
    assert.equal(at(r.body, 'spec', 'constructor'), 'c1');
    assert.equal(at(r.body, 'spec', 'toString'), 3);
    assert.equal(at(r.body, 'spec', 'hasOwnProperty', '__proto__'), true);
    assert.equal(at(r.body, 'spec', 'unknown'), undefined);
    const got = await admin.json('GET', `${GADGETS}/a`);
    assert.deepEqual(at(got.body, 'spec'), at(r.body, 'spec'));
    const patched = await admin.json('PATCH', `${GADGETS}/a`, '{"spec":{"__proto__":"patched","toString":7}}', { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual([at(patched.body, 'spec', '__proto__'), at(patched.body, 'spec', 'toString'), at(patched.body, 'spec', 'constructor')], ['patched', 7, 'c1']);
    await assertClean();
  });

  test('wrong types and CEL rules on those properties are 422 with their paths', async () => {
    const wrong = await admin.json('POST', GADGETS, gadget('w', '{"__proto__":{"isAdmin":true},"constructor":5}'));
    assert.equal(wrong.status, 422, JSON.stringify(wrong.body));
    const fields = ((at(wrong.body, 'details', 'causes') as Obj[] | undefined) ?? [])
      .map((c) => c['field'])
      .filter((f) => f !== '<nil>')
      .sort();
    assert.deepEqual(fields, ['spec.__proto__', 'spec.constructor']);
    const cel = await admin.json('POST', GADGETS, gadget('b', '{"constructor":"bad","toString":11}'));
    assert.equal(cel.status, 422, JSON.stringify(cel.body));
    const message = String(cel.body['message']);
    assert.match(message, /spec\.constructor: Invalid value: "string": constructor must not be bad/);
    assert.match(message, /spec: Invalid value: "object": toString must be at most 10/);
    await assertClean();
  });

  test('the Table shows the columns and field selectors select on them', async () => {
    assert.equal((await admin.json('POST', GADGETS, gadget('t1', '{"constructor":"x","__proto__":"p1"}'))).status, 201);
    assert.equal((await admin.json('POST', GADGETS, gadget('t2', '{"constructor":"y","toString":9}'))).status, 201);
    const table = await admin.json('GET', `${GADGETS}?fieldSelector=metadata.name%3Dt1`, undefined, { Accept: TABLE_ACCEPT });
    assert.equal(table.status, 200, JSON.stringify(table.body));
    const columns = (table.body['columnDefinitions'] as Obj[]).map((c) => c['name']);
    assert.deepEqual(columns.slice(1, 4), ['Ctor', 'Proto', 'ToString']);
    const rows = table.body['rows'] as Array<{ cells: unknown[] }>;
    assert.deepEqual(
      rows.map((r) => r.cells.slice(0, 4)),
      [['t1', 'x', 'p1', 3]],
    );
    const byCtor = await admin.json('GET', `${GADGETS}?fieldSelector=spec.constructor%3Dy`);
    assert.equal(byCtor.status, 200, JSON.stringify(byCtor.body));
    assert.deepEqual(
      (byCtor.body['items'] as Obj[]).map((i) => at(i, 'metadata', 'name')),
      ['t2'],
    );
    const byProto = await admin.json('GET', `${GADGETS}?fieldSelector=spec.__proto__%3Dp1`);
    assert.equal(byProto.status, 200, JSON.stringify(byProto.body));
    assert.deepEqual(
      (byProto.body['items'] as Obj[]).map((i) => at(i, 'metadata', 'name')),
      ['t1'],
    );
    const unknown = await admin.json('GET', `${GADGETS}?fieldSelector=spec.toString%3D3`);
    assert.equal(unknown.status, 400, JSON.stringify(unknown.body));
    await assertClean();
  });

  test('paths through Object members a schema does not declare are invalid in a CRD', async () => {
    const bad = JSON.parse(JSON.stringify(CRD)) as { metadata: Obj; spec: { group: string; names: Obj; versions: Obj[] } };
    bad.metadata['name'] = 'others.proto.example.com';
    bad.spec.names = { plural: 'others', singular: 'other', kind: 'Other', listKind: 'OtherList' };
    bad.spec.versions[0]!['selectableFields'] = [{ jsonPath: '.spec.valueOf' }];
    const r = await admin.json('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', bad);
    assert.equal(r.status, 422, JSON.stringify(r.body));
    const causes = (at(r.body, 'details', 'causes') as Obj[]).map((c) => `${String(c['field'])}: ${String(c['message'])}`);
    assert.ok(
      causes.some((c) => /selectableFields\[0\]\.jsonPath: .*does not refer to a valid field/.test(c)),
      causes.join('\n'),
    );
    await assertClean();
  });
});
