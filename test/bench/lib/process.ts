// What every bench does around a measured process: its CPU time, and how it ends.
import { readdirSync, readFileSync } from 'node:fs';

/** CPU time (user+system) of a process in ms, from /proc (Linux); NaN elsewhere. */
export function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

/** The pids of `pid` and of every process below it (a --workers primary and its workers), from /proc (Linux). */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [pid];
  }
  for (const e of entries) {
    if (!/^[0-9]+$/.test(e)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${e}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(e));
      children.set(ppid, list);
    } catch {
      // the process ended while the table was read
    }
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const p = queue.shift()!;
    out.push(p);
    queue.push(...(children.get(p) ?? []));
  }
  return out;
}

/**
 * CPU ms of a fixed set of processes. The set is taken once, before the measurement: a process
 * that ended during it would take its CPU time out of the sum.
 */
function treeCpuMs(pids: readonly number[]): number {
  return pids.reduce((sum, p) => sum + processCpuMs(p), 0);
}

/**
 * Runs fn and returns its result with the CPU ms per op of process `pid` (the server, with every
 * process below it: a --workers primary and its workers), of the store's processes `storePids`
 * (etcd members; none for SQLite, which runs in the server) and of this one (the client).
 */
export async function withCpu<T>(pid: number, ops: number, fn: () => Promise<T>, storePids: readonly number[] = []): Promise<[T, { server: number; store: number; client: number }]> {
  const pids = processTree(pid);
  const s0 = treeCpuMs(pids);
  const e0 = treeCpuMs(storePids);
  const c0 = process.cpuUsage();
  const out = await fn();
  const c = process.cpuUsage(c0);
  return [out, { server: (treeCpuMs(pids) - s0) / ops, store: (treeCpuMs(storePids) - e0) / ops, client: (c.user + c.system) / 1000 / ops }];
}

/** Runs a bench's main: exit 0 when it resolves, 1 (with the error) when it throws. */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
