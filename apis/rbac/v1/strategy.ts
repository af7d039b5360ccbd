import type { RESTStrategy } from '../../../runtime/apimachinery/definition/strategy.js';
import { markGoValidation } from '../../../runtime/apimachinery/validation/typed.js';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding, RoleRef, Subject } from './types.js';
import {
  clusterRoleUpdateOptions,
  GROUP_KIND,
  SERVICE_ACCOUNT_KIND,
  USER_KIND,
  validateClusterRole,
  validateClusterRoleBinding,
  validateRBACName,
  validateRole,
  validateRoleBinding,
  validateRoleRefUnchanged,
} from './validation.js';

/**
 * kube's RBAC strategies (pkg/registry/rbac/{role,clusterrole,rolebinding,clusterrolebinding}/
 * strategy.go): names are path segments (validateRBACName), PUT may create (the bootstrap
 * policy is reconciled that way) and may omit resourceVersion. Who may write what is decided
 * by the REST storage (escalation prevention, runtime/controlplane/rbac), not here. The
 * validation functions are kube's whole validation of these kinds (markGoValidation): the
 * generated schema's checks do not run before them, so every error is worded as kube words it.
 */

const common = {
  validateName: validateRBACName,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
} as const;

// kube prints Roles and ClusterRoles as its default convertor does: Name, Created At (RFC 3339).
export const RoleStrategy = {
  ...common,
  tablePrinter: { kind: 'default' },
  validate: markGoValidation((role: Role) => validateRole(role)),
  validateUpdate: (role: Role) => validateRole(role),
} satisfies RESTStrategy<Role>;

export const ClusterRoleStrategy = {
  ...common,
  tablePrinter: { kind: 'default' },
  validate: markGoValidation((role: ClusterRole) => validateClusterRole(role)),
  validateUpdate: (role: ClusterRole, old: ClusterRole) => validateClusterRole(role, clusterRoleUpdateOptions(old)),
} satisfies RESTStrategy<ClusterRole>;

/** kube's printRoleBinding: the role as `Kind/name`; wide: users, groups and service accounts (`namespace/name`), comma-separated. */
const bindingCells = {
  Role: (b: { roleRef?: RoleRef }) => `${b.roleRef?.kind ?? ''}/${b.roleRef?.name ?? ''}`,
  Users: (b: { subjects?: Subject[] }) => subjectNames(b.subjects, USER_KIND),
  Groups: (b: { subjects?: Subject[] }) => subjectNames(b.subjects, GROUP_KIND),
  ServiceAccounts: (b: { subjects?: Subject[] }) => subjectNames(b.subjects, SERVICE_ACCOUNT_KIND),
};

/** rbac.SubjectsStrings: a service account is shown as `namespace/name`. */
function subjectNames(subjects: readonly Subject[] | undefined, kind: string): string {
  return (subjects ?? [])
    .filter((s) => s.kind === kind)
    .map((s) => (kind === SERVICE_ACCOUNT_KIND ? `${s.namespace ?? ''}/${s.name}` : s.name))
    .join(', ');
}

export const RoleBindingStrategy = {
  ...common,
  validate: markGoValidation((b: RoleBinding) => validateRoleBinding(b)),
  validateUpdate: (b: RoleBinding, old: RoleBinding) => [...validateRoleBinding(b), ...validateRoleRefUnchanged(b.roleRef, old.roleRef)],
  tablePrinter: { kind: 'handwritten', cells: bindingCells },
} satisfies RESTStrategy<RoleBinding>;

export const ClusterRoleBindingStrategy = {
  ...common,
  validate: markGoValidation((b: ClusterRoleBinding) => validateClusterRoleBinding(b)),
  validateUpdate: (b: ClusterRoleBinding, old: ClusterRoleBinding) => [...validateClusterRoleBinding(b), ...validateRoleRefUnchanged(b.roleRef, old.roleRef)],
  tablePrinter: { kind: 'handwritten', cells: bindingCells },
} satisfies RESTStrategy<ClusterRoleBinding>;
