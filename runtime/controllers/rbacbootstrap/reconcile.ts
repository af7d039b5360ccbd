import { isAlreadyExists, isConflict, isNotFound } from '../../apimachinery/errors/index.js';
import { computeReconciledRole, computeReconciledRoleBinding, roleBindingToCreate, roleToCreate } from '../../authorization/rbac/bootstrap/reconcile.js';
import type { ReconcileRoleBindingResult, ReconcileRoleResult, RoleBindingLike, RuleOwner } from '../../authorization/rbac/bootstrap/reconcile.js';
import type { Modifier } from './modifiers.js';

/**
 * kube's ReconcileRoleOptions.Run and ReconcileRoleBindingOptions.Run with Confirm: get the
 * existing object, compute what it must become, and write it — unless it is protected
 * (autoupdate "false"). An object created or deleted by someone else meanwhile re-runs the whole
 * reconciliation (at most 3 and 4 attempts); conflicts are the caller's to retry.
 */

export async function reconcileRole<T extends RuleOwner>(client: Modifier<T>, expected: T, removeExtraPermissions = false, attempts = 0): Promise<ReconcileRoleResult<T>> {
  if (attempts > 2) throw new Error('exceeded maximum attempts');
  const meta = expected.metadata ?? {};
  let result: ReconcileRoleResult<T>;
  try {
    const existing = await client.get(meta.namespace ?? '', meta.name ?? '');
    result = computeReconciledRole(existing, expected, removeExtraPermissions);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    result = roleToCreate(expected);
  }
  if (result.protected) return result;
  try {
    if (result.operation === 'create') return { ...result, role: await client.create(result.role) };
    if (result.operation === 'update') return { ...result, role: await client.update(result.role) };
  } catch (err) {
    // created since we looked (create) or deleted since (update): look again
    if ((result.operation === 'create' && isAlreadyExists(err)) || (result.operation === 'update' && isNotFound(err))) return reconcileRole(client, expected, removeExtraPermissions, attempts + 1);
    throw err;
  }
  return result;
}

export async function reconcileRoleBinding<T extends RoleBindingLike>(client: Modifier<T>, expected: T, removeExtraSubjects = false, attempts = 0): Promise<ReconcileRoleBindingResult<T>> {
  if (attempts > 3) throw new Error('exceeded maximum attempts');
  const meta = expected.metadata ?? {};
  let existing: T | undefined;
  let result: ReconcileRoleBindingResult<T>;
  try {
    existing = await client.get(meta.namespace ?? '', meta.name ?? '');
    result = computeReconciledRoleBinding(existing, expected, removeExtraSubjects);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    result = roleBindingToCreate(expected);
  }
  if (result.protected) return result;
  const again = (): Promise<ReconcileRoleBindingResult<T>> => reconcileRoleBinding(client, expected, removeExtraSubjects, attempts + 1);
  if (result.operation === 'recreate' && existing !== undefined) {
    // roleRef cannot change: delete the binding (only the one we saw), then create it anew
    try {
      await client.delete(existing.metadata?.namespace ?? '', existing.metadata?.name ?? '', existing.metadata?.uid);
    } catch (err) {
      if (isConflict(err)) return again();
      if (!isNotFound(err)) throw err;
    }
  }
  try {
    if (result.operation === 'create' || result.operation === 'recreate') return { ...result, roleBinding: await client.create(result.roleBinding) };
    if (result.operation === 'update') return { ...result, roleBinding: await client.update(result.roleBinding) };
  } catch (err) {
    if ((result.operation !== 'update' && isAlreadyExists(err)) || (result.operation === 'update' && isNotFound(err))) return again();
    throw err;
  }
  return result;
}
