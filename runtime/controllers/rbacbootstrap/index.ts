export { ensureBootstrapPolicy, BOOTSTRAP_ROLES_HOOK, type EnsureBootstrapPolicyOptions } from './ensure.js';
export { reconcileRole, reconcileRoleBinding } from './reconcile.js';
