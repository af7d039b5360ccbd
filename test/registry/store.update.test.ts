import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeObject } from '../../runtime/registry/rest.js';
import { allow, allowBoth, ctx, dryRun, fischer, flunder, newEnv, noEvent, nextEvent, patch, put, statusIs, wardleGroup, withOverrides, write, type Env } from './helpers.js';

const update = { ...write, forceAllowCreate: false };

describe('generic Store: update', () => {
  let env: Env;
  before(async () => {
    env = await newEnv();
  });
  after(async () => {
    await env.close();
  });

  test('stale resourceVersion is 409 Conflict; matching or absent resourceVersion updates', async () => {
    // Flunders themselves refuse updates without a resourceVersion (sample-apiserver's strategy).
    const { main } = await env.storages(withOverrides(wardleGroup, 'Flunder', { strategy: { allowUnconditionalUpdate: true } }), 'Flunder');
    const created = await main.create(ctx('u1'), flunder('a', { flunderReference: 'x' }), allow, write);
    const rv1 = String(created.metadata?.resourceVersion);
    const changed = { ...created, spec: { flunderReference: 'y' } };
    const r1 = await main.update(ctx('u1'), 'a', put(changed), allowBoth, update);
    assert.equal(r1.created, false);
    assert.notEqual(r1.object.metadata?.resourceVersion, rv1);
    assert.deepEqual(r1.object.spec, { flunderReference: 'y' });
    await assert.rejects(
      main.update(ctx('u1'), 'a', put({ ...changed, spec: { flunderReference: 'z' } }), allowBoth, update),
      statusIs(409, 'Operation cannot be fulfilled on flunders.wardle.example.com "a": the object has been modified; please apply your changes to the latest version and try again', 'Conflict'),
    );
    const noRV = structuredClone(changed);
    delete noRV.metadata?.resourceVersion;
    noRV.spec = { flunderReference: 'w' };
    const r2 = await main.update(ctx('u1'), 'a', put(noRV), allowBoth, update);
    assert.deepEqual((r2.object.spec as { flunderReference: string }).flunderReference, 'w');
  });

  test('PUT without resourceVersion is 422 when the strategy forbids unconditional updates', async () => {
    const { main } = await env.storages(withOverrides(wardleGroup, 'Flunder', { strategy: { allowUnconditionalUpdate: false } }), 'Flunder');
    await main.create(ctx('u2'), flunder('a'), allow, write);
    await assert.rejects(
      main.update(ctx('u2'), 'a', put(flunder('a', { flunderReference: 'q' })), allowBoth, update),
      statusIs(422, 'flunders.wardle.example.com "a" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update', 'Invalid'),
    );
  });

  test('absent object: 404, unless create-on-update is allowed (created: true)', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    await assert.rejects(main.update(ctx('u3'), 'missing', put(flunder('missing')), allowBoth, update), statusIs(404, 'flunders.wardle.example.com "missing" not found', 'NotFound'));
    const r = await main.update(ctx('u3'), 'missing', put(flunder('missing', {}, { resourceVersion: '12' })), allowBoth, { ...update, forceAllowCreate: true });
    assert.equal(r.created, true);
    assert.equal(r.object.metadata?.generation, 1);
    assert.ok(r.object.metadata?.uid);
    const viaStrategy = (await env.storages(withOverrides(wardleGroup, 'Flunder', { strategy: { allowCreateOnUpdate: true } }), 'Flunder')).main;
    assert.equal((await viaStrategy.update(ctx('u3'), 'other', put(flunder('other')), allowBoth, update)).created, true);
  });

  test('a no-op update writes nothing: same resourceVersion, no watch event, whatever the key order', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    const created = await main.create(ctx('u4'), flunder('a', { flunderReference: 'x' }, { labels: { a: '1', b: '2' } }), allow, write);
    const w = await main.watch(ctx('u4'), { ...(await import('./helpers.js')).listOpts({ resourceVersion: String(created.metadata?.resourceVersion) }) });
    // Same content, keys in another order.
    const meta = created.metadata ?? {};
    const reordered: KubeObject = {
      spec: { ...(created.spec as object) },
      metadata: {
        labels: { b: '2', a: '1' },
        resourceVersion: meta.resourceVersion,
        name: meta.name,
        uid: meta.uid,
        namespace: meta.namespace,
        creationTimestamp: meta.creationTimestamp,
        generation: meta.generation,
      },
      kind: 'Flunder',
      apiVersion: 'wardle.example.com/v1beta1',
    };
    const r = await main.update(ctx('u4'), 'a', put(reordered), allowBoth, update);
    assert.equal(r.object.metadata?.resourceVersion, meta.resourceVersion);
    assert.equal(await noEvent(w), undefined);
    const r2 = await main.update(
      ctx('u4'),
      'a',
      patch((o) => ({ ...o, metadata: { ...o.metadata, labels: { a: '1' } } })),
      allowBoth,
      update,
    );
    assert.notEqual(r2.object.metadata?.resourceVersion, meta.resourceVersion);
    assert.equal((await nextEvent(w)).type, 'MODIFIED');
    w.stop();
  });

  test('generation: kept on metadata changes, bumped on spec changes, status ignored by the main resource', async () => {
    const { main, status } = await env.storages(wardleGroup, 'Flunder');
    assert.ok(status);
    await main.create(ctx('u5'), flunder('g', { flunderReference: 'x' }), allow, write);
    const labelled = await main.update(
      ctx('u5'),
      'g',
      patch((o) => ({ ...o, metadata: { ...o.metadata, labels: { l: 'v' } } })),
      allowBoth,
      update,
    );
    assert.equal(labelled.object.metadata?.generation, 1);
    const specced = await main.update(
      ctx('u5'),
      'g',
      patch((o) => ({ ...o, spec: { flunderReference: 'y' } })),
      allowBoth,
      update,
    );
    assert.equal(specced.object.metadata?.generation, 2);
    const withStatus = await main.update(
      ctx('u5'),
      'g',
      patch((o) => ({ ...o, status: { observed: true } })),
      allowBoth,
      update,
    );
    assert.equal(withStatus.object.metadata?.generation, 2);
    assert.equal('status' in withStatus.object, false, 'status changes through the main resource are dropped');
    assert.equal(withStatus.object.metadata?.resourceVersion, specced.object.metadata?.resourceVersion, 'and the update was a no-op');

    // Without a status subresource (Fischer), every non-metadata change counts.
    const fischers = (await env.storages(wardleGroup, 'Fischer')).main;
    await fischers.create(ctx(''), fischer('fg'), allow, write);
    const f2 = await fischers.update(
      ctx(''),
      'fg',
      patch((o) => ({ ...o, disallowedFlunders: ['x'] })),
      allowBoth,
      update,
    );
    assert.equal(f2.object.metadata?.generation, 2);
  });

  test('status subresource: only status changes, generation kept, resourceVersion bumps', async () => {
    const { main, status } = await env.storages(wardleGroup, 'Flunder');
    assert.ok(status);
    const created = await main.create(ctx('u6'), flunder('s', { flunderReference: 'x' }), allow, write);
    const r = await status.update(
      ctx('u6'),
      's',
      patch((o) => ({ ...o, metadata: { ...o.metadata, labels: { ignored: 'yes' } }, spec: { flunderReference: 'ignored' }, status: { phase: 'Ready' } })),
      allowBoth,
      update,
    );
    assert.deepEqual(r.object.status, { phase: 'Ready' });
    assert.deepEqual(r.object.spec, created.spec);
    assert.equal(r.object.metadata?.labels, undefined);
    assert.equal(r.object.metadata?.generation, 1);
    assert.notEqual(r.object.metadata?.resourceVersion, created.metadata?.resourceVersion);
    assert.deepEqual((await status.get(ctx('u6'), 's', { resourceVersion: '' })).status, { phase: 'Ready' });
    // The main resource keeps the status on its own updates.
    const m = await main.update(
      ctx('u6'),
      's',
      patch((o) => ({ ...o, spec: { flunderReference: 'y' }, status: { phase: 'Hacked' } })),
      allowBoth,
      update,
    );
    assert.deepEqual(m.object.status, { phase: 'Ready' });
    assert.equal(m.object.metadata?.generation, 2);
    await assert.rejects(status.update(ctx('u6'), 'nope', put(flunder('nope')), allowBoth, { ...update, forceAllowCreate: true }), statusIs(404, 'flunders.wardle.example.com "nope" not found'));
  });

  test('uid cannot change (422); creationTimestamp is kept from the stored object', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    const created = await main.create(ctx('u7'), flunder('i'), allow, write);
    await assert.rejects(
      main.update(
        ctx('u7'),
        'i',
        patch((o) => ({ ...o, metadata: { ...o.metadata, uid: 'other' } })),
        allowBoth,
        update,
      ),
      statusIs(422, 'Flunder.wardle.example.com "i" is invalid: metadata.uid: Invalid value: "other": field is immutable', 'Invalid'),
    );
    env.clock.advance(60);
    const r = await main.update(
      ctx('u7'),
      'i',
      patch((o) => ({ ...o, metadata: { ...o.metadata, creationTimestamp: '2000-01-01T00:00:00Z', labels: { x: 'y' } } })),
      allowBoth,
      update,
    );
    assert.equal(r.object.metadata?.creationTimestamp, created.metadata?.creationTimestamp);
    await assert.rejects(
      main.update(
        ctx('u7'),
        'i',
        patch((o) => ({ ...o, metadata: { ...o.metadata, namespace: 'elsewhere' } })),
        allowBoth,
        update,
      ),
      statusIs(400, 'the namespace of the provided object does not match the namespace sent on the request'),
    );
  });

  test('the update validate callback gets the new and old objects and can veto', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    await main.create(ctx('u8'), flunder('v', { flunderReference: 'a' }), allow, write);
    const seen: Array<[unknown, unknown]> = [];
    await main.update(
      ctx('u8'),
      'v',
      patch((o) => ({ ...o, spec: { flunderReference: 'b' } })),
      {
        create: allow,
        update: async (obj, old) => {
          seen.push([structuredClone(obj.spec), structuredClone(old?.spec)]);
        },
      },
      update,
    );
    assert.deepEqual(seen, [[{ flunderReference: 'b' }, { flunderReference: 'a' }]]);
    await assert.rejects(
      main.update(
        ctx('u8'),
        'v',
        patch((o) => ({ ...o, spec: { flunderReference: 'c' } })),
        {
          create: allow,
          update: async () => {
            throw new Error('denied');
          },
        },
        update,
      ),
      /denied/,
    );
  });

  test('dry run: computed and validated, nothing written, current resourceVersion', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    const created = await main.create(ctx('u9'), flunder('d', { flunderReference: 'a' }), allow, write);
    const w = await main.watch(ctx('u9'), (await import('./helpers.js')).listOpts({ resourceVersion: String(created.metadata?.resourceVersion) }));
    const r = await main.update(
      ctx('u9'),
      'd',
      patch((o) => ({ ...o, spec: { flunderReference: 'b' } })),
      allowBoth,
      { ...dryRun, forceAllowCreate: false },
    );
    assert.equal((r.object.spec as { flunderReference: string }).flunderReference, 'b');
    assert.equal(r.object.metadata?.generation, 2);
    assert.equal(r.object.metadata?.resourceVersion, created.metadata?.resourceVersion);
    const got = await main.get(ctx('u9'), 'd', { resourceVersion: '' });
    assert.deepEqual(got, created);
    await assert.rejects(
      main.update(ctx('u9'), 'd', put({ ...created, metadata: { ...created.metadata, resourceVersion: '1' } }), allowBoth, { ...dryRun, forceAllowCreate: false }),
      statusIs(409, 'Operation cannot be fulfilled on flunders.wardle.example.com "d": the object has been modified; please apply your changes to the latest version and try again'),
    );
    assert.equal(await noEvent(w), undefined);
    w.stop();
  });

  test('preconditions from the request are checked by storage (409)', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    await main.create(ctx('u10'), flunder('p'), allow, write);
    const info = { ...patch((o) => o), preconditions: () => ({ uid: 'not-the-uid' }) };
    await assert.rejects(main.update(ctx('u10'), 'p', info, allowBoth, update), (e: unknown) => {
      assert.match((e as Error).message, /^Operation cannot be fulfilled on flunders\.wardle\.example\.com "p": .*Precondition failed: UID in precondition: not-the-uid/);
      return true;
    });
  });
});
