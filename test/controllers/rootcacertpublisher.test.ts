// kube's root-ca-cert-publisher (pkg/controller/certificates/rootcacertpublisher) on the generated
// fake clientset: TestConfigMapCreation and TestConfigMapUpdateNoHotLoop of publisher_test.go by
// name, then the controller running with its informers (the filtered ConfigMap informer, a new
// namespace, a Terminating one), and its bootstrap role.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ConfigMap, Namespace } from '../../apis/core/v1/types.js';
import { type FakeClientset, newSimpleClientset } from '../../generated/clientset/fake/index.js';
import { CONTROLLER_NAMES, bootstrapPolicy, controllerUser } from '../../runtime/authorization/rbac/bootstrap/index.js';
import { RBACAuthorizer } from '../../runtime/authorization/rbac/index.js';
import { newSharedInformerFactoryCore, StoreIndexer } from '../../runtime/client/index.js';
import type { Action } from '../../runtime/client/fake/index.js';
import { silentLogger } from '../../runtime/client/cache/index.js';
import { DESCRIPTION, DESCRIPTION_ANNOTATION, ROOT_CA_CERT_CONFIG_MAP_NAME, RootCACertPublisher } from '../../runtime/controllers/rootcacertpublisher/index.js';
import { attributesRecord, storeOf } from '../authorization/rbac/helpers.js';
import { until } from '../integration/assertions.js';

const NS_DEFAULT = 'default';

function defaultCrtConfigMap(rootCA: string): ConfigMap {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: ROOT_CA_CERT_CONFIG_MAP_NAME, namespace: NS_DEFAULT }, data: { 'ca.crt': rootCA } };
}

function namespace(name: string, phase: 'Active' | 'Terminating'): Namespace {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name }, status: { phase } };
}

/** A publisher writing through `client`, its informers over an empty clientset and not started: tests fill its ConfigMap cache by hand. */
function newPublisher(client: FakeClientset, rootCA: string, errors: unknown[] = []): { publisher: RootCACertPublisher; cmStore: StoreIndexer<ConfigMap> } {
  const informers = { factory: newSharedInformerFactoryCore({ tuning: { logger: silentLogger } }), rest: newSimpleClientset().fake };
  const publisher = new RootCACertPublisher({ rest: client.fake, informers, rootCA, onError: (_ns, err) => errors.push(err) });
  const cmStore = publisher.configMapInformer().informer().getIndexer();
  assert.ok(cmStore instanceof StoreIndexer);
  return { publisher, cmStore: cmStore as StoreIndexer<ConfigMap> };
}

/** What a write action wrote: its verb and the object's name (kube's test compares these). */
function written(actions: readonly Action[]): { verb: string; name: string | undefined }[] {
  return actions.map((a) => ({ verb: a.verb, name: a.verb === 'create' || a.verb === 'update' ? (a.object as ConfigMap).metadata?.name : a.name }));
}

describe('TestConfigMapCreation', () => {
  const fakeRootCA = 'fake-root-ca';
  const caConfigMap = defaultCrtConfigMap(fakeRootCA);
  const addFieldCM = defaultCrtConfigMap(fakeRootCA);
  addFieldCM.data = { ...addFieldCM.data, test: 'test' };
  const modifyFieldCM = defaultCrtConfigMap('abc');
  const otherConfigMap: ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other', namespace: NS_DEFAULT, resourceVersion: '1' } };
  const updateOtherConfigMap: ConfigMap = { ...otherConfigMap, data: { aa: 'bb' } };
  const existNS = namespace(NS_DEFAULT, 'Active');
  const newNs = namespace('new', 'Active');
  const terminatingNS = namespace(NS_DEFAULT, 'Terminating');

  interface Case {
    existingConfigMaps?: ConfigMap[];
    addedNamespace?: Namespace;
    updatedNamespace?: Namespace;
    deletedConfigMap?: ConfigMap;
    updatedConfigMap?: ConfigMap;
    expectActions?: { verb: string; name: string }[];
  }
  const create = [{ verb: 'create', name: ROOT_CA_CERT_CONFIG_MAP_NAME }];
  const update = [{ verb: 'update', name: ROOT_CA_CERT_CONFIG_MAP_NAME }];
  const cases: Record<string, Case> = {
    'create new namespace': { addedNamespace: newNs, expectActions: create },
    'delete other configmap': { existingConfigMaps: [otherConfigMap, caConfigMap], deletedConfigMap: otherConfigMap },
    'delete ca configmap': { existingConfigMaps: [otherConfigMap, caConfigMap], deletedConfigMap: caConfigMap, expectActions: create },
    'update ca configmap with adding field': { existingConfigMaps: [caConfigMap], updatedConfigMap: addFieldCM, expectActions: update },
    'update ca configmap with modifying field': { existingConfigMaps: [caConfigMap], updatedConfigMap: modifyFieldCM, expectActions: update },
    'update with other configmap': { existingConfigMaps: [caConfigMap, otherConfigMap], updatedConfigMap: updateOtherConfigMap },
    'update namespace with terminating state': { updatedNamespace: terminatingNS },
  };

  for (const [name, tc] of Object.entries(cases)) {
    test(name, async () => {
      const client = newSimpleClientset(caConfigMap, existNS);
      const { publisher, cmStore } = newPublisher(client, fakeRootCA);
      try {
        for (const cm of tc.existingConfigMaps ?? []) cmStore.add(cm);
        if (tc.addedNamespace !== undefined) publisher.namespaceAdded(tc.addedNamespace);
        if (tc.updatedNamespace !== undefined) publisher.namespaceUpdated(tc.updatedNamespace);
        if (tc.deletedConfigMap !== undefined) {
          cmStore.delete(tc.deletedConfigMap);
          publisher.configMapDeleted(tc.deletedConfigMap);
        }
        if (tc.updatedConfigMap !== undefined) {
          cmStore.add(tc.updatedConfigMap);
          publisher.configMapUpdated(tc.updatedConfigMap);
        }
        while (publisher.queueLength() !== 0) await publisher.processNextWorkItem();
        // kube's comparison is inverted (it fails only when the actions equal the expected ones); this one holds.
        assert.deepEqual(written(client.fake.actions()), tc.expectActions ?? []);
      } finally {
        await publisher.stop();
      }
    });
  }

  test('the created and updated ConfigMaps carry the bundle and the description', async () => {
    const client = newSimpleClientset(caConfigMap, existNS, newNs);
    const errors: unknown[] = [];
    const { publisher, cmStore } = newPublisher(client, fakeRootCA, errors);
    try {
      publisher.namespaceAdded(newNs);
      cmStore.add({ ...modifyFieldCM, metadata: { ...modifyFieldCM.metadata, annotations: { keep: 'me' } } });
      publisher.configMapUpdated(modifyFieldCM);
      while (publisher.queueLength() !== 0) await publisher.processNextWorkItem();
      assert.deepEqual(errors, []);
      const created = await client.coreV1().configmaps('new').get(ROOT_CA_CERT_CONFIG_MAP_NAME);
      assert.deepEqual(created.data, { 'ca.crt': fakeRootCA });
      assert.deepEqual(created.metadata?.annotations, { [DESCRIPTION_ANNOTATION]: DESCRIPTION });
      const updated = await client.coreV1().configmaps(NS_DEFAULT).get(ROOT_CA_CERT_CONFIG_MAP_NAME);
      assert.deepEqual(updated.data, { 'ca.crt': fakeRootCA });
      assert.deepEqual(updated.metadata?.annotations, { keep: 'me', [DESCRIPTION_ANNOTATION]: DESCRIPTION });
    } finally {
      await publisher.stop();
    }
  });
});

describe('TestConfigMapUpdateNoHotLoop', () => {
  const existing = (annotations?: Record<string, string>): ConfigMap => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { namespace: NS_DEFAULT, name: ROOT_CA_CERT_CONFIG_MAP_NAME, ...(annotations !== undefined ? { annotations } : {}) },
    data: { 'ca.crt': 'fake' },
  });
  const cases: Record<string, { existing: ConfigMap; expectActions: (actions: readonly Action[]) => void }> = {
    'update-configmap-annotation': {
      existing: existing(),
      expectActions: (actions) => {
        assert.equal(actions.length, 1, JSON.stringify(actions));
        const action = actions[0];
        assert.equal(action?.verb, 'update');
        const obj = (action as Extract<Action, { verb: 'update' }>).object as ConfigMap;
        assert.equal(obj.metadata?.annotations?.[DESCRIPTION_ANNOTATION], DESCRIPTION);
        assert.equal(obj.data?.['ca.crt'], 'fake');
      },
    },
    'no-update-configmap-if-annotation-present-and-equal': { existing: existing({ [DESCRIPTION_ANNOTATION]: DESCRIPTION }), expectActions: (actions) => assert.deepEqual(actions, []) },
    'no-update-configmap-if-annotation-present-and-different': { existing: existing({ [DESCRIPTION_ANNOTATION]: 'different' }), expectActions: (actions) => assert.deepEqual(actions, []) },
  };
  for (const [name, tc] of Object.entries(cases)) {
    test(name, async () => {
      const client = newSimpleClientset(tc.existing);
      const { publisher, cmStore } = newPublisher(client, 'fake');
      try {
        cmStore.add(tc.existing);
        await publisher.syncNamespace(NS_DEFAULT);
        tc.expectActions(client.fake.actions());
      } finally {
        await publisher.stop();
      }
    });
  }
});

describe('hostile content of kube-root-ca.crt', () => {
  test('a `__proto__` key beside ca.crt is data: the ConfigMap is rewritten to the bundle alone', async () => {
    const data = JSON.parse('{"ca.crt":"fake","__proto__":"x"}') as Record<string, string>;
    const cm: ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: NS_DEFAULT, name: ROOT_CA_CERT_CONFIG_MAP_NAME, annotations: { [DESCRIPTION_ANNOTATION]: 'set' } }, data };
    const client = newSimpleClientset(cm);
    const { publisher, cmStore } = newPublisher(client, 'fake');
    try {
      cmStore.add(cm);
      await publisher.syncNamespace(NS_DEFAULT);
      const [action] = client.fake.actions();
      assert.equal(action?.verb, 'update');
      const sent = (action as Extract<Action, { verb: 'update' }>).object as ConfigMap;
      assert.deepEqual(Object.keys(sent.data ?? {}), ['ca.crt']);
      // an update writes kube's description over another one
      assert.equal(sent.metadata?.annotations?.[DESCRIPTION_ANNOTATION], DESCRIPTION);
      assert.equal(Object.getPrototypeOf(sent.data), Object.prototype);
      assert.deepEqual((await client.coreV1().configmaps(NS_DEFAULT).get(ROOT_CA_CERT_CONFIG_MAP_NAME)).data, { 'ca.crt': 'fake' });
    } finally {
      await publisher.stop();
    }
  });
});

describe('the publisher running over its informers', () => {
  test('lists and watches kube-root-ca.crt only; publishes into existing and new namespaces', async () => {
    const client = newSimpleClientset(namespace('a', 'Active'), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'other', namespace: 'a' },
      data: { x: 'y' },
    });
    const factory = newSharedInformerFactoryCore({ tuning: { logger: silentLogger } });
    const errors: unknown[] = [];
    const publisher = new RootCACertPublisher({ rest: client.fake, informers: { factory, rest: client.fake }, rootCA: 'bundle', onError: (_ns, err) => errors.push(err) });
    publisher.start();
    factory.start();
    try {
      const cms = client.coreV1().configmaps('a');
      await until('kube-root-ca.crt in a', () => cms.get(ROOT_CA_CERT_CONFIG_MAP_NAME).catch(() => undefined));
      const cmLists = client.fake.actions().filter((a) => (a.verb === 'list' || a.verb === 'watch') && a.resource.resource === 'configmaps');
      assert.ok(cmLists.length > 0);
      for (const a of cmLists) assert.equal((a as Extract<Action, { verb: 'list' }>).listOptions.fieldSelector, `metadata.name=${ROOT_CA_CERT_CONFIG_MAP_NAME}`);
      await until('the informer holds kube-root-ca.crt', () => publisher.configMapInformer().lister().list().length === 1 || undefined);
      assert.deepEqual(
        publisher
          .configMapInformer()
          .lister()
          .list()
          .map((cm) => cm.metadata?.name),
        [ROOT_CA_CERT_CONFIG_MAP_NAME],
      );

      await client
        .coreV1()
        .namespaces()
        .create({ metadata: { name: 'b' } });
      const b = await until('kube-root-ca.crt in b', () =>
        client
          .coreV1()
          .configmaps('b')
          .get(ROOT_CA_CERT_CONFIG_MAP_NAME)
          .catch(() => undefined),
      );
      assert.deepEqual(b.data, { 'ca.crt': 'bundle' });
      // (Terminating namespaces need the server's NamespaceLifecycle: test/integration/root-ca-configmap.test.ts.)
      assert.deepEqual(errors, []);
    } finally {
      await publisher.stop();
      await factory.shutdown();
    }
  });
});

describe('bootstrap policy of root-ca-cert-publisher', () => {
  test("kube's role (create and update configmaps, record events), bound to kube-system/root-ca-cert-publisher", () => {
    const policy = bootstrapPolicy();
    const role = policy.clusterRoles.find((r) => r.metadata?.name === 'system:controller:root-ca-cert-publisher');
    assert.deepEqual(role?.rules, [
      { verbs: ['create', 'update'], apiGroups: [''], resources: ['configmaps'] },
      { verbs: ['create', 'patch', 'update'], apiGroups: ['', 'events.k8s.io'], resources: ['events'] },
    ]);
    const binding = policy.clusterRoleBindings.find((b) => b.metadata?.name === 'system:controller:root-ca-cert-publisher');
    assert.deepEqual(binding?.subjects, [{ kind: 'ServiceAccount', name: 'root-ca-cert-publisher', namespace: 'kube-system' }]);
    const authorizer = new RBACAuthorizer(storeOf({ clusterRoles: [...policy.clusterRoles], clusterRoleBindings: [...policy.clusterRoleBindings] }));
    const user = controllerUser(CONTROLLER_NAMES.rootCACertPublisher);
    assert.equal(user.name, 'system:serviceaccount:kube-system:root-ca-cert-publisher');
    const can = (verb: string) => authorizer.authorizeSync(attributesRecord({ user, verb, isResourceRequest: true, namespace: 'x', apiVersion: 'v1', resource: 'configmaps' })).decision;
    assert.equal(can('create'), 'allow');
    assert.equal(can('update'), 'allow');
    assert.notEqual(can('delete'), 'allow');
  });
});
