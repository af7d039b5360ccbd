import { aggregateMessage as aggregate } from '../../apimachinery/errors/aggregate.js';
import type { CustomResourceDefinition, CustomResourceDefinitionCondition } from '../../../apis/apiextensions/v1/types.js';
import { isConflict, isNotFound } from '../../apimachinery/errors/index.js';
import { RateLimitingQueue, runController } from '../../client/index.js';
import { servedNames } from '../apihelpers.js';
import { crdKey, CUSTOM_RESOURCE_CLEANUP_FINALIZER, ESTABLISHED, hasFinalizer, isBeingDeleted, isConditionTrue, mutableCopy, removeCondition, setCondition, TERMINATING } from './conditions.js';
import { getCRD, onErrorOf, type CachedCRD, type CRDControllerDeps } from './deps.js';
import type { CustomResourceInstances } from './instances.js';

/** Built-in resources stored where a CRD of the same name would be: deleting the CRD must not touch them. */
const OVERLAPPING_BUILT_IN: ReadonlySet<string> = new Set(['apiservices.apiregistration.k8s.io', 'customresourcedefinitions.apiextensions.k8s.io']);

export interface FinalizerControllerOptions extends CRDControllerDeps {
  /** The instances of a CRD (restInstances over the loopback client in the control plane). */
  readonly instances: (crd: CustomResourceDefinition) => CustomResourceInstances;
  /** How often to look whether the instances are gone after deleting them; default 1 s (the first look is at once). */
  readonly pollIntervalMs?: number;
  /** How long to wait for them before failing (and retrying); default 60 s. */
  readonly pollTimeoutMs?: number;
  /** Concurrent CRDs being finalized; default 5. */
  readonly workers?: number;
}

/**
 * The CRD finalizer (apiextensions' finalizer.CRDFinalizer): for a CRD being deleted that holds
 * the cleanup finalizer, sets Terminating=True/InstanceDeletionInProgress (the handler then
 * refuses creates and discovery drops the write verbs), deletes every instance namespace by
 * namespace, waits until none is left, records the outcome in Terminating and removes the
 * finalizer, which lets the store delete the CRD. A failure is written to Terminating and
 * retried with the queue's backoff.
 */
export class FinalizerController {
  private readonly queue = new RateLimitingQueue<string>();

  constructor(private readonly o: FinalizerControllerOptions) {
    const consider = (crd: CachedCRD): void => {
      if (needsFinalizing(crd)) this.queue.add(crdKey(crd));
    };
    o.informer.informer().addEventHandler({
      onAdd: consider,
      onUpdate: (old, crd) => {
        // Not for changes of Terminating alone: those are this controller's own writes.
        if (old.metadata?.resourceVersion === crd.metadata?.resourceVersion || !sameButTerminating(old, crd)) consider(crd);
      },
    });
  }

  /** Reconciles until `signal` aborts; the informer must have synced. */
  run(signal: AbortSignal): Promise<void> {
    return runController({
      queue: this.queue,
      signal,
      workers: this.o.workers ?? 5,
      reconcile: (key, s) => this.sync(key, s),
      onError: onErrorOf(this.o, 'CRDFinalizer'),
    });
  }

  private async sync(name: string, signal: AbortSignal): Promise<void> {
    const cached = getCRD(this.o, name);
    if (cached === undefined || !needsFinalizing(cached)) return;
    const inProgress = mutableCopy(cached);
    setCondition(inProgress, terminating('True', 'InstanceDeletionInProgress', 'CustomResource deletion is in progress'), this.now());
    let crd = await this.write(() => this.o.crds.updateStatus(inProgress, { signal }));
    if (crd === undefined) return;

    const { plural } = servedNames(crd);
    let outcome: CustomResourceDefinitionCondition;
    if (OVERLAPPING_BUILT_IN.has(`${plural}.${crd.spec.group}`)) {
      outcome = terminating('False', 'OverlappingBuiltInResource', 'instances overlap with built-in resources in storage');
    } else if (isConditionTrue(crd, ESTABLISHED)) {
      const result = await this.deleteInstances(crd, signal);
      if (result.error !== undefined) {
        const failed = mutableCopy(crd);
        setCondition(failed, result.condition, this.now());
        await this.o.crds.updateStatus(failed, { signal }).catch(() => undefined);
        throw result.error;
      }
      outcome = result.condition;
    } else {
      outcome = terminating('False', 'NeverEstablished', 'resource was never established');
    }

    const done = mutableCopy(crd);
    setCondition(done, outcome, this.now());
    crd = await this.write(() => this.o.crds.updateStatus(done, { signal }));
    if (crd === undefined) return;
    // The status subresource keeps metadata as stored: the finalizer goes through the main resource.
    const released = mutableCopy(crd);
    released.metadata!.finalizers = (released.metadata?.finalizers ?? []).filter((f) => f !== CUSTOM_RESOURCE_CLEANUP_FINALIZER);
    await this.write(() => this.o.crds.update(released, { signal }));
  }

  private async deleteInstances(crd: CustomResourceDefinition, signal: AbortSignal): Promise<{ condition: CustomResourceDefinitionCondition; error?: Error }> {
    const instances = this.o.instances(crd);
    let namespaces: string[];
    try {
      namespaces = [...new Set(await instances.listNamespaces(signal))];
    } catch (err) {
      return failed('InstanceDeletionFailed', `could not list instances: ${messageOf(err)}`, err);
    }
    const errors: unknown[] = [];
    for (const ns of namespaces) {
      try {
        await instances.deleteCollection(ns, signal);
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length > 0) {
      return failed('InstanceDeletionFailed', `could not issue all deletes: ${aggregate(errors)}`, errors.length === 1 ? errors[0] : new AggregateError(errors, aggregate(errors)));
    }
    // Instances with finalizers of their own stay until those are removed.
    const deadline = Date.now() + (this.o.pollTimeoutMs ?? 60_000);
    for (;;) {
      let left: number;
      try {
        left = (await instances.listNamespaces(signal)).length;
      } catch (err) {
        return failed('InstanceDeletionCheck', `could not confirm zero CustomResources remaining: ${messageOf(err)}`, err);
      }
      if (left === 0) return { condition: terminating('False', 'InstanceDeletionCompleted', 'removed all instances') };
      if (Date.now() >= deadline || signal.aborted) {
        const err = new Error('timed out waiting for the condition');
        return failed('InstanceDeletionCheck', `could not confirm zero CustomResources remaining: ${err.message}`, err);
      }
      await sleep(this.o.pollIntervalMs ?? 1000, signal);
    }
  }

  /** The written CRD, or undefined when it was deleted or changed meanwhile (the informer brings it back). */
  private async write(call: () => Promise<CustomResourceDefinition>): Promise<CustomResourceDefinition | undefined> {
    try {
      return await call();
    } catch (err) {
      if (isNotFound(err) || isConflict(err)) return undefined;
      throw err;
    }
  }

  private now(): Date {
    return this.o.now?.() ?? new Date();
  }
}

function needsFinalizing(crd: CachedCRD): boolean {
  return isBeingDeleted(crd) && hasFinalizer(crd, CUSTOM_RESOURCE_CLEANUP_FINALIZER);
}

function terminating(status: 'True' | 'False', reason: string, message: string): CustomResourceDefinitionCondition {
  return { type: TERMINATING, status, reason, message };
}

function failed(reason: string, message: string, err: unknown): { condition: CustomResourceDefinitionCondition; error: Error } {
  return { condition: terminating('True', reason, message), error: err instanceof Error ? err : new Error(String(err)) };
}

/** Whether two states of a CRD differ in nothing but resourceVersion and the Terminating condition. */
function sameButTerminating(a: CachedCRD, b: CachedCRD): boolean {
  const strip = (crd: CachedCRD): unknown => {
    const c = mutableCopy(crd);
    if (c.metadata !== undefined) delete c.metadata.resourceVersion;
    removeCondition(c, TERMINATING);
    return c;
  };
  return JSON.stringify(strip(a)) === JSON.stringify(strip(b));
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
