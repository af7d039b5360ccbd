// The namespace controller's deletion conditions (kube's status_condition_utils.go): what a
// namespace stuck in Terminating says about itself, over real SQLite storage.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { NamespaceCondition } from '../../apis/core/v1/types.js';
import { coreGroup } from '../../generated/registry/core.js';
import { isNotFound } from '../../runtime/apimachinery/errors/index.js';
import { systemContext } from '../../runtime/controlplane/loopback.js';
import { deletionConditions, mergeConditions } from '../../runtime/controllers/namespace/conditions.js';
import { NamespaceController } from '../../runtime/controllers/namespace/controller.js';
import { NamespaceStorage } from '../../runtime/controlplane/namespace/rest.js';
import type { KubeObject, StandardStorage } from '../../runtime/registry/rest.js';
import { until } from '../integration/assertions.js';
import { allow, ctx, deleteOpts, flunder, newEnv, wardleGroup, write, type Env } from '../registry/helpers.js';

const ns = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
const conditionsOf = (o: KubeObject): NamespaceCondition[] => (o.status as { conditions?: NamespaceCondition[] } | undefined)?.conditions ?? [];
const summary = (cs: readonly NamespaceCondition[]): string[] => cs.map((c) => `${c.type} ${c.status} ${c.reason}: ${c.message}`);

describe('namespace deletion conditions', () => {
  test('all clear: every type False with kube reason and message, in kube order', () => {
    const next = deletionConditions({ discoveryFailures: [], contentErrors: [], remaining: new Map(), finalizers: new Map() });
    assert.deepEqual(summary(mergeConditions([], next, '2024-05-01T10:00:00Z') ?? []), [
      'NamespaceDeletionDiscoveryFailure False ResourcesDiscovered: All resources successfully discovered',
      'NamespaceDeletionGroupVersionParsingFailure False ParsedGroupVersions: All legacy kube types successfully parsed',
      'NamespaceDeletionContentFailure False ContentDeleted: All content successfully deleted, may be waiting on finalization',
      'NamespaceContentRemaining False ContentRemoved: All content successfully removed',
      'NamespaceFinalizersRemaining False ContentHasNoFinalizers: All content-preserving finalizers finished',
    ]);
  });

  test('failures and leftovers: True with kube reasons, counts sorted; lastTransitionTime moves only with status', () => {
    const failing = deletionConditions({
      discoveryFailures: ['wardle.example.com/v1alpha1: stale GroupVersion discovery: wardle.example.com/v1alpha1'],
      contentErrors: ['b failed', 'a failed'],
      remaining: new Map([
        ['flunders.wardle.example.com', 2],
        ['services.', 1],
        ['fischers.wardle.example.com', 0],
      ]),
      finalizers: new Map([
        ['example.com/x', 1],
        ['a.io/y', 2],
      ]),
    });
    const first = mergeConditions([], failing, '2024-05-01T10:00:00Z') ?? [];
    assert.deepEqual(summary(first), [
      'NamespaceDeletionDiscoveryFailure True DiscoveryFailed: Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: wardle.example.com/v1alpha1: stale GroupVersion discovery: wardle.example.com/v1alpha1',
      'NamespaceDeletionGroupVersionParsingFailure False ParsedGroupVersions: All legacy kube types successfully parsed',
      'NamespaceDeletionContentFailure True ContentDeletionFailed: Failed to delete all resource types, 2 remaining: a failed, b failed',
      'NamespaceContentRemaining True SomeResourcesRemain: Some resources are remaining: flunders.wardle.example.com has 2 resource instances, services. has 1 resource instances',
      'NamespaceFinalizersRemaining True SomeFinalizersRemain: Some content in the namespace has finalizers remaining: a.io/y in 2 resource instances, example.com/x in 1 resource instances',
    ]);
    assert.equal(mergeConditions(first, failing, '2024-05-01T10:05:00Z'), undefined, 'no change, no write');
    const lessLeft = deletionConditions({ discoveryFailures: [], contentErrors: [], remaining: new Map([['flunders.wardle.example.com', 1]]), finalizers: new Map([['a.io/y', 1]]) });
    const second = mergeConditions(first, lessLeft, '2024-05-01T10:05:00Z') ?? [];
    const at = (type: string): NamespaceCondition | undefined => second.find((c) => c.type === type);
    assert.equal(at('NamespaceDeletionDiscoveryFailure')?.lastTransitionTime, '2024-05-01T10:05:00Z', 'True → False moves the time');
    assert.equal(at('NamespaceContentRemaining')?.lastTransitionTime, '2024-05-01T10:00:00Z', 'a new message with the same status keeps the time');
    assert.equal(at('NamespaceContentRemaining')?.message, 'Some resources are remaining: flunders.wardle.example.com has 1 resource instances');
  });

  describe('the controller writes them to a namespace held by a finalizer (real SQLite storage)', () => {
    let env: Env;
    let namespaces: NamespaceStorage;
    let flunders: StandardStorage;
    before(async () => {
      env = await newEnv();
      namespaces = new NamespaceStorage(await env.storages(coreGroup, 'Namespace'), await env.raw('', 'namespaces'), env.clock.now);
      flunders = (await env.storages(wardleGroup, 'Flunder')).main;
    });
    after(() => env.close());

    test('Terminating with content held by example.com/x: ContentRemaining and FinalizersRemaining True; cleared when the finalizer goes', async () => {
      await namespaces.storages.main.create(ctx(''), ns('stuck'), allow, write);
      await flunders.create(ctx('stuck'), flunder('held', {}, { finalizers: ['example.com/x'] }), allow, write);
      await flunders.create(ctx('stuck'), flunder('plain'), allow, write);
      const controller = new NamespaceController({
        namespaces,
        resources: () => [{ group: 'wardle.example.com', resource: 'flunders', storage: flunders }],
        context: systemContext,
        now: env.clock.now,
        maxBackoffMs: 200,
      });
      controller.start();
      try {
        await namespaces.storages.main.delete(ctx(''), 'stuck', allow, deleteOpts);
        const stuck = await until('the ContentRemaining condition', async () => {
          const got = await namespaces.storages.main.get(ctx(''), 'stuck', { resourceVersion: '' });
          const remaining = conditionsOf(got).find((c) => c.type === 'NamespaceContentRemaining');
          assert.equal(remaining?.status, 'True');
          return got;
        });
        assert.deepEqual(summary(conditionsOf(stuck)), [
          'NamespaceDeletionDiscoveryFailure False ResourcesDiscovered: All resources successfully discovered',
          'NamespaceDeletionGroupVersionParsingFailure False ParsedGroupVersions: All legacy kube types successfully parsed',
          'NamespaceDeletionContentFailure False ContentDeleted: All content successfully deleted, may be waiting on finalization',
          'NamespaceContentRemaining True SomeResourcesRemain: Some resources are remaining: flunders.wardle.example.com has 1 resource instances',
          'NamespaceFinalizersRemaining True SomeFinalizersRemain: Some content in the namespace has finalizers remaining: example.com/x in 1 resource instances',
        ]);
        assert.ok(conditionsOf(stuck).every((c) => c.lastTransitionTime === '2024-05-01T10:00:00Z'));
        assert.equal((stuck.status as { phase?: string }).phase, 'Terminating');
        await flunders.update(
          ctx('stuck'),
          'held',
          { preconditions: () => undefined, updatedObject: async (_c, old) => ({ ...old!, metadata: { ...old!.metadata, finalizers: [] } }) },
          { create: allow, update: allow },
          { ...write, forceAllowCreate: false },
        );
        await until('the namespace to go', async () => (isNotFound(await namespaces.storages.main.get(ctx(''), 'stuck', { resourceVersion: '' }).catch((e: unknown) => e)) ? true : undefined));
      } finally {
        await controller.stop();
      }
    });

    test('a resource whose content cannot be deleted: ContentFailure True with the error, other resources still deleted', async () => {
      await namespaces.storages.main.create(ctx(''), ns('broken'), allow, write);
      await flunders.create(ctx('broken'), flunder('x'), allow, write);
      const failing: StandardStorage = { ...flunders, deleteCollection: async () => Promise.reject(new Error('the server is currently unable to handle the request')) };
      const controller = new NamespaceController({
        namespaces,
        resources: () => [
          { group: 'example.com', resource: 'widgets', storage: failing },
          { group: 'wardle.example.com', resource: 'flunders', storage: flunders },
        ],
        context: systemContext,
        now: env.clock.now,
        maxBackoffMs: 200,
      });
      controller.start();
      try {
        await namespaces.storages.main.delete(ctx(''), 'broken', allow, deleteOpts);
        await until('the ContentFailure condition', async () => {
          const got = await namespaces.storages.main.get(ctx(''), 'broken', { resourceVersion: '' });
          const failure = conditionsOf(got).find((c) => c.type === 'NamespaceDeletionContentFailure');
          assert.equal(failure?.status, 'True');
          assert.equal(failure?.reason, 'ContentDeletionFailed');
          assert.equal(failure?.message, 'Failed to delete all resource types, 1 remaining: the server is currently unable to handle the request');
          assert.ok(isNotFound(await flunders.get(ctx('broken'), 'x', { resourceVersion: '' }).catch((e: unknown) => e)));
          return true;
        });
      } finally {
        await controller.stop();
      }
    });
  });
});
