import { silentLogger } from '../../runtime/endpoints/filters/log.js';
import { Config, type ConfigOptions } from '../../runtime/server/config.js';
import type { GenericAPIServer } from '../../runtime/server/genericapiserver.js';
import { Serving, type ServingOptions } from '../../runtime/server/serving.js';

/** A generic API server served on a free loopback port. */
export interface TestServer {
  server: GenericAPIServer;
  serving: Serving;
  url: string;
  close(): Promise<void>;
}

export async function startServer(opts: { config?: ConfigOptions; serving?: ServingOptions; setup?: (s: GenericAPIServer) => void } = {}): Promise<TestServer> {
  const server = new Config({ logger: silentLogger, ...opts.config }).complete().new({ name: 'test-apiserver' });
  opts.setup?.(server);
  const serving = new Serving(server, opts.serving);
  const { url } = await serving.listen({ host: '127.0.0.1', port: 0 });
  return { server, serving, url, close: () => serving.shutdown({ drainTimeoutMs: 2_000 }) };
}

/** Resolves after `ms`, or rejects when `signal` aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** A gate handlers wait on until the test opens it. */
export class Gate {
  private waiters: Array<() => void> = [];
  private open = false;
  arrived = 0;
  private arrivals: Array<{ n: number; resolve: () => void }> = [];

  async wait(): Promise<void> {
    this.arrived++;
    for (const a of this.arrivals.filter((x) => this.arrived >= x.n)) a.resolve();
    if (this.open) return;
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Resolves once `n` callers are waiting (or have waited). */
  untilArrived(n: number): Promise<void> {
    if (this.arrived >= n) return Promise.resolve();
    return new Promise((resolve) => this.arrivals.push({ n, resolve }));
  }

  release(): void {
    this.open = true;
    for (const w of this.waiters.splice(0)) w();
  }
}

export async function json(res: Response): Promise<Record<string, unknown>> {
  return (await res.json()) as Record<string, unknown>;
}
