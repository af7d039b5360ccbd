import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

/** The flags of the control plane command, with kube-apiserver's names where they exist. */
export interface ServerRunOptions {
  securePort?: number;
  bindAddress?: string;
  dataDir?: string;
  storageBackend?: 'sqlite' | 'etcd3';
  etcdServers?: readonly string[];
  etcdPrefix?: string;
  /** Watch caches in front of every resource (kube's --watch-cache). */
  watchCache?: boolean;
  maxRequestsInflight?: number;
  maxMutatingRequestsInflight?: number;
  requestTimeoutSeconds?: number;
}

/** Options with every default resolved; only completeOptions makes one. */
export interface CompletedServerRunOptions {
  readonly securePort: number;
  readonly bindAddress: string;
  readonly dataDir: string;
  readonly storageBackend: 'sqlite' | 'etcd3';
  readonly etcdServers: readonly string[];
  readonly etcdPrefix: string;
  readonly watchCache: boolean;
  readonly maxRequestsInflight: number;
  readonly maxMutatingRequestsInflight: number;
  readonly requestTimeoutSeconds: number;
  readonly completed: true;
}

export class OptionsError extends Error {
  override readonly name = 'OptionsError';
}

export function completeOptions(o: ServerRunOptions): CompletedServerRunOptions {
  const storageBackend = o.storageBackend ?? 'sqlite';
  const etcdServers = o.etcdServers ?? [];
  if (storageBackend === 'etcd3' && etcdServers.length === 0) throw new OptionsError('--etcd-servers must be specified with --storage-backend=etcd3');
  const securePort = o.securePort ?? 6443;
  if (!Number.isInteger(securePort) || securePort < 0 || securePort > 65535) throw new OptionsError(`--secure-port ${securePort} must be between 0 and 65535`);
  return {
    securePort,
    bindAddress: o.bindAddress ?? '127.0.0.1',
    dataDir: resolve(o.dataDir ?? '.kube-ts'),
    storageBackend,
    etcdServers,
    etcdPrefix: o.etcdPrefix ?? '/registry',
    watchCache: o.watchCache ?? true,
    maxRequestsInflight: o.maxRequestsInflight ?? 400,
    maxMutatingRequestsInflight: o.maxMutatingRequestsInflight ?? 200,
    requestTimeoutSeconds: o.requestTimeoutSeconds ?? 60,
    completed: true,
  };
}

const USAGE = `Usage: npm start -- [flags]

  --secure-port N                 HTTPS port (0 picks a free port; the kubeconfig carries it). Default 6443.
  --bind-address IP               Address to listen on. Default 127.0.0.1.
  --data-dir DIR                  Certificates, admin.kubeconfig and the SQLite store. Default ./.kube-ts.
  --storage-backend sqlite|etcd3  Default sqlite (embedded, no setup).
  --etcd-servers URL[,URL…]       etcd endpoints for --storage-backend etcd3.
  --etcd-prefix PREFIX            Key prefix in etcd. Default /registry.
  --watch-cache=false             Serve reads from storage instead of the watch cache.
  --max-requests-inflight N       Read-only requests in flight before 429. Default 400.
  --max-mutating-requests-inflight N  Mutating requests in flight before 429. Default 200.
  --request-timeout SECONDS       Default request timeout. Default 60.
`;

/** Parses argv (kube's `--flag value` and `--flag=value` forms). Throws OptionsError with the usage on bad input. */
export function parseServerRunOptions(argv: readonly string[]): ServerRunOptions & { help: boolean } {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        'secure-port': { type: 'string' },
        'bind-address': { type: 'string' },
        'data-dir': { type: 'string' },
        'storage-backend': { type: 'string' },
        'etcd-servers': { type: 'string' },
        'etcd-prefix': { type: 'string' },
        'watch-cache': { type: 'string' },
        'max-requests-inflight': { type: 'string' },
        'max-mutating-requests-inflight': { type: 'string' },
        'request-timeout': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    throw new OptionsError(`${(err as Error).message}\n\n${USAGE}`);
  }
  const int = (flag: string, v: string | undefined): number | undefined => {
    if (v === undefined) return undefined;
    if (!/^\d+$/.test(v)) throw new OptionsError(`--${flag}: ${JSON.stringify(v)} is not a non-negative integer`);
    return Number(v);
  };
  const backend = values['storage-backend'];
  if (backend !== undefined && backend !== 'sqlite' && backend !== 'etcd3') throw new OptionsError(`--storage-backend: ${JSON.stringify(backend)} is not one of sqlite, etcd3`);
  const watchCache = values['watch-cache'];
  if (watchCache !== undefined && watchCache !== 'true' && watchCache !== 'false') throw new OptionsError('--watch-cache must be true or false');
  const opts: ServerRunOptions & { help: boolean } = { help: values.help ?? false };
  const securePort = int('secure-port', values['secure-port']);
  if (securePort !== undefined) opts.securePort = securePort;
  if (values['bind-address'] !== undefined) opts.bindAddress = values['bind-address'];
  if (values['data-dir'] !== undefined) opts.dataDir = values['data-dir'];
  if (backend !== undefined) opts.storageBackend = backend;
  if (values['etcd-servers'] !== undefined) opts.etcdServers = values['etcd-servers'].split(',').filter((s) => s !== '');
  if (values['etcd-prefix'] !== undefined) opts.etcdPrefix = values['etcd-prefix'];
  if (watchCache !== undefined) opts.watchCache = watchCache === 'true';
  const inflight = int('max-requests-inflight', values['max-requests-inflight']);
  if (inflight !== undefined) opts.maxRequestsInflight = inflight;
  const mutating = int('max-mutating-requests-inflight', values['max-mutating-requests-inflight']);
  if (mutating !== undefined) opts.maxMutatingRequestsInflight = mutating;
  const timeout = int('request-timeout', values['request-timeout']);
  if (timeout !== undefined) opts.requestTimeoutSeconds = timeout;
  return opts;
}

export { USAGE };
