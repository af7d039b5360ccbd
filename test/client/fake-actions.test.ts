import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { newSimpleClientset } from '../../generated/clientset/fake/index.js';
import { isConflict, isNotFound, newConflict, newNotFound, type StatusError } from '../../runtime/apimachinery/errors/index.js';
import { WatchChannel } from '../../runtime/client/fake/index.js';

describe('fake clientset: actions and reactors', () => {
  test('every request is recorded with verb, resource, namespace, name and subresource', async () => {
    const cs = newSimpleClientset();
    const flunders = cs.wardleV1alpha1().flunders('ns');
    await flunders.create({ metadata: { name: 'a' } });
    await flunders.get('a');
    await flunders.list({ labelSelector: 'x=y' });
    const w = await flunders.watch({ resourceVersion: '1' });
    w.stop();
    await flunders.patch('a', 'application/merge-patch+json', { spec: { reference: 'r' } });
    await cs
      .coreV1()
      .namespaces()
      .create({ metadata: { name: 'ns' } });
    await cs
      .coreV1()
      .namespaces()
      .patchStatus('ns', 'application/merge-patch+json', { status: { phase: 'Active' } });
    await flunders.get('missing').catch(() => undefined);
    await flunders.delete('a');
    await flunders.deleteCollection();
    const actions = cs.fake.actions();
    assert.deepEqual(
      actions.map((a) => [a.verb, a.resource.resource, a.namespace, a.name, a.subresource]),
      [
        ['create', 'flunders', 'ns', '', ''],
        ['get', 'flunders', 'ns', 'a', ''],
        ['list', 'flunders', 'ns', '', ''],
        ['watch', 'flunders', 'ns', '', ''],
        ['patch', 'flunders', 'ns', 'a', ''],
        ['create', 'namespaces', '', '', ''],
        ['patch', 'namespaces', '', 'ns', 'status'],
        ['get', 'flunders', 'ns', 'missing', ''],
        ['delete', 'flunders', 'ns', 'a', ''],
        ['deletecollection', 'flunders', 'ns', '', ''],
      ],
    );
    assert.deepEqual(actions[0]?.resource, { group: 'wardle.example.com', version: 'v1alpha1', resource: 'flunders' });
    const list = actions[2];
    assert.ok(list?.verb === 'list');
    assert.equal(list.listOptions['labelSelector'], 'x=y');
    const watch = actions[3];
    assert.ok(watch?.verb === 'watch');
    assert.deepEqual(watch.listOptions, { resourceVersion: '1', watch: 'true' });
    const patch = actions[4];
    assert.ok(patch?.verb === 'patch');
    assert.equal(patch.patchType, 'application/merge-patch+json');
    assert.deepEqual(patch.patch, { spec: { reference: 'r' } });
    const create = actions[0];
    assert.ok(create?.verb === 'create');
    assert.deepEqual(create.object, { metadata: { name: 'a' } });
    cs.fake.clearActions();
    assert.deepEqual(cs.fake.actions(), []);
  });

  test('reactors inject errors; the latest prepended runs first; unhandled actions fall through', async () => {
    const cs = newSimpleClientset();
    const flunders = cs.wardleV1alpha1().flunders('ns');
    const seen: string[] = [];
    cs.fake.prependReactor('*', '*', (action) => {
      seen.push(`${action.verb} ${action.resource.resource}`);
      return { handled: false };
    });
    cs.fake.prependReactor('create', 'flunders', (action) => {
      if (action.verb === 'create' && (action.object as { metadata?: { name?: string } }).metadata?.name === 'boom') {
        return { handled: true, error: newConflict({ group: 'wardle.example.com', resource: 'flunders' }, 'boom', 'injected') };
      }
      return { handled: false };
    });
    const err = await flunders.create({ metadata: { name: 'boom' } }).catch((e: unknown) => e);
    assert.ok(isConflict(err));
    assert.equal((err as StatusError).status.message, 'Operation cannot be fulfilled on flunders.wardle.example.com "boom": injected');
    assert.ok(isNotFound(await flunders.get('boom').catch((e: unknown) => e)), 'a handled action never reaches the tracker');
    await flunders.create({ metadata: { name: 'fine' } });
    assert.equal((await flunders.get('fine')).metadata?.name, 'fine');
    assert.deepEqual(seen, ['get flunders', 'create flunders', 'get flunders']);
    assert.equal(cs.fake.actions().length, 4, 'actions are recorded whether or not a reactor handles them');
  });

  test('reactors can answer with objects, asynchronously, and match subresources', async () => {
    const cs = newSimpleClientset();
    cs.fake.prependReactor('get', 'fischers', async () => ({ handled: true, object: { metadata: { name: 'canned' } } }));
    assert.equal((await cs.wardleV1alpha1().fischers().get('anything')).metadata?.name, 'canned');
    cs.fake.prependReactor('update', 'namespaces/status', () => ({ handled: true, error: newNotFound({ group: '', resource: 'namespaces' }, 'x') }));
    await cs
      .coreV1()
      .namespaces()
      .create({ metadata: { name: 'x' } });
    const ns = await cs.coreV1().namespaces().get('x');
    const statusErr = await cs
      .coreV1()
      .namespaces()
      .updateStatus(ns)
      .catch((e: unknown) => e);
    assert.ok(isNotFound(statusErr));
    const updated = await cs
      .coreV1()
      .namespaces()
      .update({ ...ns, metadata: { ...ns.metadata, labels: { a: 'b' } } });
    assert.deepEqual(updated.metadata?.labels, { a: 'b' }, 'the main resource is not covered by a status reactor');
  });

  test('watch reactors hand out their own streams', async () => {
    const cs = newSimpleClientset();
    const channel = new WatchChannel<unknown>();
    cs.fake.prependWatchReactor('fischers', () => ({ handled: true, watch: channel }));
    const w = await cs.wardleV1alpha1().fischers().watch();
    channel.push({ type: 'ADDED', object: { metadata: { name: 'from-reactor' } } });
    channel.end();
    const events = [];
    for await (const ev of w) events.push(ev);
    assert.deepEqual(events, [{ type: 'ADDED', object: { metadata: { name: 'from-reactor' } } }]);
    cs.fake.prependWatchReactor('*', () => ({ handled: true, error: new Error('watch refused') }));
    await assert.rejects(cs.wardleV1alpha1().fischers().watch(), /watch refused/);
  });
});
