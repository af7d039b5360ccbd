// What every bench does around a measured process: its CPU time, and how it ends.
import { readFileSync } from 'node:fs';

/** CPU time (user+system) of a process in ms, from /proc (Linux); NaN elsewhere. */
export function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

/** Runs fn and returns its result with the CPU ms per op of process `pid` (the server) and of this one (the client). */
export async function withCpu<T>(pid: number, ops: number, fn: () => Promise<T>): Promise<[T, { server: number; client: number }]> {
  const s0 = processCpuMs(pid);
  const c0 = process.cpuUsage();
  const out = await fn();
  const c = process.cpuUsage(c0);
  return [out, { server: (processCpuMs(pid) - s0) / ops, client: (c.user + c.system) / 1000 / ops }];
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
