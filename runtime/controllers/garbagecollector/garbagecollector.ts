import type { DeletionPropagation } from '../../../apis/meta/v1/options.js';
import type { OwnerReference } from '../../../apis/meta/v1/types.js';
import type { Logger } from '../../client/cache/index.js';
import { RateLimitingQueue, runController, type ReconcileResult } from '../../client/workqueue/index.js';
import { finalizerDeleteDependents, finalizerOrphanDependents } from '../../registry/generic/delete.js';
import type { KubeObject } from '../../registry/rest.js';
import type { GraphNode } from './graph.js';
import { GraphBuilder } from './graph-builder.js';
import { metadataOf } from './metadata.js';
import { Monitors } from './monitors.js';
import { Operations, UnresolvableKindError, type ContextFunc, type ServedResources } from './operations.js';

export interface GarbageCollectorOptions {
  /** The served resources, CRDs' included, as they come and go (the ResourceRegistry). */
  readonly resources: ServedResources;
  /** A context for the collector's own calls, in a namespace. */
  readonly context: ContextFunc;
  /** How often the monitors are brought in line with the served resources. Default 1 s. */
  readonly monitorSyncPeriodMs?: number;
  /** How often every observed object is looked at again, to repair missed events. Default 5 min. */
  readonly resyncPeriodMs?: number;
  /** Concurrent attempt-to-delete workers (kube's --concurrent-gc-syncs). Default 4. */
  readonly workers?: number;
  /** Every failed attempt, before its rate-limited retry. Default: a line on stderr. */
  readonly onError?: (item: string, err: unknown) => void;
  readonly logger?: Logger;
}

/**
 * The garbage collector (pkg/controller/garbagecollector): monitors follow every served
 * resource and keep the owner graph; one queue deletes dependents whose owners are all gone
 * and finishes foreground deletions, another orphans the dependents of owners deleted with
 * the `orphan` finalizer. Workers start once the monitors have synced, and wait again while
 * a new resource's monitor syncs.
 */
export class GarbageCollector {
  private readonly stopController = new AbortController();
  private readonly attemptToDeleteQueue = new RateLimitingQueue<GraphNode>();
  private readonly attemptToOrphanQueue = new RateLimitingQueue<GraphNode>();
  private readonly builder: GraphBuilder;
  private readonly monitors: Monitors;
  private readonly operations: Operations;
  private syncTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly opts: GarbageCollectorOptions) {
    this.builder = new GraphBuilder({
      attemptToDelete: (n) => this.attemptToDeleteQueue.add(n),
      attemptToOrphan: (n) => this.attemptToOrphanQueue.add(n),
    });
    this.monitors = new Monitors({
      resources: opts.resources,
      context: opts.context,
      builder: this.builder,
      resyncPeriodMs: opts.resyncPeriodMs ?? 5 * 60_000,
      ...(opts.logger !== undefined ? { logger: opts.logger } : {}),
    });
    this.operations = new Operations({ resources: opts.resources, context: opts.context, signal: this.stopController.signal });
  }

  /** Starts monitors and workers; returns at once. Idempotent. */
  start(): void {
    if (this.running !== undefined || this.stopController.signal.aborted) return;
    this.monitors.sync();
    this.syncTimer = setInterval(() => this.monitors.sync(), this.opts.monitorSyncPeriodMs ?? 1000);
    this.syncTimer.unref();
    const signal = this.stopController.signal;
    const onError = this.opts.onError ?? ((item: string, err: unknown) => process.stderr.write(`garbagecollector: ${item}: ${err instanceof Error ? err.message : String(err)}\n`));
    this.running = Promise.all([
      runController({
        queue: this.attemptToDeleteQueue,
        signal,
        workers: this.opts.workers ?? 4,
        reconcile: (node) => this.whenSynced(() => this.attemptToDeleteItem(node)),
        onError: (node, err) => onError(`attempt to delete ${String(node)}`, err),
      }),
      runController({
        queue: this.attemptToOrphanQueue,
        signal,
        reconcile: (node) => this.whenSynced(() => this.attemptToOrphan(node)),
        onError: (node, err) => onError(`attempt to orphan dependents of ${String(node)}`, err),
      }),
    ]).then(() => undefined);
  }

  /** Stops workers (the items in progress finish), monitors and the sync timer. Idempotent. */
  async stop(): Promise<void> {
    this.stopController.abort();
    clearInterval(this.syncTimer);
    this.syncTimer = undefined;
    this.attemptToDeleteQueue.shutDown();
    this.attemptToOrphanQueue.shutDown();
    await this.running;
    await this.monitors.stop();
  }

  /** The graph's size: nodes observed or named as owners (for tests and debugging). */
  graphSize(): number {
    return this.builder.graph.size;
  }

  /** Runs `fn` once every monitor has synced: acting on a partial graph could orphan too few or delete too much. */
  private async whenSynced(fn: () => Promise<ReconcileResult | void>): Promise<ReconcileResult | void> {
    if (!(await this.monitors.synced(this.stopController.signal))) return undefined;
    try {
      return await fn();
    } catch (err) {
      // A kind not served (yet: its CRD may come) is retried with backoff but not reported,
      // as kube keeps REST-mapping failures out of its error log.
      if (err instanceof UnresolvableKindError) return { requeue: true };
      throw err;
    }
  }

  /**
   * attemptToDeleteItem: verifies a virtual node, finishes a foreground deletion, or deletes
   * an object whose owners are all gone (live reads decide, never the graph alone).
   */
  private async attemptToDeleteItem(node: GraphNode): Promise<ReconcileResult | void> {
    if (this.builder.graph.get(node.identity.uid) !== node) return undefined; // forgotten meanwhile
    if (!node.virtual && node.beingDeleted && !node.deletingDependents) return undefined;
    const latest = await this.operations.get(node.identity);
    if (latest === undefined) {
      // Not there (or another object has its name): whatever named it as owner must be checked.
      if (node.virtual) this.builder.removeNode(node);
      return undefined;
    }
    // The API server has it but no monitor has seen it yet: look again later.
    if (node.virtual) return { requeue: true };
    if (isDeletingDependents(latest)) return this.processDeletingDependents(node);

    const owners = metadataOf(latest).metadata.ownerReferences ?? [];
    if (owners.length === 0) return undefined;
    const { solid, dangling, waiting } = await this.classifyReferences(node, owners);
    if (solid.length > 0) {
      // A live owner keeps it; references to owners gone or deleting in foreground are dropped.
      const drop = new Set([...dangling, ...waiting].map((r) => r.uid));
      if (drop.size > 0) await this.operations.removeOwnerReferences(node.identity, drop);
      return undefined;
    }
    if (waiting.length > 0 && node.dependents.size > 0) {
      // Its owner waits in foreground and it has dependents: it is deleted in foreground too.
      // A dependent that also deletes in foreground could wait for it in a cycle: unblock first.
      if ([...node.dependents].some((d) => d.deletingDependents)) {
        await this.operations.unblockOwnerReferences(node.identity, new Set(waiting.map((r) => r.uid)));
      }
      await this.operations.delete(node.identity, 'Foreground');
      return undefined;
    }
    await this.operations.delete(node.identity, propagationFor(latest));
    return undefined;
  }

  /** solid: owner exists; dangling: absent (or another uid); waiting: being deleted in foreground. */
  private async classifyReferences(node: GraphNode, refs: readonly OwnerReference[]): Promise<{ solid: OwnerReference[]; dangling: OwnerReference[]; waiting: OwnerReference[] }> {
    const solid: OwnerReference[] = [];
    const dangling: OwnerReference[] = [];
    const waiting: OwnerReference[] = [];
    for (const ref of refs) {
      const owner = await this.operations.get({ group: groupOf(ref.apiVersion), kind: ref.kind, namespace: node.identity.namespace, name: ref.name, uid: ref.uid });
      if (owner === undefined) dangling.push(ref);
      else if (isDeletingDependents(owner)) waiting.push(ref);
      else solid.push(ref);
    }
    return { solid, dangling, waiting };
  }

  /**
   * An owner deleting in foreground: its finalizer goes once no dependent blocks it; until
   * then the blocking dependents are (re)attempted, and their deletions requeue the owner.
   */
  private async processDeletingDependents(node: GraphNode): Promise<void> {
    const blocking = node.blockingDependents();
    if (blocking.length === 0) {
      await this.operations.removeFinalizer(node.identity, finalizerDeleteDependents);
      return;
    }
    for (const dep of blocking) if (!dep.deletingDependents) this.attemptToDeleteQueue.add(dep);
  }

  /** attemptToOrphanWorker: drop the owner's references from its dependents, then its `orphan` finalizer. */
  private async attemptToOrphan(node: GraphNode): Promise<void> {
    if (this.builder.graph.get(node.identity.uid) !== node) return;
    const latest = await this.operations.get(node.identity);
    const meta = latest === undefined ? undefined : metadataOf(latest).metadata;
    if (meta?.deletionTimestamp === undefined || !(meta.finalizers ?? []).includes(finalizerOrphanDependents)) return;
    const owner = new Set([node.identity.uid]);
    for (const dep of [...node.dependents]) await this.operations.removeOwnerReferences(dep.identity, owner);
    await this.operations.removeFinalizer(node.identity, finalizerOrphanDependents);
  }
}

function isDeletingDependents(obj: KubeObject): boolean {
  const m = metadataOf(obj).metadata;
  return m.deletionTimestamp !== undefined && (m.finalizers ?? []).includes(finalizerDeleteDependents);
}

/** The policy an object's own finalizers ask for, Background otherwise (kube's default case). */
function propagationFor(obj: KubeObject): DeletionPropagation {
  const finalizers = metadataOf(obj).metadata.finalizers ?? [];
  if (finalizers.includes(finalizerOrphanDependents)) return 'Orphan';
  if (finalizers.includes(finalizerDeleteDependents)) return 'Foreground';
  return 'Background';
}

function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}
