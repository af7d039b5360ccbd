// The owner graph and its builder on their own: which nodes exist (observed or virtual),
// how links follow ownerReferences by uid, and which work each change produces.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { GraphNode } from '../../runtime/controllers/garbagecollector/graph.js';
import { GraphBuilder, type MonitoredKind } from '../../runtime/controllers/garbagecollector/graph-builder.js';
import type { ObjectMetadata } from '../../runtime/controllers/garbagecollector/metadata.js';

const FISCHER: MonitoredKind = { group: 'wardle.example.com', kind: 'Fischer', namespaced: false };
const FLUNDER: MonitoredKind = { group: 'wardle.example.com', kind: 'Flunder', namespaced: true };

function setup(): { builder: GraphBuilder; deletes: string[]; orphans: string[]; drain(): void } {
  const deletes: string[] = [];
  const orphans: string[] = [];
  const builder = new GraphBuilder({
    attemptToDelete: (n: GraphNode) => deletes.push(n.identity.uid),
    attemptToOrphan: (n: GraphNode) => orphans.push(n.identity.uid),
  });
  return {
    builder,
    deletes,
    orphans,
    drain: () => {
      deletes.length = 0;
      orphans.length = 0;
    },
  };
}

const fischer = (uid: string, meta: Partial<ObjectMetadata['metadata']> = {}): ObjectMetadata => ({ metadata: { name: `f-${uid}`, uid, ...meta } });
const flunder = (uid: string, owners: string[], meta: Partial<ObjectMetadata['metadata']> = {}): ObjectMetadata => ({
  metadata: {
    name: `fl-${uid}`,
    namespace: 'default',
    uid,
    ownerReferences: owners.map((o) => ({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Fischer', name: `f-${o}`, uid: o, blockOwnerDeletion: true })),
    ...meta,
  },
});

describe('garbage collector graph builder', () => {
  test('an owner not yet observed is a virtual node, verified; observing it makes it real', () => {
    const { builder, deletes } = setup();
    builder.observe(FLUNDER, flunder('d', ['o']));
    const owner = builder.graph.get('o');
    assert.equal(owner?.virtual, true);
    assert.deepEqual(owner?.identity, { group: 'wardle.example.com', kind: 'Fischer', namespace: 'default', name: 'f-o', uid: 'o' });
    assert.deepEqual(deletes, ['o']);
    builder.observe(FISCHER, fischer('o'));
    assert.equal(owner.virtual, false);
    assert.equal(owner.identity.namespace, '');
    assert.deepEqual(
      [...owner.dependents].map((d) => d.identity.uid),
      ['d'],
    );
  });

  test('deleting an owner sends its dependents to be checked; dropping the last reference to a virtual owner forgets it', () => {
    const { builder, deletes, drain } = setup();
    builder.observe(FISCHER, fischer('o'));
    builder.observe(FLUNDER, flunder('d1', ['o']));
    builder.observe(FLUNDER, flunder('d2', ['o', 'ghost']));
    drain();
    builder.forget(fischer('o'));
    assert.equal(builder.graph.get('o'), undefined);
    assert.deepEqual(deletes.sort(), ['d1', 'd2']);
    builder.observe(FLUNDER, flunder('d2', []));
    assert.equal(builder.graph.get('ghost'), undefined);
  });

  test('an owner with the orphan finalizer being deleted is sent to be orphaned', () => {
    const { builder, orphans } = setup();
    builder.observe(FISCHER, fischer('o', { deletionTimestamp: '2024-01-01T00:00:00Z', finalizers: ['orphan'] }));
    assert.deepEqual(orphans, ['o']);
  });

  test('foreground: the owner and its dependents are attempted; a blocking dependent that goes requeues the owner', () => {
    const { builder, deletes, drain } = setup();
    builder.observe(FISCHER, fischer('o'));
    builder.observe(FLUNDER, flunder('d', ['o']));
    drain();
    builder.observe(FISCHER, fischer('o', { deletionTimestamp: '2024-01-01T00:00:00Z', finalizers: ['foregroundDeletion'] }));
    assert.equal(builder.graph.get('o')?.deletingDependents, true);
    assert.deepEqual(deletes.sort(), ['d', 'o']);
    assert.deepEqual(
      builder.graph
        .get('o')
        ?.blockingDependents()
        .map((n) => n.identity.uid),
      ['d'],
    );
    drain();
    builder.forget(flunder('d', ['o']));
    assert.deepEqual(deletes, ['o']);
    assert.deepEqual(builder.graph.get('o')?.blockingDependents(), []);
  });

  test('a resource that stops being served: owners turn virtual, to be verified; the rest leaves the graph', () => {
    const { builder, deletes, drain } = setup();
    builder.observe(FISCHER, fischer('o'));
    builder.observe(FISCHER, fischer('lonely'));
    builder.observe(FLUNDER, flunder('d', ['o']));
    drain();
    builder.unobserve(['o', 'lonely']);
    assert.equal(builder.graph.get('o')?.virtual, true);
    assert.equal(builder.graph.get('lonely'), undefined);
    assert.deepEqual(deletes, ['o']);
  });
});
