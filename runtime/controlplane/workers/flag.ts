import { availableParallelism } from 'node:os';
import { OptionsError } from '../../server/options/flags.js';

/** --workers as given: a count, or `auto` (one per core). */
export type WorkersValue = number | 'auto';

/** More would only cost memory: each worker is a whole control plane. */
export const MAX_WORKERS = 256;

/** Parses --workers (absent: undefined, one process as without the flag). */
export function workersFlag(value: string | undefined): WorkersValue | undefined {
  if (value === undefined) return undefined;
  if (value === 'auto') return 'auto';
  const n = /^[0-9]{1,4}$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_WORKERS) {
    throw new OptionsError(`--workers: Invalid value: ${JSON.stringify(value)}: must be auto or an integer between 1 and ${MAX_WORKERS}`);
  }
  return n;
}

/** How many server processes --workers asks for: `auto` is os.availableParallelism(); absent is 1. */
export function resolveWorkers(value: WorkersValue | undefined): number {
  if (value === undefined) return 1;
  if (value === 'auto') return Math.min(MAX_WORKERS, Math.max(1, availableParallelism()));
  return value;
}

export const WORKERS_USAGE = `  --workers N|auto                Serve from N processes behind the one --secure-port (node:cluster), each a full
                                  control plane with its own watch caches and in-flight limits; auto: one per core.
                                  The first process only supervises: restarts a worker that dies, drains all on
                                  SIGTERM. A worker takes connections only once ready. SQLite is opened in shared
                                  mode; controllers that run once are led by one worker (Lease holder
                                  <identity>_<worker index>). Default 1 (one process).
`;
