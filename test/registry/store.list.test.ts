import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildPredicate } from '../../runtime/registry/generic/index.js';
import type { InternalListOptions } from '../../runtime/registry/rest.js';
import { allow, allowBoth, ctx, flunder, listOpts, newEnv, nextEvent, patch, statusIs, wardleGroup, write, type Env } from './helpers.js';

const flunderDef = wardleGroup.versions[0]!.resources[0]!;

describe('generic Store: get, list, watch', () => {
  let env: Env;
  before(async () => {
    env = await newEnv();
  });
  after(async () => {
    await env.close();
  });

  test('get: hub version, 404 with the exact Status, 400 for unusable names', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    await main.create(ctx('l1'), flunder('a', { fischerReference: 'f', referenceType: 'Fischer' }), allow, write);
    const got = await main.get(ctx('l1'), 'a', { resourceVersion: '' });
    assert.equal(got.apiVersion, 'wardle.example.com/v1beta1');
    assert.deepEqual(got.spec, { fischerReference: 'f', referenceType: 'Fischer' });
    await assert.rejects(main.get(ctx('l1'), 'x', { resourceVersion: '' }), (e: unknown) => {
      statusIs(404, 'flunders.wardle.example.com "x" not found', 'NotFound')(e);
      assert.deepEqual((e as { status: { details: unknown } }).status.details, { name: 'x', group: 'wardle.example.com', kind: 'flunders' });
      return true;
    });
    await assert.rejects(main.get(ctx('l1'), 'a/b', { resourceVersion: '' }), statusIs(400, `Name parameter invalid: "a/b": may not contain '/'`, 'BadRequest'));
  });

  test('list: namespaces, label selectors, selectable field spec.referenceType, metadata.name', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    await main.create(ctx('l2'), flunder('f1', { flunderReference: 'x', referenceType: 'Flunder' }, { labels: { app: 'one' } }), allow, write);
    await main.create(ctx('l2'), flunder('f2', { fischerReference: 'y', referenceType: 'Fischer' }, { labels: { app: 'two' } }), allow, write);
    await main.create(ctx('l3'), flunder('f3', { fischerReference: 'z', referenceType: 'Fischer' }), allow, write);
    const names = async (ns: string, o: Parameters<typeof listOpts>[0]): Promise<string[]> =>
      (await main.list(ctx(ns), listOpts(o))).items.map((i) => `${String(i.metadata?.namespace)}/${String(i.metadata?.name)}`);
    assert.deepEqual(await names('l2', {}), ['l2/f1', 'l2/f2']);
    assert.deepEqual(await names('l2', { label: 'app in (two,three)' }), ['l2/f2']);
    assert.deepEqual(await names('', { field: 'spec.referenceType=Fischer' }), ['l1/a', 'l2/f2', 'l3/f3']);
    assert.deepEqual(await names('l2', { field: 'spec.referenceType!=Fischer' }), ['l2/f1']);
    assert.deepEqual(await names('l2', { field: 'metadata.name=f2' }), ['l2/f2']);
    assert.deepEqual(await names('', { field: 'metadata.namespace=l3' }), ['l3/f3']);
    const list = await main.list(ctx('l2'), listOpts());
    assert.match(list.metadata.resourceVersion, /^\d+$/);
    assert.equal(list.items[0]?.apiVersion, 'wardle.example.com/v1beta1');
  });

  test('list paging: limit and continue at one resourceVersion', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    for (let i = 0; i < 5; i++) await main.create(ctx('l4'), flunder(`p${i}`), allow, write);
    const first = await main.list(ctx('l4'), listOpts({ limit: 2 }));
    assert.deepEqual(
      first.items.map((i) => i.metadata?.name),
      ['p0', 'p1'],
    );
    assert.ok(first.metadata.continue);
    await main.create(ctx('l4'), flunder('p5'), allow, write);
    const second = await main.list(ctx('l4'), listOpts({ limit: 10, continue: first.metadata.continue }));
    assert.deepEqual(
      second.items.map((i) => i.metadata?.name),
      ['p2', 'p3', 'p4'],
      'the continuation is a snapshot',
    );
    assert.equal(second.metadata.resourceVersion, first.metadata.resourceVersion);
    assert.equal(second.metadata.continue, undefined);
    await assert.rejects(main.list(ctx('l4'), listOpts({ limit: 1, continue: 'garbage' })), (e: unknown) => (e as { code: number }).code === 400);
  });

  test('buildPredicate: kube wording for unsupported fields and bad selectors', () => {
    assert.throws(() => buildPredicate(flunderDef, '', 'spec.flunderReference=x'), statusIs(400, 'field label not supported: spec.flunderReference', 'BadRequest'));
    assert.throws(
      () => buildPredicate(flunderDef, 'a in (', ''),
      (e: unknown) => (e as { code: number; reason: string }).code === 400 && (e as { reason: string }).reason === 'BadRequest',
    );
    assert.throws(() => buildPredicate(flunderDef, '', 'foo'), statusIs(400, "invalid selector: 'foo'; can't understand 'foo'", 'BadRequest'));
    const p = buildPredicate(flunderDef, 'a=b', 'spec.referenceType=Flunder,metadata.name=x');
    assert.equal(p.label.empty(), false);
    assert.equal(p.field.requiresExactMatch('metadata.name'), 'x');
  });

  test('watch: hub objects, selectors applied to the hub form, bookmarks pass through', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    const start = await main.list(ctx('l5'), listOpts());
    const opts: InternalListOptions = listOpts({ resourceVersion: start.metadata.resourceVersion, field: 'spec.referenceType=Fischer' });
    const w = await main.watch(ctx('l5'), opts);
    await main.create(ctx('l5'), flunder('skip', { flunderReference: 'x', referenceType: 'Flunder' }), allow, write);
    await main.create(ctx('l5'), flunder('take', { fischerReference: 'y', referenceType: 'Fischer' }), allow, write);
    const ev = await nextEvent(w);
    assert.equal(ev.type, 'ADDED');
    if (ev.type !== 'ADDED') return;
    assert.equal(ev.object.metadata?.name, 'take');
    assert.equal(ev.object.apiVersion, 'wardle.example.com/v1beta1');
    assert.deepEqual(ev.object.spec, { fischerReference: 'y', referenceType: 'Fischer' });
    // Leaving the selection is a DELETED event for this watcher.
    await main.update(
      ctx('l5'),
      'take',
      patch((o) => ({ ...o, spec: { flunderReference: 'y', referenceType: 'Flunder' } })),
      allowBoth,
      { ...write, forceAllowCreate: false },
    );
    const left = await nextEvent(w);
    assert.equal(left.type, 'DELETED');
    w.stop();

    const wl = await main.watch(ctx('l5'), listOpts({ sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true }));
    const seen: string[] = [];
    for (;;) {
      const e = await nextEvent(wl);
      if (e.type === 'BOOKMARK') {
        assert.equal(e.object.metadata?.annotations?.['k8s.io/initial-events-end'], 'true');
        break;
      }
      seen.push(`${e.type}:${String(e.type === 'ERROR' ? '' : e.object.metadata?.name)}`);
    }
    assert.deepEqual(seen, ['ADDED:skip', 'ADDED:take']);
    wl.stop();
  });

  test('list errors are Status errors (400 bad resourceVersion, 504 too large)', async () => {
    const { main } = await env.storages(wardleGroup, 'Flunder');
    await assert.rejects(main.list(ctx('l6'), listOpts({ resourceVersion: 'abc' })), (e: unknown) => (e as { code: number }).code === 400);
    await assert.rejects(main.list(ctx('l6'), listOpts({ resourceVersion: '99999999', resourceVersionMatch: 'NotOlderThan' })), (e: unknown) => (e as { code: number }).code === 504);
  });
});
