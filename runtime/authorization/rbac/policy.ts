import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding, Subject } from '../../../apis/rbac/v1/types.js';
import type { UserInfo } from '../../apimachinery/request/types.js';
import { subjectKey } from './subjects.js';

/**
 * The RBAC policy the authorizer reads: Roles, ClusterRoles, RoleBindings and
 * ClusterRoleBindings, kept in memory from the storage's watches (kube's authorizer reads
 * informer listers the same way). Bindings are indexed by the subjects they name, so authorizing
 * one request looks at the bindings of that user and its groups only, never at every binding.
 *
 * Consistency: every read of an authorization happens in one synchronous call, so an upsert or a
 * remove (also synchronous) lands either wholly before or wholly after it; no authorization sees
 * half an update. Objects handed in are kept as they are and must not be changed afterwards
 * (informer objects are not).
 */

/** The part of a binding the index reads. */
interface Binding {
  readonly metadata?: { readonly name?: string; readonly namespace?: string };
  readonly subjects?: readonly Subject[];
}

function nameOf(o: { readonly metadata?: { readonly name?: string } }): string {
  return o.metadata?.name ?? '';
}

type Bucket<B> = Map<string, B>;

/** The bindings of one scope (the cluster, or one namespace), by name and by the users and groups they name. */
export class BindingIndex<B extends Binding> {
  private readonly byName = new Map<string, B>();
  private readonly byUser = new Map<string, Bucket<B>>();
  private readonly byGroup = new Map<string, Bucket<B>>();

  /** `namespace`: the scope's namespace ('' for the cluster), which unqualified service accounts take. */
  constructor(private readonly namespace: string) {}

  get size(): number {
    return this.byName.size;
  }

  upsert(binding: B): void {
    const name = nameOf(binding);
    this.remove(name);
    this.byName.set(name, binding);
    this.forEachKey(binding, (index, key) => {
      let bucket = index.get(key);
      if (bucket === undefined) index.set(key, (bucket = new Map()));
      bucket.set(name, binding);
    });
  }

  remove(name: string): void {
    const old = this.byName.get(name);
    if (old === undefined) return;
    this.byName.delete(name);
    this.forEachKey(old, (index, key) => {
      const bucket = index.get(key);
      if (bucket === undefined) return;
      bucket.delete(name);
      if (bucket.size === 0) index.delete(key);
    });
  }

  /**
   * Visits the bindings that may apply to the user — those naming it (or its service account),
   * then those naming its groups in the user's order — each once, until `visit` returns false;
   * false when it did. Looks up the user's name and groups only: no binding naming someone else
   * is touched.
   */
  visitCandidates(user: UserInfo, visit: (binding: B) => boolean): boolean {
    let seen: Set<B> | undefined;
    let first: Bucket<B> | undefined;
    for (let i = -1; i < user.groups.length; i++) {
      const bucket = i < 0 ? this.byUser.get(user.name) : this.byGroup.get(user.groups[i] ?? '');
      if (bucket === undefined) continue;
      // A binding can be found under several keys (a user and one of its groups, or a group the
      // user lists twice): remember what was visited only once a second bucket is met.
      if (first === undefined) first = bucket;
      else if (seen === undefined) seen = new Set(first.values());
      for (const b of bucket.values()) {
        if (seen !== undefined) {
          if (seen.has(b)) continue;
          seen.add(b);
        }
        if (!visit(b)) return false;
      }
    }
    return true;
  }

  list(): B[] {
    return [...this.byName.values()];
  }

  private forEachKey(binding: B, fn: (index: Map<string, Bucket<B>>, key: string) => void): void {
    for (const s of binding.subjects ?? []) {
      const k = subjectKey(s, this.namespace);
      if (k !== undefined) fn(k.group ? this.byGroup : this.byUser, k.name);
    }
  }
}

export class PolicyStore {
  private readonly clusterRoles = new Map<string, ClusterRole>();
  private readonly roles = new Map<string, Map<string, Role>>();
  private readonly clusterRoleBindings = new BindingIndex<ClusterRoleBinding>('');
  private readonly roleBindings = new Map<string, BindingIndex<RoleBinding>>();

  upsertClusterRole(role: ClusterRole): void {
    this.clusterRoles.set(nameOf(role), role);
  }

  removeClusterRole(name: string): void {
    this.clusterRoles.delete(name);
  }

  upsertRole(role: Role): void {
    const ns = role.metadata?.namespace ?? '';
    let m = this.roles.get(ns);
    if (m === undefined) this.roles.set(ns, (m = new Map()));
    m.set(nameOf(role), role);
  }

  removeRole(namespace: string, name: string): void {
    const m = this.roles.get(namespace);
    if (m === undefined) return;
    m.delete(name);
    if (m.size === 0) this.roles.delete(namespace);
  }

  upsertClusterRoleBinding(binding: ClusterRoleBinding): void {
    this.clusterRoleBindings.upsert(binding);
  }

  removeClusterRoleBinding(name: string): void {
    this.clusterRoleBindings.remove(name);
  }

  upsertRoleBinding(binding: RoleBinding): void {
    const ns = binding.metadata?.namespace ?? '';
    let index = this.roleBindings.get(ns);
    if (index === undefined) this.roleBindings.set(ns, (index = new BindingIndex<RoleBinding>(ns)));
    index.upsert(binding);
  }

  removeRoleBinding(namespace: string, name: string): void {
    const index = this.roleBindings.get(namespace);
    if (index === undefined) return;
    index.remove(name);
    if (index.size === 0) this.roleBindings.delete(namespace);
  }

  getClusterRole(name: string): ClusterRole | undefined {
    return this.clusterRoles.get(name);
  }

  getRole(namespace: string, name: string): Role | undefined {
    return this.roles.get(namespace)?.get(name);
  }

  /** Visits the ClusterRoleBindings that may name the user (appliesTo still decides); false when `visit` stopped. */
  visitClusterRoleBindingsFor(user: UserInfo, visit: (binding: ClusterRoleBinding) => boolean): boolean {
    return this.clusterRoleBindings.visitCandidates(user, visit);
  }

  /** Visits the RoleBindings of `namespace` that may name the user (appliesTo still decides); false when `visit` stopped. */
  visitRoleBindingsFor(user: UserInfo, namespace: string, visit: (binding: RoleBinding) => boolean): boolean {
    return this.roleBindings.get(namespace)?.visitCandidates(user, visit) ?? true;
  }

  /** Every ClusterRoleBinding (the subject locator asks who may do something: no user to index by). */
  listClusterRoleBindings(): ClusterRoleBinding[] {
    return this.clusterRoleBindings.list();
  }

  listRoleBindings(namespace: string): RoleBinding[] {
    return this.roleBindings.get(namespace)?.list() ?? [];
  }
}
