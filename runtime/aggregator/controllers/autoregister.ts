import { isDeepStrictEqual } from 'node:util';
import type { APIService } from '../../../apis/apiregistration/v1/types.js';
import type { APIServiceInterface } from '../../../generated/clientset/apiregistration/v1/index.js';
import type { APIServiceInformer } from '../../../generated/informers/apiregistration/v1/apiservice.js';
import { isNotFound } from '../../apimachinery/errors/index.js';
import { isDeletedFinalStateUnknown, RateLimitingQueue, runController, waitForCacheSync } from '../../client/index.js';
import { isLocal, mutableCopy, type CachedAPIService } from '../apiservice.js';
import { getCached, onErrorOf } from './lookup.js';

/** Marks an APIService the autoregister controller manages; its value says how. */
export const AUTO_REGISTER_MANAGED_LABEL = 'kube-aggregator.kubernetes.io/automanaged';
/** Created once if missing and brought in line once when the controller starts. */
export const MANAGE_ON_START = 'onstart';
/** Kept present and in line for as long as it is wanted. */
export const MANAGE_CONTINUOUSLY = 'true';

/** How other controllers hand APIServices to keep to the autoregister controller (AutoAPIServiceRegistration). */
export interface AutoAPIServiceRegistration {
  addAPIServiceToSyncOnStart(svc: APIService): void;
  addAPIServiceToSync(svc: APIService): void;
  removeAPIServiceToSync(name: string): void;
}

export interface AutoRegisterControllerOptions {
  readonly informer: APIServiceInformer;
  readonly client: APIServiceInterface;
  readonly onError?: (key: string, err: unknown) => void;
}

/**
 * The autoregister controller (kube-aggregator's autoRegisterController): keeps a set of
 * APIServices present, those of the built-in group versions and of CRDs, each labelled
 * automanaged. Per name, comparing what is wanted with what exists (kube's table):
 *
 * - nothing wanted, nothing there: nothing; wanted, not there: created (once for `onstart`);
 * - there without the label: left alone (someone else owns it);
 * - `onstart` and not present when the controller started, or already synced once: left alone;
 * - labelled but no longer wanted: deleted; wanted with another spec: its spec replaced.
 *
 * One rule beyond kube's: an APIService that points at a service is never replaced or deleted
 * by a local one. That is how an aggregated server takes over a group version served locally:
 * its APIService (created or applied over the automanaged one) stays until it stops pointing
 * at a service.
 */
export class AutoRegisterController implements AutoAPIServiceRegistration {
  private readonly queue = new RateLimitingQueue<string>();
  private readonly toSync = new Map<string, APIService>();
  private readonly syncedSuccessfully = new Set<string>();
  private readonly presentAtStart = new Set<string>();
  private readonly onError: (key: string, err: unknown) => void;

  constructor(private readonly o: AutoRegisterControllerOptions) {
    this.onError = onErrorOf(o.onError, 'autoregister');
    o.informer.informer().addEventHandler({
      onAdd: (svc) => this.queue.add(nameOf(svc)),
      onUpdate: (_old, svc) => this.queue.add(nameOf(svc)),
      onDelete: (svc) => this.queue.add(nameOf(isDeletedFinalStateUnknown(svc) ? svc.obj : svc)),
    });
  }

  addAPIServiceToSyncOnStart(svc: APIService): void {
    this.add(svc, MANAGE_ON_START);
  }

  addAPIServiceToSync(svc: APIService): void {
    this.add(svc, MANAGE_CONTINUOUSLY);
  }

  removeAPIServiceToSync(name: string): void {
    this.toSync.delete(name);
    this.queue.add(name);
  }

  /** Whether every name in `names` has been synced successfully at least once. */
  hasSynced(names: Iterable<string>): boolean {
    for (const n of names) if (!this.syncedSuccessfully.has(n)) return false;
    return true;
  }

  /** Waits for the informer, records the APIServices present at start, then reconciles until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    const informer = this.o.informer.informer();
    if (!(await waitForCacheSync(signal, [() => informer.hasSynced()]))) return;
    for (const svc of this.o.informer.lister().list()) this.presentAtStart.add(nameOf(svc));
    await runController({ queue: this.queue, signal, workers: 2, reconcile: (name, s) => this.checkAPIService(name, s), onError: this.onError });
  }

  private add(svc: APIService, manage: string): void {
    const copy = structuredClone(svc);
    const metadata = (copy.metadata ??= {});
    metadata.labels = { ...metadata.labels, [AUTO_REGISTER_MANAGED_LABEL]: manage };
    const name = metadata.name ?? '';
    this.toSync.set(name, copy);
    this.queue.add(name);
  }

  private async checkAPIService(name: string, signal: AbortSignal): Promise<void> {
    const desired = this.toSync.get(name);
    const current = getCached(this.o.informer.lister(), name);
    const hasSynced = this.syncedSuccessfully.has(name);
    await this.reconcile(name, desired, current, hasSynced, signal);
    this.syncedSuccessfully.add(name);
  }

  private async reconcile(name: string, desired: APIService | undefined, current: CachedAPIService | undefined, hasSynced: boolean, signal: AbortSignal): Promise<void> {
    const client = this.o.client;
    if (current === undefined && desired === undefined) return;
    if (managedType(desired) === MANAGE_ON_START && hasSynced) return;
    if (current === undefined) {
      await client.create(desired as APIService, { signal });
      return;
    }
    const managed = managedType(current);
    if (managed !== MANAGE_ON_START && managed !== MANAGE_CONTINUOUSLY) return;
    if (managed === MANAGE_ON_START && (!this.presentAtStart.has(name) || hasSynced)) return;
    // Taken over by an aggregated server.
    if (!isLocal(current)) return;
    if (desired === undefined) {
      await ignore(client.delete(name, { preconditions: { uid: current.metadata?.uid ?? '' } }), isNotFound);
      return;
    }
    if (isDeepStrictEqual(current.spec, desired.spec)) return;
    const update = mutableCopy(current);
    update.spec = structuredClone(desired.spec);
    await client.update(update, { signal });
  }
}

function nameOf(svc: CachedAPIService): string {
  return svc.metadata?.name ?? '';
}

function managedType(svc: CachedAPIService | undefined): string | undefined {
  return svc?.metadata?.labels?.[AUTO_REGISTER_MANAGED_LABEL];
}

/** Awaits a write, a failure `expected` says is already the outcome wanted (deleting what is gone) counting as success. */
async function ignore(write: Promise<unknown>, expected: (err: unknown) => boolean): Promise<void> {
  try {
    await write;
  } catch (err) {
    if (!expected(err)) throw err;
  }
}
