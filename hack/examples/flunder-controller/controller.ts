// The Flunder controller: writes each Flunder's status conditions (ReferenceResolved, Allowed)
// from two shared informers (Flunders, Fischers) through a rate-limited work queue, using only
// generated code (clientset, informer factory, listers) and the client runtime's queue and loop.
// It records events on the Flunders it writes, as kube's controllers do: Normal Synced for every
// status write (sample-controller's reason), and a Warning with the condition's reason when a
// condition turns False, so `kubectl events --for flunder/<name>` tells why.
import type { Clientset } from '../../../generated/clientset/index.js';
import type { SharedInformerFactory } from '../../../generated/informers/factory.js';
import { isConflict, isNotFound } from '../../../runtime/apimachinery/errors/index.js';
import { DeletedFinalStateUnknown, type DeepReadonly, ListerNotFoundError, metaNamespaceKey, RateLimitingQueue, record, runController, splitMetaNamespaceKey } from '../../../runtime/client/index.js';
import { allowed, type Fischer, type Flunder, referenceResolved, rfc3339, sameConditions, setConditions, type World } from './conditions.js';

/** Index of Flunders by what they refer to: `Flunder:<namespace>/<name>` or `Fischer:<name>`. */
const BY_REFERENCE = 'byReference';
/** Index of Flunders by name alone (a Fischer bans a name in every namespace). */
const BY_NAME = 'byName';

export interface FlunderControllerOptions {
  readonly clientset: Clientset;
  /** Its informers are the ones the controller reads; the caller starts nothing, run() does. */
  readonly informers: SharedInformerFactory;
  readonly workers?: number;
  /** Status writes and failures; default stdout/stderr lines. */
  readonly log?: (line: string) => void;
  /** Time of condition transitions; default now. */
  readonly now?: () => Date;
  /** Where the events about Flunders go; default none. */
  readonly recorder?: record.EventRecorder;
}

/** sample-controller's reason and message for a successful sync. */
export const SUCCESS_SYNCED = 'Synced';
export const MESSAGE_RESOURCE_SYNCED = 'Flunder synced successfully';

function referenceKeys(f: DeepReadonly<Flunder>): string[] {
  const ref = f.spec?.reference;
  if (ref === undefined || ref === '') return [];
  return f.spec?.referenceType === 'Fischer' ? [`Fischer:${ref}`] : [`Flunder:${metaNamespaceKey(f.metadata?.namespace, ref)}`];
}

const unwrap = <T>(o: DeepReadonly<T> | DeletedFinalStateUnknown<T>): DeepReadonly<T> => (o instanceof DeletedFinalStateUnknown ? o.obj : o);

/**
 * Runs the controller until `signal` aborts: starts the informers, waits for their caches, then
 * reconciles Flunder keys (`namespace/name`). Resolves once the workers and informers stopped.
 */
export async function runFlunderController(o: FlunderControllerOptions, signal: AbortSignal): Promise<void> {
  const log = o.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const now = o.now ?? (() => new Date());
  const flunders = o.informers.wardle().v1alpha1().flunders();
  const fischers = o.informers.wardle().v1alpha1().fischers();
  const queue = new RateLimitingQueue<string>();

  flunders.informer().addIndexers({
    [BY_REFERENCE]: referenceKeys,
    [BY_NAME]: (f) => [f.metadata?.name ?? ''],
  });
  const enqueue = (f: DeepReadonly<Flunder>): void => queue.add(metaNamespaceKey(f.metadata?.namespace, f.metadata?.name ?? ''));
  const enqueueReferrers = (indexedValue: string): void => {
    for (const f of flunders.informer().getIndexer().byIndex(BY_REFERENCE, indexedValue)) enqueue(f);
  };
  const enqueueNamed = (names: readonly string[] | undefined): void => {
    for (const n of names ?? []) for (const f of flunders.informer().getIndexer().byIndex(BY_NAME, n)) enqueue(f);
  };

  flunders.informer().addEventHandler({
    onAdd: (f) => {
      enqueue(f);
      enqueueReferrers(`Flunder:${metaNamespaceKey(f.metadata?.namespace, f.metadata?.name ?? '')}`);
    },
    onUpdate: (_old, f) => enqueue(f),
    onDelete: (d) => {
      const f = unwrap(d);
      enqueueReferrers(`Flunder:${metaNamespaceKey(f.metadata?.namespace, f.metadata?.name ?? '')}`);
    },
  });
  const onFischer = (f: DeepReadonly<Fischer>): void => {
    enqueueReferrers(`Fischer:${f.metadata?.name ?? ''}`);
    enqueueNamed(f.disallowedFlunders);
  };
  fischers.informer().addEventHandler({
    onAdd: onFischer,
    onUpdate: (old, f) => {
      onFischer(f);
      enqueueNamed(old.disallowedFlunders); // names no longer banned
    },
    onDelete: (d) => onFischer(unwrap(d)),
  });

  const world: World = {
    flunderExists: (ns, name) => flunders.informer().getIndexer().getByKey(metaNamespaceKey(ns, name)) !== undefined,
    fischerExists: (name) => fischers.informer().getIndexer().getByKey(name) !== undefined,
    fischersDisallowing: (name) =>
      fischers
        .lister()
        .list()
        .filter((f) => (f.disallowedFlunders ?? []).includes(name))
        .map((f) => f.metadata?.name ?? '')
        .sort(),
  };

  const reconcile = async (key: string, stop: AbortSignal): Promise<void> => {
    const { namespace, name } = splitMetaNamespaceKey(key);
    let f: DeepReadonly<Flunder>;
    try {
      f = flunders.lister().namespace(namespace).get(name);
    } catch (e) {
      if (e instanceof ListerNotFoundError) return; // deleted: nothing to write
      throw e;
    }
    const conditions = setConditions(f.status?.conditions, [referenceResolved(f, world), allowed(f, world)], f.metadata?.generation, rfc3339(now()));
    if (sameConditions(f.status?.conditions, conditions)) return;
    // Cached objects are frozen and shared: write a copy.
    const next = structuredClone(f) as Flunder;
    next.status = { ...next.status, conditions };
    let written: Flunder;
    try {
      written = await o.clientset.wardleV1alpha1().flunders(namespace).updateStatus(next, { signal: stop });
    } catch (e) {
      if (isNotFound(e)) return;
      // The cache was behind the server: the informer brings the newer object and this key back.
      if (isConflict(e)) throw new Error(`flunder ${key}: conflict, retrying on the newer object`, { cause: e });
      throw e;
    }
    log(`flunder ${key}: ${conditions.map((c) => `${c.type}=${c.status} (${c.reason})`).join(', ')}`);
    // The written object: it carries apiVersion, kind and the resourceVersion the events refer to.
    const subject = { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', ...written };
    for (const c of conditions) {
      const before = f.status?.conditions?.find((old) => old.type === c.type);
      if (c.status === 'False' && (before?.status !== 'False' || before.reason !== c.reason)) o.recorder?.event(subject, record.EVENT_TYPE_WARNING, c.reason, c.message);
    }
    o.recorder?.event(subject, record.EVENT_TYPE_NORMAL, SUCCESS_SYNCED, MESSAGE_RESOURCE_SYNCED);
  };

  o.informers.start();
  const synced = await o.informers.waitForCacheSync(signal);
  try {
    if ([...synced.values()].every(Boolean)) {
      await runController({
        queue,
        reconcile,
        signal,
        workers: o.workers ?? 2,
        onError: (key, err) => log(`error reconciling flunder ${key}: ${err instanceof Error ? err.message : String(err)}`),
      });
    }
  } finally {
    queue.shutDown();
    await o.informers.shutdown();
  }
}
