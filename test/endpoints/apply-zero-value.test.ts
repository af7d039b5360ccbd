// The live object of a create is the kind's zero value (kube's scope.Creater.New(kind)), so the
// parents Go always writes (a Service's `spec`, a RoleBinding's `roleRef`) are not recorded as set
// (`.`) in the creator's managedFields, as kube-apiserver records them; the same for an apply that
// creates. On SQLite only: what is under test is the handlers, not the storage.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeBackends } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { uniqueName } from '../integration/objects.js';
import { assertManagedFields, entry } from '../integration/apply/managed.js';

type Obj = Record<string, unknown>;
const APPLY = 'application/apply-patch+yaml';

describeBackends(
  'create from the zero value',
  (cp) => {
    let c: HttpsClient;
    let ns = '';

    async function send(method: string, path: string, body: unknown, contentType = 'application/json'): Promise<{ status: number; body: Obj }> {
      const r = await c.request({
        method,
        path,
        headers: { Accept: 'application/json', 'Content-Type': contentType, 'User-Agent': 'kubectl-create/v1.32.0 (linux/amd64) kubernetes/abcdef' },
        body: JSON.stringify(body),
      });
      return { status: r.status, body: r.text === '' ? {} : (JSON.parse(r.text) as Obj) };
    }
    async function created(method: string, path: string, body: unknown, contentType?: string): Promise<Obj> {
      const r = await send(method, path, body, contentType);
      assert.equal(r.status, 201, `${method} ${path}: ${JSON.stringify(r.body).slice(0, 2000)}`);
      return r.body;
    }

    before(async () => {
      c = new HttpsClient(cp().credentials);
      ns = uniqueName('zero');
      await created('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    });
    after(() => c.close());

    const service = (name: string): Obj => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name },
      spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] },
    });

    it('a Service created by kubectl: no `.` under f:spec, nothing of the zero status', async () => {
      const svc = await created('POST', `/api/v1/namespaces/${ns}/services?fieldManager=kubectl-create`, service('web'));
      assertManagedFields(svc, [
        entry(
          'kubectl-create',
          'Update',
          'v1',
          '{"f:spec":{"f:internalTrafficPolicy":{},"f:ports":{".":{},"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:port":{},"f:protocol":{},"f:targetPort":{}}},"f:selector":{},"f:sessionAffinity":{},"f:type":{}}}',
        ),
      ]);
      assert.deepStrictEqual(svc['status'], { loadBalancer: {} });
    });

    it('a Namespace created by kubectl: only its defaulted name label', async () => {
      const created_ = await created('POST', '/api/v1/namespaces?fieldManager=kubectl-create', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `${ns}-b` } });
      assertManagedFields(created_, [entry('kubectl-create', 'Update', 'v1', '{"f:metadata":{"f:labels":{".":{},"f:kubernetes.io/metadata.name":{}}}}')]);
    });

    it('a RoleBinding created by kubectl: the atomic roleRef and subjects', async () => {
      const rb = await created('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings?fieldManager=kubectl-create`, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'rb' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
        subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: ns }],
      });
      assertManagedFields(rb, [entry('kubectl-create', 'Update', 'rbac.authorization.k8s.io/v1', '{"f:roleRef":{},"f:subjects":{}}')]);
    });

    it('an apply that creates a Service: the applier alone, no before-first-apply for the zero spec', async () => {
      const svc = await created('PATCH', `/api/v1/namespaces/${ns}/services/applied?fieldManager=kubectl`, service('applied'), APPLY);
      assertManagedFields(svc, [entry('kubectl', 'Apply', 'v1', '{"f:spec":{"f:ports":{"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:port":{},"f:targetPort":{}}},"f:selector":{}}}')]);
      // The applied configuration merged onto the zero Service, as kube answers it.
      assert.deepStrictEqual(svc['status'], { loadBalancer: {} });
    });

    it('an apply that creates a RoleBinding: the applied roleRef over the zero one, owned as one atomic field', async () => {
      const path = `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings/applied`;
      const rb = await created(
        'PATCH',
        `${path}?fieldManager=kubectl`,
        { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'applied' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' } },
        APPLY,
      );
      assert.deepStrictEqual(rb['roleRef'], { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' });
      assertManagedFields(rb, [entry('kubectl', 'Apply', 'rbac.authorization.k8s.io/v1', '{"f:roleRef":{}}')]);
    });
  },
  { only: ['sqlite'] },
);
