// Server-side apply of custom resources, ported from kubernetes test/integration/apiserver/apply/
// apply_crd_test.go (TestApplyCRDStructuralSchema) and scale_test.go (the scale subresource's
// managedFields moving between the Scale and the resource), plus the CRD's reset fields (status
// through the main resource, spec through /status). On the control plane command, SQLite and etcd.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeBackends } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { uniqueName } from '../integration/objects.js';
import { assertManagedFields, entry, managedFieldsOf } from '../integration/apply/managed.js';
import { createEstablishedCRD, cronTabCRD, type Obj } from './env.js';

const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';

/** fixtures.NewMultipleVersionNoxuCRD's names (cluster scoped), every version with TestApplyCRDStructuralSchema's schema. */
function noxuCRD(): Obj {
  const schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        'x-kubernetes-preserve-unknown-fields': true,
        properties: {
          cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
          ports: {
            type: 'array',
            'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
            'x-kubernetes-list-type': 'map',
            items: {
              type: 'object',
              required: ['containerPort', 'protocol'],
              properties: {
                containerPort: { type: 'integer', format: 'int32' },
                hostIP: { type: 'string' },
                hostPort: { type: 'integer', format: 'int32' },
                name: { type: 'string' },
                protocol: { type: 'string' },
              },
            },
          },
        },
      },
    },
  };
  const version = (name: string, storage: boolean): Obj => ({ name, served: true, storage, schema: { openAPIV3Schema: schema } });
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'noxus.mygroup.example.com' },
    spec: {
      group: 'mygroup.example.com',
      scope: 'Cluster',
      names: { plural: 'noxus', singular: 'nonenglishnoxu', kind: 'WishIHadChosenNoxu', shortNames: ['foo', 'bar', 'abc', 'def'], listKind: 'NoxuItemList', categories: ['all'] },
      versions: [version('v1beta1', true), version('v1beta2', false)],
    },
  };
}

describeBackends('apply_crd_test.go', (cp) => {
  let c: HttpsClient;
  const noxus = '/apis/mygroup.example.com/v1beta1/noxus';
  const crontabs = (ns: string): string => `/apis/stable.example.com/v1/namespaces/${ns}/crontabs`;
  let ns = '';

  async function send(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; body: Obj }> {
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const r = await c.request({ method, path, headers: { Accept: 'application/json', ...(text !== undefined ? { 'Content-Type': contentType } : {}) }, ...(text !== undefined ? { body: text } : {}) });
    return { status: r.status, body: r.text === '' ? {} : (JSON.parse(r.text) as Obj) };
  }
  async function ok(method: string, path: string, want: number, body?: unknown, contentType?: string): Promise<Obj> {
    const r = await send(method, path, body, contentType);
    assert.equal(r.status, want, `${method} ${path}: ${JSON.stringify(r.body).slice(0, 2000)}`);
    return r.body;
  }
  const spec = (o: Obj): Obj => o['spec'] as Obj;

  before(async () => {
    c = new HttpsClient(cp().credentials);
    ns = uniqueName('applycrd');
    await ok('POST', '/api/v1/namespaces', 201, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    await createEstablishedCRD(c, noxuCRD(), noxus);
    await createEstablishedCRD(c, cronTabCRD(), crontabs(ns));
  });
  after(() => c.close());

  it('TestApplyCRDStructuralSchema', async () => {
    const name = 'mytest';
    const path = `${noxus}/${name}`;
    const yamlBody = `
apiVersion: mygroup.example.com/v1beta1
kind: WishIHadChosenNoxu
metadata:
  name: ${name}
  finalizers:
  - test-finalizer
spec:
  cronSpec: "* * * * */5"
  replicas: 1
  ports:
  - name: x
    containerPort: 80
    protocol: TCP`;
    let r = await ok('PATCH', `${path}?fieldManager=apply_test`, 201, yamlBody, APPLY);
    assert.deepEqual((r['metadata'] as Obj)['finalizers'], ['test-finalizer']);
    assert.equal(spec(r)['replicas'], 1);
    assert.equal((spec(r)['ports'] as unknown[]).length, 1);

    // finalizers are a set: another finalizer added by a merge patch survives the re-apply.
    r = await ok('PATCH', path, 200, { metadata: { finalizers: ['test-finalizer', 'another-one'] } }, MERGE);
    assert.deepEqual((r['metadata'] as Obj)['finalizers'], ['test-finalizer', 'another-one']);
    r = await ok('PATCH', `${path}?fieldManager=apply_test`, 200, yamlBody, APPLY);
    assert.deepEqual((r['metadata'] as Obj)['finalizers'], ['test-finalizer', 'another-one']);

    // replicas (preserved unknown field of spec) changed by another manager: one conflict, then force.
    r = await ok('PATCH', path, 200, { spec: { replicas: 5 } }, MERGE);
    assert.equal(spec(r)['replicas'], 5);
    const conflict = await send('PATCH', `${path}?fieldManager=apply_test`, yamlBody, APPLY);
    assert.equal(conflict.status, 409, JSON.stringify(conflict.body));
    assert.equal(((conflict.body['details'] as Obj)['causes'] as unknown[]).length, 1, JSON.stringify(conflict.body));
    r = await ok('PATCH', `${path}?fieldManager=apply_test&force=true`, 200, yamlBody, APPLY);
    assert.equal(spec(r)['replicas'], 1);

    // A new applier editing an existing item of the map list conflicts; adding an item does not.
    const port = (containerPort: number): string => `
apiVersion: mygroup.example.com/v1beta1
kind: WishIHadChosenNoxu
metadata:
  name: ${name}
spec:
  ports:
  - name: "y"
    containerPort: ${containerPort}
    protocol: TCP`;
    const itemConflict = await send('PATCH', `${path}?fieldManager=apply_test_2`, port(80), APPLY);
    assert.equal(itemConflict.status, 409, JSON.stringify(itemConflict.body));
    assert.deepEqual(
      ((itemConflict.body['details'] as Obj)['causes'] as Obj[]).map((x) => x['field']),
      ['.spec.ports[containerPort=80,protocol="TCP"].name'],
    );
    r = await ok('PATCH', `${path}?fieldManager=apply_test_2`, 200, port(8080), APPLY);
    assert.equal((spec(r)['ports'] as unknown[]).length, 2);

    // UpdateOnCreate: a PUT of a missing custom resource is 404, whatever the fieldManager.
    const put = await send('PUT', `${noxus}/should-not-exist?fieldManager=apply_test`, {
      apiVersion: 'mygroup.example.com/v1beta1',
      kind: 'WishIHadChosenNoxu',
      metadata: { name: 'should-not-exist' },
      spec: {},
    });
    assert.equal(put.status, 404, JSON.stringify(put.body));
  });

  it('apply in another served version: each manager keeps its set in the version it wrote', async () => {
    const name = uniqueName('versions');
    await ok(
      'PATCH',
      `${noxus}/${name}?fieldManager=beta1`,
      201,
      { apiVersion: 'mygroup.example.com/v1beta1', kind: 'WishIHadChosenNoxu', metadata: { name }, spec: { cronSpec: '* * * * */5' } },
      APPLY,
    );
    const r = await ok(
      'PATCH',
      `/apis/mygroup.example.com/v1beta2/noxus/${name}?fieldManager=beta2`,
      200,
      { apiVersion: 'mygroup.example.com/v1beta2', kind: 'WishIHadChosenNoxu', metadata: { name }, spec: { ports: [{ containerPort: 80, protocol: 'TCP' }] } },
      APPLY,
    );
    assertManagedFields(r, [
      entry('beta1', 'Apply', 'mygroup.example.com/v1beta1', '{"f:spec":{"f:cronSpec":{}}}'),
      entry('beta2', 'Apply', 'mygroup.example.com/v1beta2', '{"f:spec":{"f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:protocol":{}}}}}'),
    ]);
  });

  it('reset fields: status applied through the main resource is not owned; spec applied through /status is not', async () => {
    const name = uniqueName('reset');
    const path = `${crontabs(ns)}/${name}`;
    const main = await ok(
      'PATCH',
      `${path}?fieldManager=main`,
      201,
      { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name }, spec: { image: 'a' }, status: { replicas: 3 } },
      APPLY,
    );
    assert.equal(main['status'], undefined);
    assertManagedFields(main, [entry('main', 'Apply', 'stable.example.com/v1', '{"f:spec":{"f:image":{}}}')]);
    const status = await ok(
      'PATCH',
      `${path}/status?fieldManager=statusmgr`,
      200,
      { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name }, spec: { image: 'b' }, status: { replicas: 3 } },
      APPLY,
    );
    assert.deepEqual(status['spec'], { image: 'a', replicas: 1 });
    assert.deepEqual(status['status'], { replicas: 3 });
    assertManagedFields(status, [
      entry('main', 'Apply', 'stable.example.com/v1', '{"f:spec":{"f:image":{}}}'),
      entry('statusmgr', 'Apply', 'stable.example.com/v1', '{"f:status":{"f:replicas":{}}}', 'status'),
    ]);
  });

  it('scale_test.go: a scale update takes spec.replicas from its applier, recorded on the resource as the scale subresource', async () => {
    const name = uniqueName('scale');
    const path = `${crontabs(ns)}/${name}`;
    await ok('PATCH', `${path}?fieldManager=apply_test`, 201, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name }, spec: { image: 'a', replicas: 2 } }, APPLY);
    const scale = await ok('GET', `${path}/scale`, 200);
    assert.equal(managedFieldsOf(scale).length, 0, 'a Scale read shows no managedFields');
    await ok('PUT', `${path}/scale?fieldManager=scaler`, 200, { ...scale, spec: { replicas: 4 } });
    const got = await ok('GET', path, 200);
    assert.equal(spec(got)['replicas'], 4);
    assertManagedFields(got, [
      entry('apply_test', 'Apply', 'stable.example.com/v1', '{"f:spec":{"f:image":{}}}'),
      // kube's ScaleHandler.ToParent gives a manager new to the resource the resource's time for
      // it, which is none: such an entry has no time.
      { manager: 'scaler', operation: 'Update', apiVersion: 'stable.example.com/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, subresource: 'scale' },
    ]);
    // The applier applying its old replicas now conflicts with the scaler.
    const conflict = await send('PATCH', `${path}?fieldManager=apply_test`, { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name }, spec: { image: 'a', replicas: 2 } }, APPLY);
    assert.equal(conflict.status, 409, JSON.stringify(conflict.body));
    assert.equal(conflict.body['message'], 'Apply failed with 1 conflict: conflict with "scaler" with subresource "scale" using stable.example.com/v1: .spec.replicas');
  });
});
