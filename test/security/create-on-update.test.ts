// A PUT or a server-side apply that creates is authorized as a create too, as kube's handlers wrap
// their create validation (withAuthorization): a user who may only update or patch a resource
// must not create it by updating or applying a name that does not exist.
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { describeBackends } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { grantTestUser, testUserClient, testUserFlags } from '../integration/rbac-user.js';

const NS = 'default';
const CMS = `/api/v1/namespaces/${NS}/configmaps`;
const ROLES = `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/roles`;
const APPLY = { 'Content-Type': 'application/apply-patch+yaml' };

describeBackends(
  'create on update needs create',
  (cp) => {
    let admin: HttpsClient;
    let user: HttpsClient;
    before(async () => {
      admin = new HttpsClient(cp().credentials);
      user = testUserClient(cp());
      await grantTestUser(admin, 'patch-update-only', [{ apiGroups: ['', 'rbac.authorization.k8s.io'], resources: ['configmaps', 'roles'], verbs: ['get', 'update', 'patch'] }], {
        verb: 'patch',
        group: '',
        resource: 'configmaps',
        namespace: NS,
      });
    });

    const configMap = (name: string): string => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' } });

    it('an apply that would create is 403 without create, and stores nothing; an apply to an existing object is a patch', async () => {
      const refused = await user.json('PATCH', `${CMS}/applied?fieldManager=m`, configMap('applied'), APPLY);
      assert.equal(refused.status, 403, JSON.stringify(refused.body));
      assert.equal(refused.body['reason'], 'Forbidden');
      assert.equal(refused.body['message'], 'configmaps "applied" is forbidden: ');
      assert.deepEqual(refused.body['details'], { name: 'applied', kind: 'configmaps' });
      assert.equal((await admin.json('GET', `${CMS}/applied`)).status, 404);

      assert.equal((await admin.json('POST', CMS, JSON.parse(configMap('existing')))).status, 201);
      const applied = await user.json('PATCH', `${CMS}/existing?fieldManager=m`, configMap('existing'), APPLY);
      assert.equal(applied.status, 200, JSON.stringify(applied.body));
    });

    it('a PUT that would create a Role (roles allow create on update) is 403 without create', async () => {
      const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'put-created' }, rules: [] };
      const refused = await user.json('PUT', `${ROLES}/put-created`, role);
      assert.equal(refused.status, 403, JSON.stringify(refused.body));
      assert.equal(refused.body['message'], 'roles.rbac.authorization.k8s.io "put-created" is forbidden: ');
      assert.equal((await admin.json('GET', `${ROLES}/put-created`)).status, 404);
    });

    it('granted create, the same apply creates', async () => {
      await grantTestUser(admin, 'create-too', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create'] }], { verb: 'create', group: '', resource: 'configmaps', namespace: NS });
      const created = await user.json('PATCH', `${CMS}/applied?fieldManager=m`, configMap('applied'), APPLY);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(((created.body['metadata'] as { managedFields?: Array<{ manager: string }> }).managedFields ?? [])[0]?.manager, 'm');
    });
  },
  { extraArgs: testUserFlags() },
);
