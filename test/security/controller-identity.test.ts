// The garbage collector acts as its own user (system:serviceaccount:kube-system:generic-garbage-collector)
// within its bootstrap role, as kube-controller-manager's does with --use-service-account-credentials:
// with the role emptied it is refused (kube's 403, in the server's log) and the dependent stays;
// with the role's rules back it deletes the dependent. The role is marked autoupdate=false so the
// bootstrap reconciliation leaves the edit alone, as kube's does.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { until } from '../integration/assertions.js';
import { ControlPlane } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';

const ROLE = '/apis/rbac.authorization.k8s.io/v1/clusterroles/system:controller:generic-garbage-collector';
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

describe('in-process controllers act as their own users', () => {
  let cp: ControlPlane;
  let admin: HttpsClient;

  before(async () => {
    cp = await ControlPlane.start({ backend: 'sqlite' });
    admin = new HttpsClient(cp.credentials);
  });
  after(async () => {
    await cp?.stop();
  });

  it('the garbage collector is authorized as generic-garbage-collector: refused without its role, deleting with it', async () => {
    const role = await admin.json('GET', ROLE);
    assert.equal(role.status, 200, JSON.stringify(role.body));
    const rules = role.body['rules'];
    assert.ok(Array.isArray(rules) && rules.length > 0, JSON.stringify(rules));
    const setRules = async (r: unknown): Promise<void> => {
      const res = await admin.json(
        'PATCH',
        ROLE,
        { metadata: { annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'false' } }, rules: r },
        { 'content-type': 'application/merge-patch+json' },
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    await setRules([]);
    const logFrom = cp.log().length;

    const owner = await admin.json('POST', CONFIGMAPS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner' } });
    assert.equal(owner.status, 201, JSON.stringify(owner.body));
    const uid = (owner.body['metadata'] as { uid: string }).uid;
    const dependent = await admin.json('POST', CONFIGMAPS, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'dependent', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid }] },
    });
    assert.equal(dependent.status, 201, JSON.stringify(dependent.body));
    assert.equal((await admin.json('DELETE', `${CONFIGMAPS}/owner`)).status, 200);

    // Refused as itself, in kube's words: the collector's own calls went through the authorizer.
    await until('the collector refused as its own user', () =>
      /User \\?"system:serviceaccount:kube-system:generic-garbage-collector\\?" cannot \w+ resource/.test(cp.log().slice(logFrom)) ? true : undefined,
    );
    assert.equal((await admin.json('GET', `${CONFIGMAPS}/dependent`)).status, 200, 'the dependent stays while the collector may not act');

    await setRules(rules);
    await until('the dependent collected', async () => ((await admin.json('GET', `${CONFIGMAPS}/dependent`)).status === 404 ? true : undefined), 120_000);
  });
});
