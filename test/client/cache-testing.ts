import { type DeletedFinalStateUnknown, isDeletedFinalStateUnknown, type ResourceEventHandler } from '../../runtime/client/cache.js';
import type { DeepReadonly } from '../../runtime/client/types.js';
import type { Obj } from './cache-fake-api.js';
import type { FakeClock } from './cache-fake-clock.js';

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Lets the system run until `cond` holds. Everything under test is in memory,
 * so each event-loop turn settles what can settle; when `clock` is given and
 * the system stays idle for a few turns, virtual time jumps to the next
 * sleeper (a backoff, a resync tick). Fails after a bounded number of turns.
 */
export async function until(cond: () => boolean, what: string, clock?: FakeClock): Promise<void> {
  let idle = 0;
  for (let i = 0; i < 20_000; i++) {
    if (cond()) return;
    await turn();
    if (clock !== undefined && ++idle >= 5) {
      idle = 0;
      clock.advanceToNext();
    }
  }
  throw new Error(`timed out waiting for: ${what}`);
}

/** A few event-loop turns, for asserting that something did not happen. */
export async function settle(turns = 20): Promise<void> {
  for (let i = 0; i < turns; i++) await turn();
}

const describe = (o: DeepReadonly<Obj>): string => `${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}@${o.metadata.resourceVersion}`;

/** Records handler calls as short strings: `add a@101 initial`, `update a@101->a@102`, `delete a@103`, `delete? a@101` (tombstone). */
export class Recorder implements ResourceEventHandler<Obj> {
  readonly events: string[] = [];

  onAdd(obj: DeepReadonly<Obj>, isInInitialList: boolean): void {
    this.events.push(`add ${describe(obj)}${isInInitialList ? ' initial' : ''}`);
  }

  onUpdate(oldObj: DeepReadonly<Obj>, newObj: DeepReadonly<Obj>): void {
    this.events.push(`update ${describe(oldObj)}->${describe(newObj)}`);
  }

  onDelete(obj: DeepReadonly<Obj> | DeletedFinalStateUnknown<Obj>): void {
    if (isDeletedFinalStateUnknown(obj)) this.events.push(`delete? ${obj.key} ${describe(obj.obj)}`);
    else this.events.push(`delete ${describe(obj)}`);
  }
}
