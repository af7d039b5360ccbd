import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding, Subject } from '../../../apis/rbac/v1/types.js';
import type { UserInfo } from '../../apimachinery/request/types.js';
import { keysOfUser, subjectKey } from './subjects.js';

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

/** The bindings of one scope (the cluster, or one namespace), by name and by subject key. */
export class BindingIndex<B extends Binding> {
  private readonly byName = new Map<string, B>();
  private readonly bySubject = new Map<string, Map<string, B>>();

  /** `namespace`: the scope's namespace ('' for the cluster), which unqualified service accounts take. */
  constructor(private readonly namespace: string) {}

  get size(): number {
    return this.byName.size;
  }

  upsert(binding: B): void {
    const name = nameOf(binding);
    this.remove(name);
    this.byName.set(name, binding);
    for (const key of this.keysOf(binding)) {
      let bucket = this.bySubject.get(key);
      if (bucket === undefined) this.bySubject.set(key, (bucket = new Map()));
      bucket.set(name, binding);
    }
  }

  remove(name: string): void {
    const old = this.byName.get(name);
    if (old === undefined) return;
    this.byName.delete(name);
    for (const key of this.keysOf(old)) {
      const bucket = this.bySubject.get(key);
      if (bucket === undefined) continue;
      bucket.delete(name);
      if (bucket.size === 0) this.bySubject.delete(key);
    }
  }

  /**
   * The bindings that may apply to the user: those naming it, one of its groups, or its service
   * account; each once, those naming the user first, then by group in the user's order.
   */
  candidates(user: UserInfo): B[] {
    const out: B[] = [];
    let seen: Set<B> | undefined;
    let buckets = 0;
    for (const key of keysOfUser(user)) {
      const bucket = this.bySubject.get(key);
      if (bucket === undefined) continue;
      // A binding can be found under several keys (a user and one of its groups): deduplicate
      // only when a second bucket is met.
      if (++buckets === 2) seen = new Set(out);
      for (const b of bucket.values()) {
        if (seen === undefined) out.push(b);
        else if (!seen.has(b)) {
          seen.add(b);
          out.push(b);
        }
      }
    }
    return out;
  }

  list(): B[] {
    return [...this.byName.values()];
  }

  private keysOf(binding: B): Set<string> {
    const keys = new Set<string>();
    for (const s of binding.subjects ?? []) {
      const k = subjectKey(s, this.namespace);
      if (k !== undefined) keys.add(k);
    }
    return keys;
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

  /** The ClusterRoleBindings that may name the user (appliesTo still decides). */
  clusterRoleBindingsFor(user: UserInfo): ClusterRoleBinding[] {
    return this.clusterRoleBindings.candidates(user);
  }

  /** The RoleBindings of `namespace` that may name the user (appliesTo still decides). */
  roleBindingsFor(user: UserInfo, namespace: string): RoleBinding[] {
    return this.roleBindings.get(namespace)?.candidates(user) ?? [];
  }

  /** Every ClusterRoleBinding (the subject locator asks who may do something: no user to index by). */
  listClusterRoleBindings(): ClusterRoleBinding[] {
    return this.clusterRoleBindings.list();
  }

  listRoleBindings(namespace: string): RoleBinding[] {
    return this.roleBindings.get(namespace)?.list() ?? [];
  }
}
