import type { ClusterRole, PolicyRule } from '../../../apis/rbac/v1/types.js';
import { RbacV1Client } from '../../../generated/clientset/rbac/v1/index.js';
import type { ClusterRoleInterface } from '../../../generated/clientset/rbac/v1/index.js';
import { type ClusterRoleInformer, newClusterRoleInformer } from '../../../generated/informers/rbac/v1/clusterrole.js';
import { labelSelectorAsSelector } from '../../apimachinery/labels/index.js';
import { semanticDeepEqual } from '../../apimachinery/serializer/semantic.js';
import { deepCopy, ListerNotFoundError, runController, waitForCacheSync } from '../../client/index.js';
import type { DeepReadonly, RESTClient, SharedInformerFactoryCore } from '../../client/index.js';
import { QueueWorker } from '../worker.js';

export interface ClusterRoleAggregationControllerOptions {
  /** Where the controller's writes go: its own identity (system:controller:clusterrole-aggregation-controller). */
  readonly rest: RESTClient;
  /**
   * A shared informer factory to take the ClusterRole informer from (its owner starts and stops
   * it, as kube-controller-manager's shared informers); absent: the controller runs its own over
   * `rest`.
   */
  readonly informers?: { readonly factory: SharedInformerFactoryCore; readonly rest: RESTClient };
  /** Sync errors before the retry; default a line on stderr (utilruntime.HandleError). */
  readonly onError?: (key: string, err: unknown) => void;
}

/**
 * kube's ClusterRoleAggregationController (pkg/controller/clusterroleaggregation): the rules of a
 * ClusterRole with an aggregationRule are the rules of the cluster roles its selectors match
 * (each selector's roles in name order, itself excluded), each rule once, in that order. Any
 * change to any cluster role requeues every aggregated one, since a role may be aggregated into
 * another aggregated role (view into edit into admin). kube writes the rules with server-side
 * apply and falls back to an update when apply is unsupported, as it is here: an update of the
 * cached object (with its resourceVersion); a conflict is retried by the queue, the informer by
 * then holding the newer object.
 */
export class ClusterRoleAggregationController {
  private readonly clusterRoles: ClusterRoleInterface;
  private readonly informer: ClusterRoleInformer;
  private readonly worker: QueueWorker<string>;

  constructor(private readonly o: ClusterRoleAggregationControllerOptions) {
    this.clusterRoles = new RbacV1Client(o.rest).clusterroles();
    this.worker = new QueueWorker(o.informers?.factory);
    const listWatchClient = new RbacV1Client(o.informers?.rest ?? o.rest);
    this.informer = newClusterRoleInformer(this.worker.factory, { rbacV1: () => listWatchClient });
    const enqueue = (): void => this.enqueue();
    this.informer.informer().addEventHandler({ onAdd: enqueue, onUpdate: enqueue, onDelete: enqueue });
  }

  /** Starts the informer (when it is the controller's own) and the worker. */
  start(): void {
    this.worker.start((signal) => this.run(signal));
  }

  /** Stops the worker (a sync in progress finishes) and the controller's own informer. */
  stop(): Promise<void> {
    return this.worker.stop();
  }

  /** The ClusterRole informer the controller reads (shared with whoever gave the factory). */
  clusterRoleInformer(): ClusterRoleInformer {
    return this.informer;
  }

  private async run(signal: AbortSignal): Promise<void> {
    const informer = this.informer.informer();
    if (!(await waitForCacheSync(signal, [() => informer.hasSynced()]))) return;
    const onError = this.o.onError ?? ((key: string, err: unknown) => process.stderr.write(`ClusterRoleAggregator: ${key} failed with : ${err instanceof Error ? err.message : String(err)}\n`));
    await runController({ queue: this.worker.queue, signal, reconcile: (name) => this.syncClusterRole(name), onError });
  }

  /**
   * Every aggregated cluster role (kube: the set of cluster roles is small and the dependency
   * graph unknown, so everything is queued each time; errors are retried per role).
   */
  private enqueue(): void {
    for (const role of this.informer.lister().list()) {
      if (role.aggregationRule !== undefined && role.metadata?.name !== undefined) this.worker.queue.add(role.metadata.name);
    }
  }

  /** syncClusterRole: writes the aggregated rules of the cluster role `name` when they differ. */
  async syncClusterRole(name: string): Promise<void> {
    const shared = this.cached(name);
    if (shared?.aggregationRule === undefined) return;
    const rules = aggregatedRules(shared, (selector) => this.informer.lister().list(selector));
    if (semanticDeepEqual(rules, shared.rules ?? [])) return;
    const updated = deepCopy(shared) as ClusterRole;
    if (rules.length > 0) updated.rules = rules;
    else delete updated.rules;
    await this.clusterRoles.update(updated);
  }

  private cached(name: string): DeepReadonly<ClusterRole> | undefined {
    try {
      return this.informer.lister().get(name);
    } catch (err) {
      if (err instanceof ListerNotFoundError) return undefined;
      throw err;
    }
  }
}

type Selector = ReturnType<typeof labelSelectorAsSelector>;

/**
 * The union of the rules of the cluster roles `role`'s selectors match: selector by selector,
 * roles by name, rules in their order, each rule once (semantic equality). A selector that does
 * not convert (an unknown operator, an invalid label) throws: the sync fails and is retried, as kube's.
 */
export function aggregatedRules(role: DeepReadonly<ClusterRole>, list: (selector: Selector) => readonly DeepReadonly<ClusterRole>[]): PolicyRule[] {
  const rules: PolicyRule[] = [];
  for (const labelSelector of role.aggregationRule?.clusterRoleSelectors ?? []) {
    const matched = [...list(labelSelectorAsSelector(deepCopy(labelSelector)))].sort((a, b) => byName(a.metadata?.name ?? '', b.metadata?.name ?? ''));
    for (const other of matched) {
      if (other.metadata?.name === role.metadata?.name) continue;
      for (const rule of other.rules ?? []) {
        if (!rules.some((r) => semanticDeepEqual(r, rule))) rules.push(deepCopy(rule) as PolicyRule);
      }
    }
  }
  return rules;
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
