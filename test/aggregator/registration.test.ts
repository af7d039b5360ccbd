// APIService registration in the control plane (in this process, SQLite): the autoregister
// controller's local APIService for every group version the servers behind the aggregator
// serve, kept present; the CRD registration controller's for every served version of every
// CRD, following version changes and the CRD's deletion; readiness; and an APIService that
// points at a service keeping a built-in group version it took over.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CustomResourceDefinition } from '../../apis/apiextensions/v1/types.js';
import type { APIServiceInterface } from '../../generated/clientset/apiregistration/v1/index.js';
import { apiGroups } from '../../generated/index.js';
import { AUTO_REGISTER_MANAGED_LABEL } from '../../runtime/aggregator/index.js';
import { availability, availableOf, getAPIService, startAggregatorEnv, until, type AggregatorEnv } from './proxy-env.js';

const CRD_GROUP = 'registration.example.com';

function crd(versions: { name: string; served: boolean; storage: boolean }[]): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${CRD_GROUP}` },
    spec: {
      group: CRD_GROUP,
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      versions: versions.map((v) => ({ ...v, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } })),
    },
  };
}

describe('APIService registration', () => {
  let env: AggregatorEnv;
  const apiServices = (): APIServiceInterface => env.cs.apiregistrationV1().apiservices();
  const absent = (name: string): Promise<true> => until(`${name} gone`, async () => ((await getAPIService(env.cs, name)) === undefined ? true : undefined));

  before(async () => {
    env = await startAggregatorEnv();
  });
  after(async () => {
    await env?.close();
  });

  test("every group version served behind the aggregator has a local, automanaged APIService with kube's priorities, Available=True/Local", async () => {
    const expected = apiGroups
      .filter((g) => g.name !== 'apiregistration.k8s.io')
      .flatMap((g) => g.versions.map((v) => `${v.name}.${g.name}`))
      .sort();
    assert.deepEqual(expected, [
      'v1.',
      'v1.apiextensions.k8s.io',
      'v1.authentication.k8s.io',
      'v1.authorization.k8s.io',
      'v1.coordination.k8s.io',
      'v1.events.k8s.io',
      'v1.rbac.authorization.k8s.io',
      'v1alpha1.wardle.example.com',
      'v1beta1.wardle.example.com',
    ]);
    for (const name of expected) await availability(env.cs, name, 'True', 'Local');
    const list = (await apiServices().list()).items;
    const byName = new Map(list.map((s) => [s.metadata?.name ?? '', s]));
    for (const name of expected) {
      const svc = byName.get(name);
      assert.ok(svc, name);
      assert.equal(svc.spec?.service, undefined, name);
      assert.equal(svc.metadata?.labels?.[AUTO_REGISTER_MANAGED_LABEL], 'true', name);
      assert.equal(availableOf(svc)?.message, 'Local APIServices are always available');
    }
    // kube's table for the groups it defines; the discovery priorities of apis/ for the others.
    assert.deepEqual(byName.get('v1.')?.spec, { group: '', version: 'v1', groupPriorityMinimum: 18000, versionPriority: 1 });
    assert.deepEqual(byName.get('v1.apiextensions.k8s.io')?.spec, { group: 'apiextensions.k8s.io', version: 'v1', groupPriorityMinimum: 16700, versionPriority: 15 });
    assert.deepEqual(byName.get('v1.authentication.k8s.io')?.spec, { group: 'authentication.k8s.io', version: 'v1', groupPriorityMinimum: 17700, versionPriority: 15 });
    assert.deepEqual(byName.get('v1.authorization.k8s.io')?.spec, { group: 'authorization.k8s.io', version: 'v1', groupPriorityMinimum: 17600, versionPriority: 15 });
    assert.deepEqual(byName.get('v1.coordination.k8s.io')?.spec, { group: 'coordination.k8s.io', version: 'v1', groupPriorityMinimum: 16500, versionPriority: 15 });
    assert.deepEqual(byName.get('v1.rbac.authorization.k8s.io')?.spec, { group: 'rbac.authorization.k8s.io', version: 'v1', groupPriorityMinimum: 17000, versionPriority: 15 });
    assert.deepEqual(byName.get('v1beta1.wardle.example.com')?.spec, { group: 'wardle.example.com', version: 'v1beta1', groupPriorityMinimum: 1000, versionPriority: 15 });
    assert.deepEqual(byName.get('v1alpha1.wardle.example.com')?.spec, { group: 'wardle.example.com', version: 'v1alpha1', groupPriorityMinimum: 1000, versionPriority: 14 });
    // The aggregator's own group is served by the aggregator, not registered.
    assert.equal(byName.get('v1.apiregistration.k8s.io'), undefined);
  });

  test("/readyz has autoregister-completion and the aggregator's post-start hooks, all passing", async () => {
    const r = await env.admin.request({ path: '/readyz?verbose' });
    assert.equal(r.status, 200, r.text);
    for (const check of [
      'autoregister-completion',
      'poststarthook/start-kube-aggregator-informers',
      'poststarthook/apiservice-registration-controller',
      'poststarthook/apiservice-status-available-controller',
      'poststarthook/kube-apiserver-autoregistration',
      'poststarthook/apiservice-wait-for-first-sync',
    ]) {
      assert.match(r.text, new RegExp(`^\\[\\+\\]${check} ok$`, 'm'), r.text);
    }
    const single = await env.admin.request({ path: '/readyz/autoregister-completion' });
    assert.deepEqual([single.status, single.text], [200, 'ok']);
  });

  test('a deleted built-in APIService comes back; a changed spec is put back', async () => {
    await apiServices().delete('v1.apiextensions.k8s.io');
    await availability(env.cs, 'v1.apiextensions.k8s.io', 'True', 'Local');
    const svc = await apiServices().get('v1beta1.wardle.example.com');
    await apiServices().update({ ...svc, spec: { ...svc.spec!, versionPriority: 3 } });
    await until('v1beta1.wardle.example.com back at priority 15', async () => ((await getAPIService(env.cs, 'v1beta1.wardle.example.com'))?.spec?.versionPriority === 15 ? true : undefined));
  });

  test('a CRD gets a local APIService per served version (1000/100), following its versions, removed with the CRD', async () => {
    const crds = env.cs.apiextensionsV1().customresourcedefinitions();
    await crds.create(crd([{ name: 'v1', served: true, storage: true }]));
    const v1 = await until('v1.registration.example.com', () => getAPIService(env.cs, `v1.${CRD_GROUP}`));
    assert.deepEqual(v1.spec, { group: CRD_GROUP, version: 'v1', groupPriorityMinimum: 1000, versionPriority: 100 });
    assert.equal(v1.metadata?.labels?.[AUTO_REGISTER_MANAGED_LABEL], 'true');
    await availability(env.cs, `v1.${CRD_GROUP}`, 'True', 'Local');

    // A second version, served; then v1 no longer served.
    let current = await crds.get(`widgets.${CRD_GROUP}`);
    await crds.update({
      ...current,
      spec: {
        ...current.spec,
        versions: crd([
          { name: 'v1', served: true, storage: true },
          { name: 'v2', served: true, storage: false },
        ]).spec.versions,
      },
    });
    await until('v2.registration.example.com', () => getAPIService(env.cs, `v2.${CRD_GROUP}`));
    current = await crds.get(`widgets.${CRD_GROUP}`);
    await crds.update({
      ...current,
      spec: {
        ...current.spec,
        versions: crd([
          { name: 'v1', served: false, storage: true },
          { name: 'v2', served: true, storage: false },
        ]).spec.versions,
      },
    });
    await absent(`v1.${CRD_GROUP}`);
    assert.ok(await getAPIService(env.cs, `v2.${CRD_GROUP}`));

    await crds.delete(`widgets.${CRD_GROUP}`);
    await absent(`v2.${CRD_GROUP}`);
  });

  test('an APIService pointing at a service keeps a built-in group version it took over; deleted, the local one returns', async () => {
    const name = 'v1alpha1.wardle.example.com';
    const svc = await apiServices().get(name);
    await apiServices().update({ ...svc, spec: { ...svc.spec!, service: { namespace: 'default', name: 'wardle', port: 443 }, insecureSkipTLSVerify: true } });
    // There is no such service: the remote availability controller says so, and nothing puts the local spec back.
    const c = await availability(env.cs, name, 'False', 'ServiceNotFound');
    assert.equal(c.message, 'service/wardle in "default" is not present');
    const after = await apiServices().get(name);
    assert.equal(after.spec?.service?.name, 'wardle');
    // The group version is now the service's: 503 while it is unavailable; v1beta1 stays local.
    const proxied = await env.admin.request({ path: '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders' });
    assert.equal(proxied.status, 503, proxied.text);
    const local = await env.admin.request({ path: '/apis/wardle.example.com/v1beta1/namespaces/default/flunders' });
    assert.equal(local.status, 200, local.text);

    await apiServices().delete(name);
    const back = await availability(env.cs, name, 'True', 'Local');
    assert.equal(back.reason, 'Local');
    assert.equal((await apiServices().get(name)).spec?.service, undefined);
    const served = await env.admin.request({ path: '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders' });
    assert.equal(served.status, 200, served.text);
  });
});
