import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { allow, nextEvent, ctx, dryRun, fischer, flunder, newEnv, statusIs, wardleGroup, write, withOverrides, type Env } from './helpers.js';

describe('generic Store: create', () => {
  let env: Env;
  before(async () => {
    env = await newEnv();
  });
  after(async () => {
    await env.close();
  });

  test('sets server metadata and stores the storage version', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    const out = await main.create(
      ctx('default'),
      flunder('a', { fischerReference: 'f1', referenceType: 'Fischer' }, { deletionTimestamp: '2020-01-01T00:00:00Z', deletionGracePeriodSeconds: 5, generation: 7 }),
      allow,
      write,
    );
    const meta = out.metadata ?? {};
    assert.equal(out.apiVersion, 'wardle.example.com/v1beta1');
    assert.equal(meta.namespace, 'default');
    assert.match(String(meta.uid), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(meta.creationTimestamp, '2024-05-01T10:00:00Z');
    assert.equal(meta.generation, 1);
    assert.equal(meta.deletionTimestamp, undefined);
    assert.equal(meta.deletionGracePeriodSeconds, undefined);
    assert.match(String(meta.resourceVersion), /^\d+$/);
    assert.deepEqual(out.spec, { fischerReference: 'f1', referenceType: 'Fischer' });

    const raw = await (await env.raw('wardle.example.com', 'flunders')).get('/wardle.example.com/flunders/default/a');
    assert.equal(raw?.apiVersion, 'wardle.example.com/v1alpha1');
    assert.deepEqual(raw?.spec, { reference: 'f1', referenceType: 'Fischer' });
    assert.equal(raw?.metadata?.uid, meta.uid);
  });

  test('status is dropped on create when the status subresource exists', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    const out = await main.create(ctx('default'), { ...flunder('with-status'), status: { phase: 'x' } }, allow, write);
    assert.equal('status' in out, false);
  });

  test('namespace from the request; mismatch is 400; cluster-scoped objects lose theirs', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    await assert.rejects(
      main.create(ctx('default'), flunder('b', {}, { namespace: 'other' }), allow, write),
      statusIs(400, 'the namespace of the provided object does not match the namespace sent on the request', 'BadRequest'),
    );
    const fischers = (await env.storages(wardleGroup, 'Fischer')).main;
    const f = await fischers.create(ctx(''), fischer('f1', [], { namespace: 'ignored' }), allow, write);
    assert.equal(f.metadata?.namespace, undefined);
    assert.equal(f.apiVersion, 'wardle.example.com/v1alpha1');
    const raw = await (await env.raw('wardle.example.com', 'fischers')).get('/wardle.example.com/fischers/f1');
    assert.equal(raw?.metadata?.name, 'f1');
  });

  test('a client resourceVersion is a 500 with an empty reason', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    await assert.rejects(main.create(ctx('default'), flunder('rv', {}, { resourceVersion: '5' }), allow, write), statusIs(500, 'resourceVersion should not be set on objects to be created', ''));
    // A dry run never reads it (DryRunnableStorage.Create): the object comes back as sent.
    const dry = await main.create(ctx('default'), flunder('rv', {}, { resourceVersion: '5' }), allow, dryRun);
    assert.equal(dry.metadata?.resourceVersion, '5');
  });

  test('invalid and missing names are 422 with kube wording', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    await assert.rejects(
      main.create(ctx('default'), flunder(''), allow, write),
      statusIs(422, 'Flunder.wardle.example.com "" is invalid: metadata.name: Required value: name or generateName is required', 'Invalid'),
    );
    await assert.rejects(main.create(ctx('default'), flunder('Bad_Name'), allow, write), (e: unknown) => {
      assert.match((e as Error).message, /^Flunder\.wardle\.example\.com "Bad_Name" is invalid: metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
      return true;
    });
    await assert.rejects(main.create(ctx('default'), flunder('ok', {}, { labels: { 'bad key!': 'v' } }), allow, write), (e: unknown) => {
      assert.match((e as Error).message, /metadata\.labels: Invalid value: "bad key!"/);
      return true;
    });
  });

  test('409 AlreadyExists, prefixed while the existing object is being deleted', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    await main.create(ctx('default'), flunder('dup'), allow, write);
    await assert.rejects(main.create(ctx('default'), flunder('dup'), allow, write), statusIs(409, 'flunders.wardle.example.com "dup" already exists', 'AlreadyExists'));
    await main.create(ctx('default'), flunder('doomed', {}, { finalizers: ['example.com/keep'] }), allow, write);
    const d = await main.delete(ctx('default'), 'doomed', allow, {
      dryRun: false,
      gracePeriodSeconds: undefined,
      preconditions: undefined,
      propagationPolicy: undefined,
      orphanDependents: undefined,
    });
    assert.equal(d.deleted, false);
    await assert.rejects(main.create(ctx('default'), flunder('doomed'), allow, write), statusIs(409, 'object is being deleted: flunders.wardle.example.com "doomed" already exists', 'AlreadyExists'));
  });

  test('the validate callback sees the final object and can veto', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    let seen: unknown;
    await main.create(
      ctx('default'),
      flunder('seen'),
      async (obj) => {
        seen = structuredClone(obj);
      },
      write,
    );
    assert.equal((seen as { metadata: { generation: number } }).metadata.generation, 1);
    await assert.rejects(
      main.create(
        ctx('default'),
        flunder('vetoed'),
        async () => {
          throw new Error('no');
        },
        write,
      ),
      /no/,
    );
    await assert.rejects(main.get(ctx('default'), 'vetoed', { resourceVersion: '' }), statusIs(404, 'flunders.wardle.example.com "vetoed" not found'));
  });

  test('strategy hooks run with the generic rules (validate → 422, warnings)', async () => {
    const group = withOverrides(wardleGroup, 'Flunder', {
      strategy: {
        prepareForCreate(obj: { spec?: Record<string, unknown> }) {
          obj.spec = { ...obj.spec, referenceType: 'Flunder' };
        },
        validate(obj: { spec?: Record<string, unknown> }) {
          return obj.spec?.flunderReference === 'forbidden' ? [{ type: 'FieldValueForbidden' as const, field: 'spec.flunderReference', detail: 'not this one' }] : [];
        },
        warningsOnCreate: () => ['careful'],
      } as never,
    });
    const { main } = await env.storages(group, 'Flunder');
    const warnings: string[] = [];
    const out = await main.create(ctx('default', warnings), flunder('strat'), allow, write);
    assert.deepEqual(out.spec, { referenceType: 'Flunder' });
    assert.deepEqual(warnings, ['careful']);
    await assert.rejects(
      main.create(ctx('default'), flunder('strat2', { flunderReference: 'forbidden' }), allow, write),
      statusIs(422, 'Flunder.wardle.example.com "strat2" is invalid: spec.flunderReference: Forbidden: not this one', 'Invalid'),
    );
  });

  test('generateName: base[:58] + 5 characters from the kube alphabet', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    const base = `${'x'.repeat(70)}-`;
    const out = await main.create(ctx('default'), { ...flunder(''), metadata: { generateName: base } }, allow, write);
    const name = String(out.metadata?.name);
    assert.equal(name.length, 63);
    assert.ok(name.startsWith('x'.repeat(58)));
    assert.match(name.slice(58), /^[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  test('generateName retries collisions, then 409 with retryAfterSeconds', async () => {
    // The random source repeats "bbbbb" twice, then "ccccc": the third attempt succeeds.
    let calls = 0;
    const random = (): number => (calls++ < 10 ? 0 : 1);
    const { main } = await env.storages(wardleGroup, 'Flunder', { random });
    await main.create(ctx('default'), flunder('gen-bbbbb'), allow, write);
    const out = await main.create(ctx('default'), { ...flunder(''), metadata: { generateName: 'gen-' } }, allow, write);
    assert.equal(out.metadata?.name, 'gen-ccccc');

    const stuck = (await env.storages(wardleGroup, 'Flunder', { random: () => 0 })).main;
    await assert.rejects(stuck.create(ctx('default'), { ...flunder(''), metadata: { generateName: 'gen-' } }, allow, write), (e: unknown) => {
      statusIs(409, 'Flunder.wardle.example.com "gen-bbbbb" already exists, the server was not able to generate a unique name for the object', 'AlreadyExists')(e);
      assert.equal((e as { status: { details: { retryAfterSeconds: number } } }).status.details.retryAfterSeconds, 1);
      return true;
    });
  });

  test('dry run: uid, timestamp and generated name, empty resourceVersion, nothing stored, still 409', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    const raw = await env.raw('wardle.example.com', 'flunders');
    const w = await raw.watch('/wardle.example.com/flunders/dry', { recursive: true });
    const out = await main.create(ctx('dry'), { ...flunder(''), metadata: { generateName: 'dry-' } }, allow, dryRun);
    assert.match(String(out.metadata?.name), /^dry-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.ok(out.metadata?.uid);
    assert.equal(out.metadata?.creationTimestamp, '2024-05-01T10:00:00Z');
    assert.equal(out.metadata?.resourceVersion, undefined);
    assert.equal((await raw.getList('/wardle.example.com/flunders/dry', { recursive: true })).items.length, 0);
    await main.create(ctx('dry'), flunder('exists'), allow, write);
    await assert.rejects(main.create(ctx('dry'), flunder('exists'), allow, dryRun), statusIs(409, 'flunders.wardle.example.com "exists" already exists'));
    const ev = await nextEvent(w as never);
    assert.equal(ev?.type, 'ADDED');
    assert.equal(ev?.type === 'ADDED' ? ev.object.metadata?.name : '', 'exists', 'the dry run emitted no event');
    w.stop();
  });
});
