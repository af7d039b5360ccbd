import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { coreGroup } from '../../generated/registry/core.js';
import { isNotFound } from '../../runtime/apimachinery/errors/index.js';
import { systemContext } from '../../runtime/controlplane/loopback.js';
import { NamespaceController } from '../../runtime/controllers/namespace/controller.js';
import { NamespaceStorage } from '../../runtime/controlplane/namespace/rest.js';
import type { KubeObject } from '../../runtime/registry/rest.js';
import { allow, ctx, deleteOpts, flunder, newEnv, statusIs, wardleGroup, write, type Env } from '../registry/helpers.js';

const ns = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

describe('namespace storage and controller (real SQLite storage)', () => {
  let env: Env;
  let namespaces: NamespaceStorage;
  before(async () => {
    env = await newEnv();
    namespaces = new NamespaceStorage(await env.storages(coreGroup, 'Namespace'), await env.raw('', 'namespaces'), env.clock.now);
  });
  after(() => env.close());

  test('a new namespace is Active and carries the kubernetes finalizer', async () => {
    const created = (await namespaces.storages.main.create(ctx(''), ns('a'), allow, write)) as { spec?: { finalizers?: string[] }; status?: { phase?: string } };
    assert.deepEqual(created.spec?.finalizers, ['kubernetes']);
    assert.equal(created.status?.phase, 'Active');
  });

  test('delete checks preconditions with the generic store wording', async () => {
    await namespaces.storages.main.create(ctx(''), ns('pre'), allow, write);
    await assert.rejects(
      namespaces.storages.main.delete(ctx(''), 'pre', allow, { ...deleteOpts, preconditions: { resourceVersion: '1' } }),
      statusIs(
        409,
        'Operation cannot be fulfilled on Namespace "pre": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (3). The object might have been modified',
        'Conflict',
      ),
    );
  });

  test('delete marks Terminating; a second delete while content remains is a Conflict', async () => {
    await namespaces.storages.main.create(ctx(''), ns('t'), allow, write);
    const first = await namespaces.storages.main.delete(ctx(''), 't', allow, deleteOpts);
    assert.equal(first.deleted, false);
    const meta = first.object.metadata as { deletionTimestamp?: string };
    assert.equal(meta.deletionTimestamp, '2024-05-01T10:00:00Z');
    assert.equal((first.object.status as { phase?: string }).phase, 'Terminating');
    await assert.rejects(
      namespaces.storages.main.delete(ctx(''), 't', allow, deleteOpts),
      statusIs(
        409,
        'Operation cannot be fulfilled on namespaces "t": The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.',
        'Conflict',
      ),
    );
  });

  test('the controller deletes the content, waits for finalizers, then the namespace', async () => {
    const flunders = (await env.storages(wardleGroup, 'Flunder')).main;
    await namespaces.storages.main.create(ctx(''), ns('gone'), allow, write);
    await flunders.create(ctx('gone'), flunder('plain'), allow, write);
    await flunders.create(ctx('gone'), flunder('held', {}, { finalizers: ['x.io/hold'] }), allow, write);
    const controller = new NamespaceController({
      namespaces,
      resources: () => [{ group: 'wardle.example.com', resource: 'flunders', storage: flunders }],
      context: systemContext,
      maxBackoffMs: 200,
    });
    controller.start();
    try {
      await namespaces.storages.main.delete(ctx(''), 'gone', allow, deleteOpts);
      await eventually(async () => assert.ok(isNotFound(await flunders.get(ctx('gone'), 'plain', { resourceVersion: '' }).catch((e: unknown) => e))));
      // The held flunder keeps the namespace alive.
      const held = await flunders.get(ctx('gone'), 'held', { resourceVersion: '' });
      assert.ok(held.metadata?.['deletionTimestamp']);
      await namespaces.storages.main.get(ctx(''), 'gone', { resourceVersion: '' });
      await flunders.update(
        ctx('gone'),
        'held',
        { preconditions: () => undefined, updatedObject: async (_c, old) => ({ ...old!, metadata: { ...old!.metadata, finalizers: [] } }) },
        { create: allow, update: allow },
        { ...write, forceAllowCreate: false },
      );
      await eventually(async () => assert.ok(isNotFound(await namespaces.storages.main.get(ctx(''), 'gone', { resourceVersion: '' }).catch((e: unknown) => e))));
    } finally {
      await controller.stop();
    }
  });
});

async function eventually(check: () => Promise<void>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
