import { performance } from 'node:perf_hooks';

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

export interface Throughput {
  n: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
}

/** Runs op n times with `concurrency` in flight; per-op latency in ms. */
export async function throughput(n: number, concurrency: number, op: (i: number) => Promise<unknown> | unknown): Promise<Throughput> {
  const lat: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const i = next++;
        if (i >= n) return;
        const s = performance.now();
        await op(i);
        lat.push(performance.now() - s);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  return { n, seconds, perSecond: n / seconds, p50: percentile(lat, 50), p99: percentile(lat, 99) };
}

/** Median wall time of `iterations` runs of fn, in ms. */
export async function medianMs(iterations: number, fn: () => Promise<unknown> | unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const s = performance.now();
    await fn();
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  return percentile(times, 50);
}

/** A ~1 KiB ConfigMap-like value, as the anchors' measurements used. */
export function configMap(
  name: string,
  namespace = 'default',
): { apiVersion: string; kind: string; metadata: { name: string; namespace: string; labels: Record<string, string> }; data: Record<string, string> } {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels: { app: 'bench' } }, data: { blob: 'x'.repeat(900) } };
}

export const pad = (i: number): string => String(i).padStart(6, '0');
