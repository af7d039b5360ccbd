import type { ClusterRole, ClusterRoleBinding } from '../../../apis/rbac/v1/types.js';
import { isAlreadyExists, isNotFound } from '../../apimachinery/errors/index.js';
import { bootstrapPolicy, type BootstrapPolicy } from '../../authorization/rbac/bootstrap/index.js';
import { realClock } from '../../client/cache/index.js';
import { defaultRetryBackoff, retryOnConflict, type RESTClient } from '../../client/index.js';
import { modifiersFor, type Modifier, type Modifiers } from './modifiers.js';
import { reconcileRole, reconcileRoleBinding } from './reconcile.js';

/** kube-apiserver's post-start hook that applies the bootstrap policy; /readyz waits for it. */
export const BOOTSTRAP_ROLES_HOOK = 'rbac/bootstrap-roles';

const RBAC = 'rbac.authorization.k8s.io';

export interface EnsureBootstrapPolicyOptions {
  /** Default: bootstrapPolicy(). */
  readonly policy?: BootstrapPolicy;
  /** Between passes that failed somewhere (kube: 1 s). */
  readonly pollIntervalMs?: number;
  /** Gives up, failing the hook, after this long (kube: 30 s; the server does not start). */
  readonly timeoutMs?: number;
  /** A line per object created, updated or skipped and per failure; default stderr for failures and skips only. */
  readonly log?: (line: string) => void;
}

/**
 * kube's PolicyData.EnsureRBACPolicy: until a whole pass succeeds (every second, for at most
 * 30 s), check storage answers, migrate old non-aggregated admin/edit/view rules and the old
 * system:discovery subjects, then create or reconcile every bootstrap cluster role, cluster role
 * binding, and namespaced role and binding, retrying conflicts. A failure on one object does not
 * stop the others; the pass is then repeated. Rejects with `unable to initialize roles: …` when
 * the time is up, and stops quietly when `signal` aborts.
 */
export async function ensureBootstrapPolicy(rest: RESTClient, signal: AbortSignal, options: EnsureBootstrapPolicyOptions = {}): Promise<void> {
  const policy = options.policy ?? bootstrapPolicy();
  const log = options.log ?? ((line: string) => (line.startsWith('unable') || line.startsWith('skipped') ? process.stderr.write(`${line}\n`) : undefined));
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  while (!signal.aborted) {
    let last = 'some objects failed to reconcile';
    try {
      if (await ensurePass(modifiersFor(rest, signal), policy, log)) return;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
      log(`unable to initialize clusterroles: ${last}`);
    }
    if (Date.now() >= deadline) throw new Error(`unable to initialize roles: timed out waiting for the condition (${last})`);
    await realClock.sleep(options.pollIntervalMs ?? 1000, signal);
  }
}

/** One pass; true when every object reconciled. Throws when storage does not answer (the pass is retried). */
async function ensurePass(m: Modifiers, policy: BootstrapPolicy, log: (line: string) => void): Promise<boolean> {
  // make sure storage answers before reconciling anything
  await m.clusterRoles.get('', 'cluster-admin').catch(ignoreNotFound);
  await m.clusterRoleBindings.get('', 'cluster-admin').catch(ignoreNotFound);
  await primeAggregatedClusterRoles(policy.clusterRolesToAggregate, m.clusterRoles, log);
  await primeSplitClusterRoleBindings(policy.clusterRoleBindingsToSplit, m.clusterRoleBindings, log);

  let ok = true;
  const attempt = async (what: string, fn: () => Promise<void>): Promise<void> => {
    try {
      await retryOnConflict(defaultRetryBackoff, fn);
    } catch (err) {
      // don't fail on failures, try to create as many as possible
      log(`unable to reconcile ${what}: ${err instanceof Error ? err.message : String(err)}`);
      ok = false;
    }
  };
  // Objects of one kind are independent: they are reconciled concurrently, so the storage's
  // group commit takes their writes together and start-up does not pay one round trip each.
  await Promise.all(
    policy.clusterRoles.map((role) => {
      const what = `clusterrole.${RBAC}/${role.metadata?.name ?? ''}`;
      return attempt(what, async () => logRole(log, what, await reconcileRole(m.clusterRoles, role)));
    }),
  );
  await Promise.all(
    policy.clusterRoleBindings.map((binding) => {
      const what = `clusterrolebinding.${RBAC}/${binding.metadata?.name ?? ''}`;
      return attempt(what, async () => logBinding(log, what, await reconcileRoleBinding(m.clusterRoleBindings, binding)));
    }),
  );
  await Promise.all(
    [...policy.roles].flatMap(([namespace, roles]) =>
      roles.map((role) => {
        const what = `role.${RBAC}/${role.metadata?.name ?? ''} in ${namespace}`;
        return attempt(what, async () => logRole(log, what, await reconcileRole(m.roles, role)));
      }),
    ),
  );
  await Promise.all(
    [...policy.roleBindings].flatMap(([namespace, bindings]) =>
      bindings.map((binding) => {
        const what = `rolebinding.${RBAC}/${binding.metadata?.name ?? ''} in ${namespace}`;
        return attempt(what, async () => logBinding(log, what, await reconcileRoleBinding(m.roleBindings, binding)));
      }),
    ),
  );
  return ok;
}

function logRole(log: (line: string) => void, what: string, r: { operation: string; protected: boolean; missingRules: readonly unknown[] }): void {
  if (r.protected && r.operation !== 'none') log(`skipped reconcile-protected ${what} with missing permissions: ${JSON.stringify(r.missingRules)}`);
  else if (r.operation === 'update') log(`updated ${what} with additional permissions: ${JSON.stringify(r.missingRules)}`);
  else if (r.operation === 'create') log(`created ${what}`);
}

function logBinding(log: (line: string) => void, what: string, r: { operation: string; protected: boolean; missingSubjects: readonly unknown[] }): void {
  if (r.protected && r.operation !== 'none') log(`skipped reconcile-protected ${what} with missing subjects: ${JSON.stringify(r.missingSubjects)}`);
  else if (r.operation === 'update') log(`updated ${what} with additional subjects: ${JSON.stringify(r.missingSubjects)}`);
  else if (r.operation === 'create') log(`created ${what}`);
  else if (r.operation === 'recreate') log(`recreated ${what}`);
}

/**
 * primeAggregatedClusterRoles: when admin/edit/view exist without an aggregationRule (made
 * before aggregation) and their system:aggregate-to-* role does not, the old rules are copied
 * there first, so that nothing a cluster admin added to them is lost when they become aggregated.
 */
async function primeAggregatedClusterRoles(toAggregate: ReadonlyMap<string, string>, client: Modifier<ClusterRole>, log: (line: string) => void): Promise<void> {
  for (const [oldName, newName] of toAggregate) {
    if ((await client.get('', newName).catch(ignoreNotFound)) !== undefined) continue;
    const existing = await client.get('', oldName).catch(ignoreNotFound);
    if (existing === undefined) continue;
    // the old role already moved to an aggregated role: there are no custom rules to migrate
    if (existing.aggregationRule !== undefined) return;
    log(`migrating ${oldName} to ${newName}`);
    const copy: ClusterRole = { ...existing, metadata: { ...existing.metadata, name: newName } };
    delete copy.metadata?.resourceVersion;
    delete copy.metadata?.uid;
    delete copy.metadata?.creationTimestamp;
    await client.create(copy).catch((err: unknown) => ignoreAlreadyExists(err));
  }
}

/**
 * primeSplitClusterRoleBindings: a binding split out of an old one (system:public-info-viewer out
 * of system:discovery) starts with the old one's subjects, labels and annotations, so a cluster
 * keeps granting what it granted.
 */
async function primeSplitClusterRoleBindings(toSplit: ReadonlyMap<string, ClusterRoleBinding>, client: Modifier<ClusterRoleBinding>, log: (line: string) => void): Promise<void> {
  for (const [existingName, template] of toSplit) {
    const newName = template.metadata?.name ?? '';
    if ((await client.get('', newName).catch(ignoreNotFound)) !== undefined) continue;
    const existing = await client.get('', existingName).catch(ignoreNotFound);
    if (existing === undefined) continue;
    log(`copying subjects, labels and annotations of ${existingName} to ${newName}`);
    const created: ClusterRoleBinding = {
      ...template,
      metadata: { ...template.metadata, name: newName, labels: { ...existing.metadata?.labels }, annotations: { ...existing.metadata?.annotations } },
      subjects: existing.subjects ?? [],
    };
    await client.create(created).catch((err: unknown) => ignoreAlreadyExists(err));
  }
}

function ignoreNotFound(err: unknown): undefined {
  if (isNotFound(err)) return undefined;
  throw err;
}

function ignoreAlreadyExists(err: unknown): undefined {
  if (isAlreadyExists(err)) return undefined;
  throw err;
}
