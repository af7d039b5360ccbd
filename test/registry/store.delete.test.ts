import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { allow, allowBoth, ctx, deleteOpts, dryRun, flunder, listOpts, newEnv, nextEvent, noEvent, patch, statusIs, wardleGroup, write, type Env } from './helpers.js';

const update = { ...write, forceAllowCreate: false };

describe('generic Store: delete', () => {
  let env: Env;
  before(async () => {
    env = await newEnv();
  });
  after(async () => {
    await env.close();
  });

  test('without finalizers the object is removed and returned (deleted: true); then 404', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    const created = await main.create(ctx('d1'), flunder('a'), allow, write);
    const r = await main.delete(ctx('d1'), 'a', allow, deleteOpts);
    assert.equal(r.deleted, true);
    assert.equal(r.object.metadata?.uid, created.metadata?.uid);
    assert.equal(r.object.apiVersion, 'wardle.example.com/v1beta1');
    await assert.rejects(main.delete(ctx('d1'), 'a', allow, deleteOpts), statusIs(404, 'flunders.wardle.example.com "a" not found', 'NotFound'));
  });

  test('finalizers keep the object with deletionTimestamp; the last finalizer removal deletes it (DELETED event)', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    const created = await main.create(ctx('d2'), flunder('f', {}, { finalizers: ['example.com/a', 'example.com/b'] }), allow, write);
    const w = await main.watch(ctx('d2'), listOpts({ resourceVersion: String(created.metadata?.resourceVersion) }));
    env.clock.advance(30);
    const r = await main.delete(ctx('d2'), 'f', allow, deleteOpts);
    assert.equal(r.deleted, false);
    assert.equal(r.object.metadata?.deletionTimestamp, '2024-05-01T10:00:30Z');
    assert.equal(r.object.metadata?.deletionGracePeriodSeconds, 0);
    assert.equal(r.object.metadata?.generation, 2);
    const modified = await nextEvent(w);
    assert.equal(modified.type, 'MODIFIED');

    // A second delete changes nothing.
    env.clock.advance(30);
    const again = await main.delete(ctx('d2'), 'f', allow, deleteOpts);
    assert.equal(again.deleted, false);
    assert.equal(again.object.metadata?.resourceVersion, r.object.metadata?.resourceVersion);
    assert.equal(again.object.metadata?.deletionTimestamp, '2024-05-01T10:00:30Z');
    assert.equal(await noEvent(w), undefined);

    // New finalizers are refused while deleting.
    await assert.rejects(
      main.update(
        ctx('d2'),
        'f',
        patch((o) => ({ ...o, metadata: { ...o.metadata, finalizers: ['example.com/a', 'example.com/b', 'example.com/c', 'example.com/0'] } })),
        allowBoth,
        update,
      ),
      statusIs(
        422,
        'Flunder.wardle.example.com "f" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/0", "example.com/c"}',
        'Invalid',
      ),
    );
    // Removing one finalizer updates; removing the last deletes.
    const one = await main.update(
      ctx('d2'),
      'f',
      patch((o) => ({ ...o, metadata: { ...o.metadata, finalizers: ['example.com/b'] } })),
      allowBoth,
      update,
    );
    assert.deepEqual(one.object.metadata?.finalizers, ['example.com/b']);
    assert.equal((await nextEvent(w)).type, 'MODIFIED');
    const last = await main.update(
      ctx('d2'),
      'f',
      patch((o) => ({ ...o, metadata: { ...o.metadata, finalizers: [] } })),
      allowBoth,
      update,
    );
    assert.equal(last.created, false);
    assert.equal(last.object.metadata?.name, 'f');
    const deleted = await nextEvent(w);
    assert.equal(deleted.type, 'DELETED');
    assert.equal(deleted.type === 'DELETED' ? deleted.object.apiVersion : '', 'wardle.example.com/v1beta1');
    await assert.rejects(main.get(ctx('d2'), 'f', { resourceVersion: '' }), statusIs(404, 'flunders.wardle.example.com "f" not found'));
    w.stop();
  });

  test('propagationPolicy Foreground and Orphan add the garbage collector finalizers; Background adds none', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    await main.create(ctx('d3'), flunder('fg'), allow, write);
    const fg = await main.delete(ctx('d3'), 'fg', allow, { ...deleteOpts, propagationPolicy: 'Foreground' });
    assert.equal(fg.deleted, false);
    assert.deepEqual(fg.object.metadata?.finalizers, ['foregroundDeletion']);
    assert.ok(fg.object.metadata?.deletionTimestamp);
    await main.create(ctx('d3'), flunder('or'), allow, write);
    const or = await main.delete(ctx('d3'), 'or', allow, { ...deleteOpts, orphanDependents: true });
    assert.deepEqual(or.object.metadata?.finalizers, ['orphan']);
    await main.create(ctx('d3'), flunder('bg'), allow, write);
    assert.equal((await main.delete(ctx('d3'), 'bg', allow, { ...deleteOpts, propagationPolicy: 'Background', gracePeriodSeconds: 30 })).deleted, true);
  });

  test('preconditions: uid and resourceVersion mismatches are 409 with kube wording', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    const created = await main.create(ctx('d4'), flunder('p'), allow, write);
    const uid = String(created.metadata?.uid);
    const rv = String(created.metadata?.resourceVersion);
    await assert.rejects(
      main.delete(ctx('d4'), 'p', allow, { ...deleteOpts, preconditions: { uid: 'other' } }),
      statusIs(
        409,
        `Operation cannot be fulfilled on Flunder.wardle.example.com "p": the UID in the precondition (other) does not match the UID in record (${uid}). The object might have been deleted and then recreated`,
        'Conflict',
      ),
    );
    await assert.rejects(
      main.delete(ctx('d4'), 'p', allow, { ...deleteOpts, preconditions: { resourceVersion: '1' } }),
      statusIs(
        409,
        `Operation cannot be fulfilled on Flunder.wardle.example.com "p": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${rv}). The object might have been modified`,
        'Conflict',
      ),
    );
    assert.equal((await main.delete(ctx('d4'), 'p', allow, { ...deleteOpts, preconditions: { uid, resourceVersion: rv } })).deleted, true);
  });

  test('the delete validate callback sees the object and can veto', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    await main.create(ctx('d5'), flunder('v'), allow, write);
    await assert.rejects(
      main.delete(
        ctx('d5'),
        'v',
        async (obj) => {
          throw new Error(`no deleting ${String(obj.metadata?.name)}`);
        },
        deleteOpts,
      ),
      /no deleting v/,
    );
    assert.ok(await main.get(ctx('d5'), 'v', { resourceVersion: '' }));
  });

  test('dry run: checks run, nothing is written, result shaped as if deleted', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    const a = await main.create(ctx('d6'), flunder('a'), allow, write);
    const b = await main.create(ctx('d6'), flunder('b', {}, { finalizers: ['example.com/x'] }), allow, write);
    const w = await main.watch(ctx('d6'), listOpts({ resourceVersion: String(b.metadata?.resourceVersion) }));
    const ra = await main.delete(ctx('d6'), 'a', allow, { ...deleteOpts, dryRun: true });
    assert.equal(ra.deleted, true);
    assert.deepEqual(ra.object, a);
    const rb = await main.delete(ctx('d6'), 'b', allow, { ...deleteOpts, dryRun: true });
    assert.equal(rb.deleted, false);
    assert.ok(rb.object.metadata?.deletionTimestamp);
    await assert.rejects(main.delete(ctx('d6'), 'a', allow, { ...deleteOpts, dryRun: true, preconditions: { uid: 'x' } }), (e: unknown) => (e as { code: number }).code === 409);
    assert.deepEqual(await main.get(ctx('d6'), 'a', { resourceVersion: '' }), a);
    assert.deepEqual(await main.get(ctx('d6'), 'b', { resourceVersion: '' }), b);
    // Removing the last finalizer in a dry run deletes nothing either.
    await main.delete(ctx('d6'), 'b', allow, deleteOpts);
    assert.equal((await nextEvent(w)).type, 'MODIFIED');
    await main.update(
      ctx('d6'),
      'b',
      patch((o) => ({ ...o, metadata: { ...o.metadata, finalizers: [] } })),
      allowBoth,
      { ...dryRun, forceAllowCreate: false },
    );
    assert.ok(await main.get(ctx('d6'), 'b', { resourceVersion: '' }));
    assert.equal(await noEvent(w), undefined);
    w.stop();
  });

  test('deleteCollection deletes what the label selector matches and returns it', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    for (const [name, tier] of [
      ['x1', 'a'],
      ['x2', 'a'],
      ['x3', 'b'],
    ] as const) {
      await main.create(ctx('d7'), flunder(name, {}, { labels: { tier } }), allow, write);
    }
    const names: string[] = [];
    const out = await main.deleteCollection(
      ctx('d7'),
      async (obj) => {
        names.push(String(obj.metadata?.name));
      },
      deleteOpts,
      listOpts({ label: 'tier=a' }),
    );
    assert.deepEqual(
      out.items.map((i) => i.metadata?.name),
      ['x1', 'x2'],
    );
    assert.deepEqual(names.sort(), ['x1', 'x2']);
    const left = await main.list(ctx('d7'), listOpts());
    assert.deepEqual(
      left.items.map((i) => i.metadata?.name),
      ['x3'],
    );
  });
});
