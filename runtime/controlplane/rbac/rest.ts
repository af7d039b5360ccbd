import type { ClusterRole, ClusterRoleBinding, PolicyRule, Role, RoleBinding } from '../../../apis/rbac/v1/types.js';
import { newBadRequest, newForbidden, type GroupResource } from '../../apimachinery/errors/index.js';
import type { Authorizer, PolicyRuleResolver } from '../../apimachinery/request/authorizer.js';
import { bindingAuthorized, confirmNoEscalation, escalationAllowed, roleEscalationAuthorized } from '../../authorization/rbac/escalation.js';
import { GroupName } from '../../authorization/rbac/resolver.js';
import { withVerbs, type KubeObject, type RequestContext, type ResourceStorage, type StandardStorage, type UpdatedObjectInfo } from '../../registry/rest.js';
import type { RESTOverrideContext, RESTStorageOverride } from '../../registry/types.js';
import { isOnlyMutatingGCFields } from './gc-fields.js';

/**
 * RBAC's policybased REST storages (pkg/registry/rbac/{role,clusterrole,rolebinding,
 * clusterrolebinding}/policybased): the generic store, except that a create or update is
 * forbidden when it would grant the requesting user permissions they do not hold. Roles: the
 * user must hold every rule (or be allowed `escalate` on the role); bindings: the user must hold
 * every rule of the referenced role (or be allowed `bind` on it). Members of system:masters
 * always may; an update that only changes owner references and finalizers (the garbage
 * collector's) is not checked. Reads and deletes are the generic store's.
 */

/** The checks of one kind: whether the request skips them, and the check of the object written. */
interface EscalationChecks {
  /** True when the user may write anything of the kind (checked once per request). */
  bypass(ctx: RequestContext): Promise<boolean>;
  /** Throws Forbidden (or the resolver's error) when writing `obj` over `old` would escalate. */
  check(ctx: RequestContext, obj: KubeObject, old: KubeObject | undefined): Promise<void>;
}

/** What the four storages are built from: the server's authorizer and RBAC's rule resolver. */
export interface PolicyBasedDeps {
  readonly authorizer: Authorizer;
  readonly resolver: PolicyRuleResolver;
}

const ROLES: GroupResource = { group: GroupName, resource: 'roles' };
const CLUSTER_ROLES: GroupResource = { group: GroupName, resource: 'clusterroles' };
const ROLE_BINDINGS: GroupResource = { group: GroupName, resource: 'rolebindings' };
const CLUSTER_ROLE_BINDINGS: GroupResource = { group: GroupName, resource: 'clusterrolebindings' };

/** `*` on everything: what setting or changing an aggregationRule needs, since it can gather any rule. */
const FULL_AUTHORITY: readonly PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

/** The REST override of a kind of rbac.authorization.k8s.io; refuses to install without the server's authorization. */
export function policyBasedOverride(kind: 'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding'): (ctx: RESTOverrideContext) => RESTStorageOverride {
  return ({ storages, auth }) => {
    if (auth === undefined)
      throw new Error(`${kind} storage needs the server's authorizer and RBAC rule resolver (escalation prevention); rbac.authorization.k8s.io is served by the control plane only`);
    const deps: PolicyBasedDeps = { authorizer: auth.authorizer, resolver: auth.policyRuleResolver };
    return { storages: withEscalationChecks(storages, CHECKS[kind](deps)) };
  };
}

const CHECKS: Readonly<Record<'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding', (deps: PolicyBasedDeps) => EscalationChecks>> = {
  Role: roleChecks,
  ClusterRole: clusterRoleChecks,
  RoleBinding: roleBindingChecks,
  ClusterRoleBinding: clusterRoleBindingChecks,
};

/** Role: every rule held in the role's namespace, unless allowed `escalate`. */
export function roleChecks({ authorizer, resolver }: PolicyBasedDeps): EscalationChecks {
  return {
    bypass: async (ctx) => escalationAllowed(ctx.user) || (await roleEscalationAuthorized(ctx.user, ctx.requestInfo, authorizer)),
    check: async (ctx, obj, old) => {
      if (isOnlyMutatingGCFields(obj, old)) return;
      const role = obj as unknown as Role;
      await refuseEscalation(ROLES, nameOf(obj), ctx, role.rules ?? [], resolver);
    },
  };
}

/** ClusterRole: as a Role, and an aggregationRule (set now or before) needs full authority. */
export function clusterRoleChecks({ authorizer, resolver }: PolicyBasedDeps): EscalationChecks {
  return {
    bypass: async (ctx) => escalationAllowed(ctx.user) || (await roleEscalationAuthorized(ctx.user, ctx.requestInfo, authorizer)),
    check: async (ctx, obj, old) => {
      if (isOnlyMutatingGCFields(obj, old)) return;
      const role = obj as unknown as ClusterRole;
      await refuseEscalation(CLUSTER_ROLES, nameOf(obj), ctx, role.rules ?? [], resolver);
      if (!hasAggregationRule(role) && !(old !== undefined && hasAggregationRule(old as unknown as ClusterRole))) return;
      if ((await confirmNoEscalation(ctx.user, ctx.namespace, FULL_AUTHORITY, resolver)) !== undefined) {
        throw newForbidden(CLUSTER_ROLES, nameOf(obj), 'must have cluster-admin privileges to use the aggregationRule');
      }
    },
  };
}

function hasAggregationRule(role: ClusterRole): boolean {
  return (role.aggregationRule?.clusterRoleSelectors?.length ?? 0) > 0;
}

/** RoleBinding: the rules of the referenced role held in the binding's namespace, unless allowed `bind` on it there. */
export function roleBindingChecks(deps: PolicyBasedDeps): EscalationChecks {
  return bindingChecks(ROLE_BINDINGS, deps, (ctx) => {
    // The namespace of the URL: the object's may still be empty before the store fills it in.
    if (ctx.namespace === '') throw newBadRequest('namespace is required');
    return ctx.namespace;
  });
}

/** ClusterRoleBinding: the rules of the referenced cluster role held cluster-wide, unless allowed `bind` on it. */
export function clusterRoleBindingChecks(deps: PolicyBasedDeps): EscalationChecks {
  return bindingChecks(CLUSTER_ROLE_BINDINGS, deps, () => '');
}

function bindingChecks(gr: GroupResource, { authorizer, resolver }: PolicyBasedDeps, namespaceOf: (ctx: RequestContext) => string): EscalationChecks {
  return {
    bypass: (ctx) => Promise.resolve(escalationAllowed(ctx.user)),
    check: async (ctx, obj, old) => {
      const namespace = namespaceOf(ctx);
      if (isOnlyMutatingGCFields(obj, old)) return;
      const { roleRef } = obj as unknown as RoleBinding | ClusterRoleBinding;
      if (await bindingAuthorized(ctx.user, roleRef, namespace, authorizer)) return;
      // A missing role is the resolver's NotFound, as kube answers it.
      const rules = await resolver.getRoleReferenceRules(roleRef, namespace);
      await refuseEscalation(gr, nameOf(obj), ctx, rules, resolver);
    },
  };
}

async function refuseEscalation(gr: GroupResource, name: string, ctx: RequestContext, rules: readonly PolicyRule[], resolver: PolicyRuleResolver): Promise<void> {
  const reason = await confirmNoEscalation(ctx.user, ctx.namespace, rules, resolver);
  if (reason !== undefined) throw newForbidden(gr, name, reason);
}

function nameOf(obj: KubeObject): string {
  return obj.metadata?.name ?? '';
}

/**
 * The generic storages with the checks before a create and inside an update (on the object the
 * update computes from the stored one, at each retry), skipped for a request that may bypass them.
 */
export function withEscalationChecks(storages: ResourceStorage, checks: EscalationChecks): ResourceStorage {
  const main = storages.main;
  const create: StandardStorage['create'] = async (ctx, obj, validate, opts) => {
    if (!(await checks.bypass(ctx))) await checks.check(ctx, obj, undefined);
    return main.create(ctx, obj, validate, opts);
  };
  const update: StandardStorage['update'] = async (ctx, name, objInfo, validate, opts) => {
    if (await checks.bypass(ctx)) return main.update(ctx, name, objInfo, validate, opts);
    const nonEscalating: UpdatedObjectInfo = {
      preconditions: () => objInfo.preconditions(),
      updatedObject: async (c, old) => {
        const obj = await objInfo.updatedObject(c, old);
        await checks.check(c, obj, old);
        return obj;
      },
    };
    return main.update(ctx, name, nonEscalating, validate, opts);
  };
  return withVerbs(storages, { create, update });
}
