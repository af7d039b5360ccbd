// The aggregator's discovery controller over the APIService registration (its registration
// controller and handler manager over the generated fake clientset, which holds APIService,
// Service and Endpoints objects as given, status included) and in-process HTTPS backends behind
// those Services: discovery ordered by APIService priorities, backends' aggregated discovery
// fetched once per backend with the front-proxy certificate and the caBundle, refreshed with
// ETags (304), the legacy fallback, Stale while a backend is down or its APIService
// unavailable, and group versions gone with their APIService.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { APIService } from '../../apis/apiregistration/v1/types.js';
import { apiGroups } from '../../generated/index.js';
import { wardleGroup } from '../../generated/registry/wardle.js';
import { AggregatedDiscoveryController } from '../../runtime/aggregator/discovery-controller.js';
import { AGGREGATED_DISCOVERY_ACCEPT } from '../../runtime/aggregator/discovery-fetch.js';
import type { PKI } from '../../runtime/controlplane/certs.js';
import { DiscoveryManager, discoveryFromGroupDefinition } from '../../runtime/server/discovery/index.js';
import { apiService, renamedGroup, serviceObjects, startBackend, startRegistration, testPKI, until, type APIServiceOptions, type Backend, type Registration } from './discovery-fixtures.js';

const REMOTE = 'wardle.backend.io';
const LEGACY = 'legacy.backend.io';

describe('aggregated discovery controller', () => {
  let dir: string;
  let pki: PKI;
  let remote: Backend;
  let legacy: Backend;
  let wardle: Backend;
  /** Service and Endpoints objects of every backend (`nowhere` has none). */
  let services: object[];
  const svc = (name: string, o: APIServiceOptions = {}): APIService => apiService(name, pki, { available: 'True', ...o });
  /** kube-aggregator's APIServices for the groups served in process, with kube-like priorities. */
  const locals = (): APIService[] => [
    apiService('v1.', pki, { groupPriorityMinimum: 18000, versionPriority: 1 }),
    apiService('v1.apiextensions.k8s.io', pki, { groupPriorityMinimum: 16700, versionPriority: 15 }),
    apiService('v1.apiregistration.k8s.io', pki, { groupPriorityMinimum: 18000, versionPriority: 15 }),
    apiService('v1.authentication.k8s.io', pki, { groupPriorityMinimum: 17700, versionPriority: 15 }),
    apiService('v1.authorization.k8s.io', pki, { groupPriorityMinimum: 17600, versionPriority: 15 }),
    apiService('v1.rbac.authorization.k8s.io', pki, { groupPriorityMinimum: 17000, versionPriority: 15 }),
    // Equal version priorities: kube's version order decides (v1beta1 before v1alpha1).
    apiService('v1alpha1.wardle.example.com', pki, { groupPriorityMinimum: 100, versionPriority: 15 }),
    apiService('v1beta1.wardle.example.com', pki, { groupPriorityMinimum: 100, versionPriority: 15 }),
  ];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aggregator-discovery-'));
    pki = await testPKI(dir);
    remote = await startBackend({ pki, group: renamedGroup(wardleGroup, REMOTE) });
    legacy = await startBackend({ pki, group: renamedGroup(wardleGroup, LEGACY), legacyOnly: true });
    wardle = await startBackend({ pki, group: wardleGroup });
    services = [...serviceObjects('remote', remote.port), ...serviceObjects('legacy', legacy.port), ...serviceObjects('wardle', wardle.port)];
  });
  after(async () => {
    await wardle.stop();
    await remote.stop();
    await legacy.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  interface Env {
    readonly cs: Registration['cs'];
    readonly manager: DiscoveryManager;
    readonly controller: AggregatedDiscoveryController;
    readonly errors: string[];
    close(): Promise<void>;
  }

  /** The local groups described as the control plane describes them, the controller running over the registration of `apiServices`. */
  async function startEnv(apiServices: APIService[]): Promise<Env> {
    const registration = await startRegistration(pki, [...apiServices, ...services]);
    const manager = new DiscoveryManager();
    manager.setGroupVersions(apiGroups.flatMap((def) => discoveryFromGroupDefinition(def)));
    const errors: string[] = [];
    const controller = new AggregatedDiscoveryController({
      apiServices: registration.registry,
      discovery: manager.forSource('aggregator'),
      priorities: manager,
      // Refreshes are triggered by the tests (resync()), never by the clock.
      resyncPeriodMs: 3_600_000,
      onError: (key, err) => errors.push(`${key}: ${err instanceof Error ? err.message : String(err)}`),
    });
    const stop = new AbortController();
    const running = controller.run(stop.signal);
    return {
      cs: registration.cs,
      manager,
      controller,
      errors,
      async close() {
        stop.abort();
        await running;
        await registration.close();
      },
    };
  }

  const groupNames = (m: DiscoveryManager): string[] => m.snapshot().groups.map((g) => g.name);
  const versionsOf = (m: DiscoveryManager, group: string): string[] =>
    m
      .snapshot()
      .group(group)
      ?.versions.map((v) => v.version) ?? [];
  const resourcesOf = (m: DiscoveryManager, group: string, version: string): string[] | undefined =>
    m
      .snapshot()
      .version(group, version)
      ?.resources.map((r) => r.name);
  const freshness = (m: DiscoveryManager, group: string, version: string): string | undefined => m.snapshot().version(group, version)?.freshness;

  it("orders /apis and aggregated discovery by APIService priorities: a groupPriorityMinimum of 20000 comes first after the aggregator's own group", async () => {
    const env = await startEnv([
      ...locals(),
      // Against kube's version order: versionPriority decides first.
      svc(`v1alpha1.${REMOTE}`, { service: 'remote', groupPriorityMinimum: 20000, versionPriority: 20 }),
      svc(`v1beta1.${REMOTE}`, { service: 'remote', groupPriorityMinimum: 100, versionPriority: 10 }),
      svc(`v1beta1.${LEGACY}`, { service: 'legacy', groupPriorityMinimum: 50, versionPriority: 1 }),
    ]);
    try {
      const published = (group: string, version: string): boolean => (resourcesOf(env.manager, group, version)?.length ?? 0) > 0;
      await until('backends published', () => (published(LEGACY, 'v1beta1') && published(REMOTE, 'v1alpha1') && published(REMOTE, 'v1beta1') ? true : undefined));
      assert.deepEqual(groupNames(env.manager), [
        'apiregistration.k8s.io',
        REMOTE,
        'events.k8s.io',
        'authentication.k8s.io',
        'authorization.k8s.io',
        'rbac.authorization.k8s.io',
        'apiextensions.k8s.io',
        'coordination.k8s.io',
        'wardle.example.com',
        LEGACY,
      ]);
      assert.deepEqual(versionsOf(env.manager, REMOTE), ['v1alpha1', 'v1beta1']);
      assert.deepEqual(versionsOf(env.manager, 'wardle.example.com'), ['v1beta1', 'v1alpha1']);

      const legacyList = JSON.parse(env.manager.snapshot().apiGroupList().body.toString()) as { groups: { name: string; preferredVersion: { version: string } }[] };
      assert.deepEqual(
        legacyList.groups.map((g) => g.name),
        groupNames(env.manager),
      );
      assert.equal(legacyList.groups[1]!.preferredVersion.version, 'v1alpha1');
      const aggregated = JSON.parse(env.manager.snapshot().aggregated('apis', 'v2').body.toString()) as { items: { metadata: { name: string }; versions: { version: string }[] }[] };
      assert.deepEqual(
        aggregated.items.map((i) => i.metadata.name),
        groupNames(env.manager),
      );
      assert.deepEqual(
        aggregated.items[1]!.versions.map((v) => v.version),
        ['v1alpha1', 'v1beta1'],
      );

      // A priority changed on the APIService moves the group.
      const moved = await env.cs.apiregistrationV1().apiservices().get(`v1beta1.${LEGACY}`);
      moved.spec!.groupPriorityMinimum = 19000;
      await env.cs.apiregistrationV1().apiservices().update(moved);
      await until('legacy group moved up', () => (groupNames(env.manager)[2] === LEGACY ? true : undefined));
      assert.deepEqual(groupNames(env.manager), [
        'apiregistration.k8s.io',
        REMOTE,
        LEGACY,
        'events.k8s.io',
        'authentication.k8s.io',
        'authorization.k8s.io',
        'rbac.authorization.k8s.io',
        'apiextensions.k8s.io',
        'coordination.k8s.io',
        'wardle.example.com',
      ]);
    } finally {
      await env.close();
    }
  });

  it("fetches a backend's aggregated discovery as the aggregator (front-proxy certificate, X-Remote-User) and publishes only the group version each APIService names", async () => {
    const seen = remote.requests.length;
    const env = await startEnv([svc(`v1alpha1.${REMOTE}`, { service: 'remote' })]);
    try {
      await until('v1alpha1 published', () => resourcesOf(env.manager, REMOTE, 'v1alpha1'));
      assert.deepEqual(resourcesOf(env.manager, REMOTE, 'v1alpha1'), ['fischers', 'flunders']);
      assert.equal(freshness(env.manager, REMOTE, 'v1alpha1'), 'Current');
      // The backend serves v1beta1 too, but no APIService names it.
      assert.deepEqual(versionsOf(env.manager, REMOTE), ['v1alpha1']);
      const fetched = remote.requests.slice(seen).filter((r) => r.path === '/apis');
      assert.ok(fetched.length >= 1);
      assert.equal(fetched[0]!.accept, AGGREGATED_DISCOVERY_ACCEPT);
      assert.equal(fetched[0]!.status, 200);
      assert.equal(fetched[0]!.user, 'system:kube-aggregator');
      assert.equal(fetched[0]!.clientCN, 'front-proxy-client');
      // Aggregated answers need no per-group-version request.
      assert.deepEqual(
        remote.requests.slice(seen).filter((r) => r.path.startsWith('/apis/')),
        [],
      );
      // The resources as the backend describes them.
      const flunders = env.manager
        .snapshot()
        .version(REMOTE, 'v1alpha1')!
        .resources.find((r) => r.name === 'flunders')!;
      const own = remote.discovery
        .snapshot()
        .version(REMOTE, 'v1alpha1')!
        .resources.find((r) => r.name === 'flunders')!;
      assert.equal(flunders.kind, own.kind);
      assert.deepEqual(flunders.verbs, own.verbs);
      assert.deepEqual(
        flunders.subresources?.map((s) => s.name),
        own.subresources?.map((s) => s.name),
      );
    } finally {
      await env.close();
    }
  });

  it('refreshes with If-None-Match: the backend answers 304 and the documents and ETags stay', async () => {
    const env = await startEnv([svc(`v1alpha1.${REMOTE}`, { service: 'remote' })]);
    try {
      await until('v1alpha1 published', () => resourcesOf(env.manager, REMOTE, 'v1alpha1'));
      const before = env.manager.snapshot();
      const seen = remote.requests.length;
      env.controller.resync();
      const conditional = await until('a conditional refresh', () => remote.requests.slice(seen).find((r) => r.path === '/apis'));
      assert.equal(conditional.status, 304);
      assert.equal(conditional.ifNoneMatch, remote.discovery.snapshot().aggregated('apis', 'v2').etag);
      assert.equal(env.manager.snapshot(), before);

      // A change on the backend: a new ETag, a 200, the new resources.
      remote.discovery.setGroupVersion(
        REMOTE,
        'v1alpha1',
        [...remote.discovery.snapshot().version(REMOTE, 'v1alpha1')!.resources, { name: 'widgets', singularName: 'widget', namespaced: false, kind: 'Widget', verbs: ['get', 'list'] }],
        {
          groupPriorityMinimum: 1000,
          versionPriority: 15,
        },
      );
      env.controller.resync();
      await until('widgets published', () => (resourcesOf(env.manager, REMOTE, 'v1alpha1')?.includes('widgets') ? true : undefined));
      assert.equal(
        env.manager
          .snapshot()
          .version(REMOTE, 'v1alpha1')!
          .resources.find((r) => r.name === 'widgets')!.namespaced,
        false,
      );
    } finally {
      remote.discovery.setGroupVersions(discoveryFromGroupDefinition(renamedGroup(wardleGroup, REMOTE)));
      await env.close();
    }
  });

  it('falls back to the legacy /apis/<group>/<version> document for a backend without aggregated discovery', async () => {
    const seen = legacy.requests.length;
    const env = await startEnv([svc(`v1beta1.${LEGACY}`, { service: 'legacy' })]);
    try {
      await until('v1beta1 published', () => resourcesOf(env.manager, LEGACY, 'v1beta1'));
      assert.deepEqual(resourcesOf(env.manager, LEGACY, 'v1beta1'), ['flunders']);
      assert.equal(freshness(env.manager, LEGACY, 'v1beta1'), 'Current');
      const paths = legacy.requests.slice(seen).map((r) => `${r.path} ${r.status}`);
      assert.deepEqual(paths.slice(0, 2), ['/apis 200', `/apis/${LEGACY}/v1beta1 200`]);
      // What the legacy document carried survives the conversion: the status subresource, the storage version hash.
      const ours = JSON.parse(env.manager.snapshot().apiResourceList(LEGACY, 'v1beta1')!.body.toString()) as unknown;
      const theirs = JSON.parse(legacy.discovery.snapshot().apiResourceList(LEGACY, 'v1beta1')!.body.toString()) as unknown;
      assert.deepEqual(ours, theirs);
    } finally {
      await env.close();
    }
  });

  it("marks a dead backend's group versions Stale with their last resources, and Current again once it is back", async () => {
    const env = await startEnv([
      svc(`v1alpha1.${REMOTE}`, { service: 'remote' }),
      svc(`v1beta1.${REMOTE}`, { service: 'remote', versionPriority: 10 }),
      // No Service, no Endpoints: never reached.
      svc('v1alpha1.nowhere.example.com', { service: 'nowhere' }),
    ]);
    try {
      await until('both published', () => (resourcesOf(env.manager, REMOTE, 'v1alpha1') && resourcesOf(env.manager, REMOTE, 'v1beta1') ? true : undefined));
      // A backend never reached: its group version is listed, without resources, Stale.
      await until('nowhere listed', () => freshness(env.manager, 'nowhere.example.com', 'v1alpha1'));
      assert.equal(freshness(env.manager, 'nowhere.example.com', 'v1alpha1'), 'Stale');
      assert.deepEqual(resourcesOf(env.manager, 'nowhere.example.com', 'v1alpha1'), []);

      await remote.stop();
      env.controller.resync();
      await until('Stale', () => (freshness(env.manager, REMOTE, 'v1alpha1') === 'Stale' && freshness(env.manager, REMOTE, 'v1beta1') === 'Stale' ? true : undefined));
      assert.deepEqual(resourcesOf(env.manager, REMOTE, 'v1alpha1'), ['fischers', 'flunders']);
      const doc = JSON.parse(env.manager.snapshot().aggregated('apis', 'v2').body.toString()) as {
        items: { metadata: { name: string }; versions: { version: string; freshness: string; resources?: unknown[] }[] }[];
      };
      const group = doc.items.find((i) => i.metadata.name === REMOTE)!;
      assert.deepEqual(
        group.versions.map((v) => [v.version, v.freshness, v.resources?.length]),
        [
          ['v1alpha1', 'Stale', 2],
          ['v1beta1', 'Stale', 1],
        ],
      );
      assert.ok(
        env.errors.some((e) => e.startsWith(`v1alpha1.${REMOTE}: Get "https://127.0.0.1:${remote.port}/apis"`)),
        env.errors.join('\n'),
      );

      await remote.start();
      env.controller.resync();
      await until('Current', () => (freshness(env.manager, REMOTE, 'v1alpha1') === 'Current' && freshness(env.manager, REMOTE, 'v1beta1') === 'Current' ? true : undefined));
    } finally {
      await env.close();
    }
  });

  it('keeps an Available=False APIService Stale without asking its backend; a deleted one leaves discovery, and a local group version it hid shows again', async () => {
    const env = await startEnv([
      ...locals().filter((s) => s.metadata!.name !== 'v1alpha1.wardle.example.com'),
      // A service-backed APIService takes over a group version also served in process.
      svc('v1alpha1.wardle.example.com', { service: 'wardle', groupPriorityMinimum: 100 }),
    ]);
    const original = wardle.discovery.snapshot().version('wardle.example.com', 'v1alpha1')!.resources;
    try {
      env.controller.resync();
      await until('remote wardle published', () => (wardle.requestsFor('/apis').length > 0 && freshness(env.manager, 'wardle.example.com', 'v1alpha1') === 'Current' ? true : undefined));
      // The backend's description wins over the one served in process.
      wardle.discovery.setGroupVersion('wardle.example.com', 'v1alpha1', [{ name: 'remotes', singularName: 'remote', namespaced: true, kind: 'Remote', verbs: ['get'] }], {
        groupPriorityMinimum: 1,
        versionPriority: 1,
      });
      env.controller.resync();
      await until('remote resources', () => (resourcesOf(env.manager, 'wardle.example.com', 'v1alpha1')?.[0] === 'remotes' ? true : undefined));

      const apis = env.cs.apiregistrationV1().apiservices();
      const current = await apis.get('v1alpha1.wardle.example.com');
      await apis.updateStatus({ ...current, status: { conditions: [{ type: 'Available', status: 'False', reason: 'FailedDiscoveryCheck', message: 'down' }] } });
      await until('Stale', () => (freshness(env.manager, 'wardle.example.com', 'v1alpha1') === 'Stale' ? true : undefined));
      const seen = wardle.requests.length;
      env.controller.resync();
      // Give the queue a turn; the stale entry must not be fetched.
      await until('resync processed', () => (freshness(env.manager, 'wardle.example.com', 'v1alpha1') === 'Stale' ? true : undefined));
      await new Promise((r) => setTimeout(r, 200));
      assert.equal(wardle.requests.length, seen);
      assert.deepEqual(resourcesOf(env.manager, 'wardle.example.com', 'v1alpha1'), ['remotes']);

      await apis.delete('v1alpha1.wardle.example.com');
      await until('local description back', () => (resourcesOf(env.manager, 'wardle.example.com', 'v1alpha1')?.includes('flunders') ? true : undefined));
      assert.equal(freshness(env.manager, 'wardle.example.com', 'v1alpha1'), 'Current');
    } finally {
      wardle.discovery.setGroupVersion('wardle.example.com', 'v1alpha1', original, { groupPriorityMinimum: 1000, versionPriority: 15 });
      await env.close();
    }
  });
});
