import type { RESTStrategy } from '../../../runtime/apimachinery/definition/strategy.js';
import type { FieldError } from '../../../runtime/apimachinery/validation/field.js';
import type { ObjectMeta } from '../../meta/v1/types.js';
import { markGoValidation } from '../../../runtime/apimachinery/validation/typed.js';
import { validateKubeFinalizerNames } from '../../core/v1/objectmeta-validation.js';
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
 * Like kube's, they check metadata with core's ObjectMeta rules (finalizer names), and an update
 * checks it twice: as ValidateX does, then as ValidateObjectMetaUpdate.
 */

const common = {
  validateName: validateRBACName,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
} as const;

/**
 * A kind's validate and validateUpdate from its ValidateX (`validateKind`, given the stored object
 * on update): ValidateX is core's ObjectMeta rules then the kind's own; ValidateXUpdate is
 * ValidateX, core's ObjectMetaUpdate rules again, then what only an update checks (`updateOnly`).
 */
function kubeValidation<T extends { metadata?: ObjectMeta }>(
  validateKind: (obj: T, old?: T) => FieldError[],
  updateOnly: (obj: T, old: T) => FieldError[] = () => [],
): { validate: (obj: T) => FieldError[]; validateUpdate: (obj: T, old: T) => FieldError[] } {
  const validateX = (obj: T, old?: T): FieldError[] => [...validateKubeFinalizerNames(obj.metadata), ...validateKind(obj, old)];
  return {
    validate: markGoValidation((obj: T) => validateX(obj)),
    validateUpdate: (obj: T, old: T) => [...validateX(obj, old), ...validateKubeFinalizerNames(obj.metadata), ...updateOnly(obj, old)],
  };
}

// kube prints Roles and ClusterRoles as its default convertor does: Name, Created At (RFC 3339).
export const RoleStrategy = {
  ...common,
  tablePrinter: { kind: 'default' },
  ...kubeValidation<Role>((role) => validateRole(role)),
} satisfies RESTStrategy<Role>;

export const ClusterRoleStrategy = {
  ...common,
  tablePrinter: { kind: 'default' },
  ...kubeValidation<ClusterRole>((role, old) => validateClusterRole(role, old === undefined ? {} : clusterRoleUpdateOptions(old))),
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
  ...kubeValidation<RoleBinding>(
    (b) => validateRoleBinding(b),
    (b, old) => validateRoleRefUnchanged(b.roleRef, old.roleRef),
  ),
  tablePrinter: { kind: 'handwritten', cells: bindingCells },
} satisfies RESTStrategy<RoleBinding>;

export const ClusterRoleBindingStrategy = {
  ...common,
  ...kubeValidation<ClusterRoleBinding>(
    (b) => validateClusterRoleBinding(b),
    (b, old) => validateRoleRefUnchanged(b.roleRef, old.roleRef),
  ),
  tablePrinter: { kind: 'handwritten', cells: bindingCells },
} satisfies RESTStrategy<ClusterRoleBinding>;
