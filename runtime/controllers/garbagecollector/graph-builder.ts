import type { OwnerReference } from '../../../apis/meta/v1/types.js';
import { finalizerDeleteDependents, finalizerOrphanDependents } from '../../registry/generic/delete.js';
import { GraphNode, OwnerGraph, type ObjectIdentity } from './graph.js';
import type { DeepReadonly } from '../../client/types.js';
import type { ObjectMetadata } from './metadata.js';

/** The kind a monitor observes, which names the nodes it builds. */
export interface MonitoredKind {
  readonly group: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

/** Where the builder sends work (the collector's two queues). */
export interface GraphWork {
  /** Check the node: delete it if its owners are gone, finish a foreground deletion, verify a virtual node. */
  attemptToDelete(node: GraphNode): void;
  /** Orphan the node's dependents, then drop its `orphan` finalizer. */
  attemptToOrphan(node: GraphNode): void;
}

/**
 * graph_builder.go's event processing: keeps the owner graph equal to what the monitors
 * observe and turns changes into work. Called synchronously from the informers' handlers,
 * so the graph never changes in the middle of an event. Deciding what follows from an
 * object's state (not only from its transitions) makes a resync repair a missed event.
 */
export class GraphBuilder {
  readonly graph = new OwnerGraph();

  constructor(private readonly work: GraphWork) {}

  /** An object was added or updated (or resynced). */
  observe(kind: MonitoredKind, obj: DeepReadonly<ObjectMetadata>): void {
    const m = obj.metadata;
    const uid = m.uid ?? '';
    if (uid === '' || m.name === undefined) return;
    const identity: ObjectIdentity = { group: kind.group, kind: kind.kind, namespace: kind.namespaced ? (m.namespace ?? '') : '', name: m.name, uid };
    const owners = m.ownerReferences ?? [];
    let node = this.graph.get(uid);
    if (node === undefined) {
      node = new GraphNode(identity, false);
      node.owners = owners;
      this.verify(this.graph.insert(node));
    } else {
      if (node.virtual) this.markObserved(node, identity);
      this.ownersChanged(node, owners);
    }
    node.beingDeleted = m.deletionTimestamp !== undefined;
    this.processTransitions(node, m.finalizers ?? []);
  }

  /** An object was deleted (a tombstone's last known state counts). */
  forget(obj: DeepReadonly<ObjectMetadata>): void {
    const node = this.graph.get(obj.metadata.uid ?? '');
    if (node === undefined || node.virtual) return;
    this.removeNode(node);
  }

  /**
   * A node known not to exist any more (deleted, or a virtual node the API server does not
   * have): its dependents must be checked, and owners deleting in foreground may be done.
   */
  removeNode(node: GraphNode): void {
    this.graph.remove(node);
    for (const dep of node.dependents) this.work.attemptToDelete(dep);
    for (const ref of node.owners) this.ownerMayBeDone(ref);
  }

  /**
   * A monitor stopped (its resource is no longer served, or served by new storage): what it
   * saw and others depend on turns virtual, to be verified with live reads until a monitor
   * observes it again; the rest leaves the graph (a new monitor's list brings it back).
   */
  unobserve(uids: Iterable<string>): void {
    for (const uid of uids) {
      const node = this.graph.get(uid);
      if (node === undefined || node.virtual) continue;
      if (node.dependents.size === 0) {
        this.removeNode(node);
        continue;
      }
      node.virtual = true;
      this.work.attemptToDelete(node);
    }
  }

  private markObserved(node: GraphNode, identity: ObjectIdentity): void {
    const before = node.identity;
    node.virtual = false;
    node.identity = identity;
    // Dependents named this owner with another kind or namespace than it has: recheck them.
    if (before.kind !== identity.kind || before.group !== identity.group || before.namespace !== identity.namespace) {
      for (const dep of node.dependents) this.work.attemptToDelete(dep);
    }
  }

  private ownersChanged(node: GraphNode, owners: readonly OwnerReference[]): void {
    const blockedBefore = new Set(node.owners.filter((r) => r.blockOwnerDeletion === true).map((r) => r.uid));
    const { virtualOwners, removed } = this.graph.setOwners(node, owners);
    this.verify(virtualOwners);
    for (const ref of removed) this.ownerMayBeDone(ref);
    // An owner no longer blocked by this dependent may finish its foreground deletion.
    for (const ref of owners) if (blockedBefore.has(ref.uid) && ref.blockOwnerDeletion !== true) this.ownerMayBeDone(ref);
  }

  private processTransitions(node: GraphNode, finalizers: readonly string[]): void {
    if (node.beingDeleted && finalizers.includes(finalizerOrphanDependents)) this.work.attemptToOrphan(node);
    node.deletingDependents = node.beingDeleted && finalizers.includes(finalizerDeleteDependents);
    if (node.deletingDependents) {
      for (const dep of node.dependents) this.work.attemptToDelete(dep);
      this.work.attemptToDelete(node);
    }
  }

  private ownerMayBeDone(ref: OwnerReference): void {
    const owner = this.graph.get(ref.uid);
    if (owner?.deletingDependents === true) this.work.attemptToDelete(owner);
  }

  private verify(virtualNodes: readonly GraphNode[]): void {
    for (const n of virtualNodes) this.work.attemptToDelete(n);
  }
}
