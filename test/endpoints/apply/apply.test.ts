// Server-side apply through the handlers, ported from kubernetes test/integration/apiserver/apply/
// apply_test.go (the cases whose kinds this server serves: ConfigMap stands in for Pods and
// Deployments, whose behaviour there is the kind-independent part under test), plus the wire
// details of the PATCH handler: PatchOptions, decode errors, fieldValidation, dryRun, the
// User-Agent manager, reset fields and status. On the control plane command, SQLite and etcd.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { describeBackends } from '../../integration/harness.js';
import { HttpsClient } from '../../integration/https.js';
import { uniqueName } from '../../integration/objects.js';
import { assertManagedFields, entry, managedFieldsOf } from '../../integration/apply/managed.js';

type Obj = Record<string, unknown>;
const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';
const SMP = 'application/strategic-merge-patch+json';
const JSONPATCH = 'application/json-patch+json';

describeBackends('apply_test.go', (cp) => {
  let c: HttpsClient;
  let ns = '';

  async function send(
    method: string,
    path: string,
    o: { body?: unknown; contentType?: string; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; body: Obj; headers: Record<string, unknown> }> {
    const body = o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
    const r = await c.request({
      method,
      path,
      headers: { Accept: 'application/json', ...(body !== undefined ? { 'Content-Type': o.contentType ?? 'application/json' } : {}), ...(o.headers ?? {}) },
      ...(body !== undefined ? { body } : {}),
    });
    return { status: r.status, body: r.text === '' ? {} : (JSON.parse(r.text) as Obj), headers: r.headers };
  }
  async function ok(method: string, path: string, want: number, o: Parameters<typeof send>[2] = {}): Promise<Obj> {
    const r = await send(method, path, o);
    assert.equal(r.status, want, `${method} ${path}: ${JSON.stringify(r.body).slice(0, 2000)}`);
    return r.body;
  }
  const cms = (): string => `/api/v1/namespaces/${ns}/configmaps`;
  const configMap = (name: string, extra: Obj = {}): Obj => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, ...((extra['metadata'] as Obj | undefined) ?? {}) },
    ...(extra['data'] !== undefined ? { data: extra['data'] } : {}),
  });
  const apply = (path: string, body: unknown, q = 'fieldManager=apply_test'): Promise<{ status: number; body: Obj; headers: Record<string, unknown> }> =>
    send('PATCH', `${path}?${q}`, { body, contentType: APPLY });

  before(async () => {
    c = new HttpsClient(cp().credentials);
    ns = uniqueName('apply');
    await ok('POST', '/api/v1/namespaces', 201, { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } } });
  });
  after(() => c.close());

  it('TestApplyAlsoCreates', async () => {
    for (const [resource, name, body] of [
      ['services', 'test-svc', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'test-svc' }, spec: { ports: [{ port: 8080, protocol: 'UDP' }] } }],
      ['configmaps', 'test-cm', configMap('test-cm', { data: { key: 'value' } })],
    ] as const) {
      const path = `/api/v1/namespaces/${ns}/${resource}/${name}`;
      const created = await apply(path, body);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      await ok('GET', path, 200);
      // Another manager applying the same values co-owns them: no conflict.
      const again = await apply(path, body, 'fieldManager=apply_test_2');
      assert.equal(again.status, 200, JSON.stringify(again.body));
    }
  });

  it('TestCreateOnApplyFailsWithUID', async () => {
    const r = await apply(`${cms()}/test-cm-uid`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'test-cm-uid', uid: '88e00824-7f0e-11e8-94a1-c8d3ffb15800' } });
    assert.equal(r.status, 409, JSON.stringify(r.body));
    assert.equal(r.body['reason'], 'Conflict');
    assert.equal(
      r.body['message'],
      'Operation cannot be fulfilled on configmaps "test-cm-uid": uid mismatch: the provided object specified uid 88e00824-7f0e-11e8-94a1-c8d3ffb15800, and no existing object was found',
    );
    assert.equal((await send('GET', `${cms()}/test-cm-uid`)).status, 404);
  });

  it('TestApplyUpdateApplyConflictForced', async () => {
    const name = uniqueName('conflict');
    const obj = configMap(name, { metadata: { labels: { app: 'nginx' } }, data: { replicas: '3' } });
    assert.equal((await apply(`${cms()}/${name}`, obj)).status, 201);
    await ok('PATCH', `${cms()}/${name}`, 200, { body: { data: { replicas: '5' } }, contentType: MERGE, headers: { 'User-Agent': 'kubectl/v1.32.0 (linux/amd64) kubernetes/abcdef' } });
    const refused = await apply(`${cms()}/${name}`, obj);
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body['reason'], 'Conflict');
    // The merge patch was recorded as the User-Agent's product: kubectl, an Update manager in v1.
    assert.equal(refused.body['message'], 'Apply failed with 1 conflict: conflict with "kubectl" using v1: .data.replicas');
    assert.deepEqual((refused.body['details'] as Obj)['causes'], [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl" using v1', field: '.data.replicas' }]);
    const forced = await apply(`${cms()}/${name}`, obj, 'fieldManager=apply_test&force=true');
    assert.equal(forced.status, 200, JSON.stringify(forced.body));
    assert.deepEqual(forced.body['data'], { replicas: '3' });
    assertManagedFields(forced.body, [entry('apply_test', 'Apply', 'v1', '{"f:data":{"f:replicas":{}},"f:metadata":{"f:labels":{"f:app":{}}}}')]);
  });

  it('TestApplyManagedFields', async () => {
    const name = uniqueName('test-cm');
    const path = `${cms()}/${name}`;
    const created = await apply(path, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, labels: { 'test-label': 'test' } }, data: { key: 'value' } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    await ok('PATCH', `${path}?fieldManager=updater`, 200, { body: { data: { key: 'new value', 'new-key': 'value' } }, contentType: MERGE });
    const got = await ok('GET', path, 200);
    assert.deepEqual((got['metadata'] as Obj)['labels'], { 'test-label': 'test' });
    assertManagedFields(got, [entry('apply_test', 'Apply', 'v1', '{"f:metadata":{"f:labels":{"f:test-label":{}}}}'), entry('updater', 'Update', 'v1', '{"f:data":{"f:key":{},"f:new-key":{}}}')]);
    assert.deepEqual(got['data'], { key: 'new value', 'new-key': 'value' });
  });

  it('TestApplyRemovesEmptyManagedFields', async () => {
    const name = uniqueName('empty');
    const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns } };
    assert.equal((await apply(`${cms()}/${name}`, obj)).status, 201);
    assert.equal((await apply(`${cms()}/${name}`, obj)).status, 200);
    const got = await ok('GET', `${cms()}/${name}`, 200);
    assert.equal((got['metadata'] as Obj)['managedFields'], undefined, JSON.stringify(got));
  });

  it('TestApplyRequiresFieldManager', async () => {
    const name = uniqueName('nofm');
    const refused = await apply(`${cms()}/${name}`, configMap(name), '');
    assert.equal(refused.status, 422);
    assert.equal(refused.body['message'], 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
    assert.equal((await apply(`${cms()}/${name}`, configMap(name))).status, 201);
  });

  it('TestApplyFailsWithVersionMismatch', async () => {
    const name = uniqueName('mismatch');
    assert.equal((await apply(`${cms()}/${name}`, configMap(name, { data: { a: '1' } }))).status, 201);
    const r = await apply(`${cms()}/${name}`, { ...configMap(name, { data: { a: '100' } }), apiVersion: 'extensions/v1beta' });
    assert.equal(r.status, 400, JSON.stringify(r.body));
    // kube's version check layer answers before the structured merge manager's own check.
    assert.equal(r.body['message'], 'invalid object type: extensions/v1beta, Kind=ConfigMap');
  });

  describe('TestClearManagedFields', () => {
    const applied = async (): Promise<string> => {
      const name = uniqueName('clear');
      const r = await apply(`${cms()}/${name}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, labels: { 'test-label': 'test' } }, data: { key: 'value' } });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      return `${cms()}/${name}`;
    };
    const cleared = async (path: string): Promise<void> => {
      const got = await ok('GET', path, 200);
      assert.deepEqual(managedFieldsOf(got), [], JSON.stringify(got));
      assert.deepEqual((got['metadata'] as Obj)['labels'], { 'test-label': 'test' }, 'other fields stay untouched');
    };
    it('TestClearManagedFieldsWithMergePatch', async () => {
      const path = await applied();
      await ok('PATCH', path, 200, { body: { metadata: { managedFields: [{}] } }, contentType: MERGE });
      await cleared(path);
    });
    it('TestClearManagedFieldsWithStrategicMergePatch', async () => {
      const path = await applied();
      await ok('PATCH', path, 200, { body: { metadata: { managedFields: [{}] } }, contentType: SMP });
      await cleared(path);
    });
    it('TestClearManagedFieldsWithJSONPatch', async () => {
      const path = await applied();
      await ok('PATCH', path, 200, { body: [{ op: 'replace', path: '/metadata/managedFields', value: [{}] }], contentType: JSONPATCH });
      await cleared(path);
    });
    it('TestClearManagedFieldsWithUpdate', async () => {
      const path = await applied();
      const current = await ok('GET', path, 200);
      await ok('PUT', path, 200, { body: { ...current, metadata: { ...(current['metadata'] as Obj), managedFields: [{}] } } });
      await cleared(path);
    });
  });

  it('TestErrorsDontFail: managedFields that do not decode are dropped, the write succeeds', async () => {
    const name = uniqueName('errors');
    const bad = [{ manager: 'apply_test', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'k:{not json': {} } } }];
    const created = await ok('POST', `${cms()}?fieldManager=creator`, 201, { body: { ...configMap(name, { data: { a: '1' } }), metadata: { name, managedFields: bad } } });
    assertManagedFields(created, [entry('creator', 'Update', 'v1', '{"f:data":{".":{},"f:a":{}}}')]);
    const current = await ok('GET', `${cms()}/${name}`, 200);
    const updated = await ok('PUT', `${cms()}/${name}?fieldManager=updater`, 200, { body: { ...current, metadata: { ...(current['metadata'] as Obj), managedFields: bad }, data: { a: '2' } } });
    // The live managedFields are kept; the updater takes data.a from the creator, who keeps the map
    // alone (a member without children: no ".").
    assertManagedFields(updated, [entry('creator', 'Update', 'v1', '{"f:data":{}}'), entry('updater', 'Update', 'v1', '{"f:data":{"f:a":{}}}')]);
  });

  it('create, update and patch record the request manager; without fieldManager the User-Agent product', async () => {
    const name = uniqueName('ua');
    const ua = { 'User-Agent': 'kube-controller-manager/v1.32.0 (linux/amd64) kubernetes/abcdef/system:serviceaccount:kube-system:x' };
    const created = await ok('POST', cms(), 201, { body: configMap(name, { data: { a: '1' } }), headers: ua });
    assertManagedFields(created, [entry('kube-controller-manager', 'Update', 'v1', '{"f:data":{".":{},"f:a":{}}}')]);
    const patched = await ok('PATCH', `${cms()}/${name}?fieldManager=patcher`, 200, { body: { data: { b: '2' } }, contentType: MERGE, headers: ua });
    assertManagedFields(patched, [entry('kube-controller-manager', 'Update', 'v1', '{"f:data":{".":{},"f:a":{}}}'), entry('patcher', 'Update', 'v1', '{"f:data":{"f:b":{}}}')]);
  });

  it('keys such as __proto__ and constructor are data in applied configurations and field sets', async () => {
    const name = uniqueName('proto');
    const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"},"data":{"__proto__":"x","constructor":"y"}}`;
    const r = await apply(`${cms()}/${name}`, body);
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const got = await ok('GET', `${cms()}/${name}`, 200);
    assert.deepEqual(Object.keys(got['data'] as Obj), ['__proto__', 'constructor']);
    assert.equal(Object.getPrototypeOf(got['data']), Object.prototype);
    assertManagedFields(got, [entry('apply_test', 'Apply', 'v1', '{"f:data":{"f:__proto__":{},"f:constructor":{}}}')]);
  });

  it('a YAML body; 400 for YAML that does not decode or is not a mapping', async () => {
    const name = uniqueName('yaml');
    const r = await apply(`${cms()}/${name}`, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: "1"\n`);
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.deepEqual(r.body['data'], { a: '1' });
    const broken = await apply(`${cms()}/${name}`, 'apiVersion: v1\nkind: [ConfigMap\n');
    assert.equal(broken.status, 400);
    // yaml.Unmarshal's wording: go-yaml's message and line, behind "error converting YAML to JSON: ".
    assert.equal(broken.body['message'], "error decoding YAML: error converting YAML to JSON: yaml: line 2: did not find expected ',' or ']'");
    const list = await apply(`${cms()}/${name}`, '- a\n- b\n');
    assert.equal(list.status, 400);
    assert.equal(list.body['message'], 'error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}');
  });

  it('fieldValidation: duplicate keys are 400 with Strict, a warning with Warn, nothing with Ignore', async () => {
    const name = uniqueName('dup');
    const yaml = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: "1"\n  a: "2"\n`;
    const dup = 'error converting YAML to JSON: yaml: unmarshal errors:\n  line 7: key "a" already set in map';
    const strict = await apply(`${cms()}/${name}`, yaml, 'fieldManager=apply_test&fieldValidation=Strict');
    assert.equal(strict.status, 400, JSON.stringify(strict.body));
    assert.equal(strict.body['message'], `error strict decoding YAML: ${dup}`);
    const warn = await apply(`${cms()}/${name}`, yaml, 'fieldManager=apply_test&fieldValidation=Warn');
    assert.equal(warn.status, 201, JSON.stringify(warn.body));
    assert.deepEqual(warn.body['data'], { a: '2' });
    // 1.32's parseYAMLWarnings: one warning per line of the strict error, without its prefix.
    assert.equal(warn.headers['warning'], '299 - "line 7: key \\"a\\" already set in map"');
    const ignore = await apply(`${cms()}/${name}`, yaml, 'fieldManager=apply_test&fieldValidation=Ignore');
    assert.equal(ignore.status, 200);
    assert.equal(ignore.headers['warning'], undefined);
  });

  it('force is forbidden on other patch types; other Content-Types are 415 listing apply', async () => {
    const name = uniqueName('force');
    assert.equal((await apply(`${cms()}/${name}`, configMap(name))).status, 201);
    const force = await send('PATCH', `${cms()}/${name}?force=true`, { body: {}, contentType: MERGE });
    assert.equal(force.status, 422);
    assert.equal(force.body['message'], 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
    const other = await send('PATCH', `${cms()}/${name}`, { body: {}, contentType: 'application/json' });
    assert.equal(other.status, 415);
    assert.equal(
      other.body['message'],
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
    );
  });

  it('dryRun: an apply that would create answers 201 with managedFields and stores nothing', async () => {
    const name = uniqueName('dry');
    const r = await apply(`${cms()}/${name}`, configMap(name, { data: { a: '1' } }), 'fieldManager=apply_test&dryRun=All');
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assertManagedFields(r.body, [entry('apply_test', 'Apply', 'v1', '{"f:data":{"f:a":{}}}')]);
    assert.equal((await send('GET', `${cms()}/${name}`)).status, 404);
  });

  it('reset fields: status applied through the main resource is neither stored nor owned; through /status it is, as the status subresource', async () => {
    const name = uniqueName('reset');
    const path = `/api/v1/namespaces/${name}`;
    const main = await apply(path, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { a: 'b' } }, status: { phase: 'Terminating' } });
    assert.equal(main.status, 201, JSON.stringify(main.body));
    assert.deepEqual(main.body['status'], { phase: 'Active' });
    assertManagedFields(main.body, [entry('apply_test', 'Apply', 'v1', '{"f:metadata":{"f:labels":{"f:a":{}}}}')]);
    const status = await apply(
      `${path}/status`,
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name }, status: { conditions: [{ type: 'NamespaceDeletionDiscoveryFailure', status: 'False' }] } },
      'fieldManager=status_test',
    );
    assert.equal(status.status, 200, JSON.stringify(status.body));
    assert.deepEqual((status.body['metadata'] as Obj)['labels'], { a: 'b', 'kubernetes.io/metadata.name': name });
    const statusEntry = managedFieldsOf(status.body).find((e) => e.manager === 'status_test');
    assert.equal(statusEntry?.subresource, 'status');
    assert.equal(statusEntry?.operation, 'Apply');
    assert.deepEqual(statusEntry?.fieldsV1, { 'f:status': { 'f:conditions': { 'k:{"type":"NamespaceDeletionDiscoveryFailure"}': { '.': {}, 'f:status': {}, 'f:type': {} } } } });
  });
  it('TestApplyConvertsManagedFieldsVersion (Flunders): an applier re-applying in another version has one entry, in that version', async () => {
    const name = uniqueName('flunder');
    const path = (v: string): string => `/apis/wardle.example.com/${v}/namespaces/${ns}/flunders/${name}`;
    const first = await apply(
      path('v1alpha1'),
      { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name, labels: { sidecar_version: 'release' } }, spec: { reference: 'other' } },
      'fieldManager=sidecar_controller',
    );
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assertManagedFields(first.body, [entry('sidecar_controller', 'Apply', 'wardle.example.com/v1alpha1', '{"f:metadata":{"f:labels":{"f:sidecar_version":{}}},"f:spec":{"f:reference":{}}}')]);
    const second = await apply(
      path('v1beta1'),
      { apiVersion: 'wardle.example.com/v1beta1', kind: 'Flunder', metadata: { name, labels: { sidecar_version: 'release' } }, spec: { flunderReference: 'other' } },
      'fieldManager=sidecar_controller',
    );
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assertManagedFields(second.body, [entry('sidecar_controller', 'Apply', 'wardle.example.com/v1beta1', '{"f:metadata":{"f:labels":{"f:sidecar_version":{}}},"f:spec":{"f:flunderReference":{}}}')]);
    // Read in the other version, the entry is unchanged: managedFields are not converted on read.
    assert.equal(JSON.stringify(managedFieldsOf(await ok('GET', path('v1alpha1'), 200))), JSON.stringify(managedFieldsOf(second.body)));
  });

  it('an atomic list (Role.rules, listType atomic in apis/rbac) is owned whole: another applier conflicts on .rules', async () => {
    const name = uniqueName('role');
    const path = `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles/${name}`;
    const role = (verbs: string[]): Obj => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs }] });
    const created = await apply(path, role(['get']), 'fieldManager=a');
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assertManagedFields(created.body, [entry('a', 'Apply', 'rbac.authorization.k8s.io/v1', '{"f:rules":{}}')]);
    const refused = await apply(path, role(['get', 'list']), 'fieldManager=b');
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.body['message'], 'Apply failed with 1 conflict: conflict with "a": .rules');
  });
});
