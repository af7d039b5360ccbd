import type { ClusterRoleBinding, RoleBinding, Subject } from './types.js';
import { GROUP_KIND, GROUP_NAME, USER_KIND } from './validation.js';

/**
 * kube's rbac/v1 defaults (SetDefaults_RoleBinding, SetDefaults_ClusterRoleBinding,
 * SetDefaults_Subject): a roleRef without apiGroup is of this group, and a User or Group subject
 * without apiGroup is too (a ServiceAccount's stays ''), so manifests that leave them out
 * validate. Mutate in place.
 */

export function setRoleBindingDefaults(obj: RoleBinding): void {
  setBindingDefaults(obj);
}

export function setClusterRoleBindingDefaults(obj: ClusterRoleBinding): void {
  setBindingDefaults(obj);
}

function setBindingDefaults(obj: RoleBinding | ClusterRoleBinding): void {
  if (obj.roleRef !== undefined && obj.roleRef !== null && (obj.roleRef.apiGroup ?? '') === '') obj.roleRef.apiGroup = GROUP_NAME;
  for (const s of obj.subjects ?? []) setSubjectDefaults(s);
}

function setSubjectDefaults(s: Subject): void {
  if ((s.apiGroup ?? '') !== '') return;
  if (s.kind === USER_KIND || s.kind === GROUP_KIND) s.apiGroup = GROUP_NAME;
}
