import type { OwnerReference } from '../../../apis/meta/v1/types.js';

/** Who an object is: kube's objectReference (an owner reference plus the namespace). */
export interface ObjectIdentity {
  readonly group: string;
  readonly kind: string;
  /** '' when cluster-scoped; for a virtual node, the namespace of the dependent that named it. */
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
}

/**
 * One object of the owner graph (graph.go's node). A virtual node stands for an owner named
 * by some dependent but not (yet) seen by any monitor; it is verified with a live GET.
 */
export class GraphNode {
  readonly dependents = new Set<GraphNode>();
  owners: readonly OwnerReference[] = [];
  beingDeleted = false;
  /** The object has a deletionTimestamp and the foregroundDeletion finalizer. */
  deletingDependents = false;

  constructor(
    public identity: ObjectIdentity,
    /** True until a monitor observes the object. */
    public virtual: boolean,
  ) {}

  /** Dependents whose reference to this node has blockOwnerDeletion: the ones a foreground deletion waits for. */
  blockingDependents(): GraphNode[] {
    const uid = this.identity.uid;
    return [...this.dependents].filter((d) => d.owners.some((r) => r.uid === uid && r.blockOwnerDeletion === true));
  }

  toString(): string {
    const { group, kind, namespace, name, uid } = this.identity;
    return `${kind}${group === '' ? '' : `.${group}`} ${namespace === '' ? '' : `${namespace}/`}${name} (uid ${uid})`;
  }
}

/**
 * The uid-keyed owner→dependents graph (graph.go's concurrentUIDToNode without the lock: all
 * changes happen on the event loop, between awaits). Links follow ownerReferences by uid.
 */
export class OwnerGraph {
  private readonly byUID = new Map<string, GraphNode>();

  get(uid: string): GraphNode | undefined {
    return this.byUID.get(uid);
  }

  nodes(): IterableIterator<GraphNode> {
    return this.byUID.values();
  }

  get size(): number {
    return this.byUID.size;
  }

  /**
   * Adds `node` and links it under each of its owners, creating virtual owners where none is
   * known. Returns the virtual owners it created (the caller has them verified).
   */
  insert(node: GraphNode): GraphNode[] {
    this.byUID.set(node.identity.uid, node);
    return this.link(node, node.owners);
  }

  /** Unlinks `node` from its owners and forgets it; its dependents keep their (now dangling) references. */
  remove(node: GraphNode): void {
    this.unlink(node, node.owners);
    if (this.byUID.get(node.identity.uid) === node) this.byUID.delete(node.identity.uid);
  }

  /** Replaces a node's owners, relinking only what changed; returns new virtual owners and the owners it left. */
  setOwners(node: GraphNode, owners: readonly OwnerReference[]): { virtualOwners: GraphNode[]; removed: OwnerReference[] } {
    const before = new Map(node.owners.map((r) => [r.uid, r]));
    const after = new Map(owners.map((r) => [r.uid, r]));
    const added = owners.filter((r) => !before.has(r.uid));
    const removed = node.owners.filter((r) => !after.has(r.uid));
    this.unlink(node, removed);
    node.owners = owners;
    return { virtualOwners: this.link(node, added), removed };
  }

  private link(node: GraphNode, refs: readonly OwnerReference[]): GraphNode[] {
    const virtual: GraphNode[] = [];
    for (const ref of refs) {
      let owner = this.byUID.get(ref.uid);
      if (owner === undefined) {
        owner = new GraphNode({ group: groupOfAPIVersion(ref.apiVersion), kind: ref.kind, namespace: node.identity.namespace, name: ref.name, uid: ref.uid }, true);
        this.byUID.set(ref.uid, owner);
        virtual.push(owner);
      }
      owner.dependents.add(node);
    }
    return virtual;
  }

  private unlink(node: GraphNode, refs: readonly OwnerReference[]): void {
    for (const ref of refs) {
      const owner = this.byUID.get(ref.uid);
      if (owner === undefined) continue;
      owner.dependents.delete(node);
      // A virtual owner nobody names any more has nothing left to verify.
      if (owner.virtual && owner.dependents.size === 0) this.byUID.delete(ref.uid);
    }
  }
}

export function groupOfAPIVersion(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}
