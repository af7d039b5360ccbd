import { resolve } from 'node:path';
import type { StorageConfig, StorageFactory } from '../../storage/index.js';
import type { GenericAPIServer } from '../genericapiserver.js';
import { loadEncryptionConfig } from './encryption.js';
import { boolFlag, durationFlag, OptionsError, stringSliceFlag, type FlagSpecs } from './flags.js';
import { parseWatchCacheSizes } from './watchcachesizes.js';

/**
 * The storage options both server commands take, once (kube's EtcdOptions of
 * k8s.io/apiserver/pkg/server/options): the flags, their parsing, validation, usage text, the
 * storage configuration they make and the health checks that watch it.
 */

export type StorageBackend = 'sqlite' | 'etcd3';

/** The storage flags given; an absent one takes the default. */
export interface StorageOptions {
  storageBackend?: StorageBackend;
  etcdServers?: readonly string[];
  etcdPrefix?: string;
  /**
   * kube's --etcd-compaction-interval in ms; 0 disables compaction. Absent: each backend's
   * default (etcd: 5 min; SQLite: history beyond the newest 100,000 revisions, every 5 min).
   */
  etcdCompactionIntervalMs?: number;
  /** kube's --etcd-healthcheck-timeout in ms (the `etcd` check of /livez and /readyz); 0 or absent: 2 s. */
  etcdHealthcheckTimeoutMs?: number;
  /** kube's --etcd-readycheck-timeout in ms (the `etcd-readiness` check of /readyz); 0 or absent: 2 s. */
  etcdReadycheckTimeoutMs?: number;
  /** Watch caches in front of every resource (kube's --watch-cache). */
  watchCache?: boolean;
  /**
   * kube's --watch-cache-sizes: `resource[.group]#size` entries; size 0 serves the resource without
   * a watch cache, any other size with one (kube sizes caches dynamically). Events are served
   * without one unless named here, as kube's DefaultWatchCacheSizes.
   */
  watchCacheSizes?: readonly string[];
  /** kube's --encryption-provider-config: an EncryptionConfiguration file (encryption at rest per resource). */
  encryptionProviderConfig?: string;
  /**
   * Not a flag: several server processes open the SQLite file at once (the workers of
   * --workers; SqliteKV's shared mode). Ignored on etcd, which needs nothing to be shared.
   */
  sqliteShared?: boolean;
}

/** StorageOptions with every default resolved; only completeStorageOptions makes one. */
export interface CompletedStorageOptions {
  readonly storageBackend: StorageBackend;
  readonly etcdServers: readonly string[];
  readonly etcdPrefix: string;
  /** undefined: the backend's default. */
  readonly etcdCompactionIntervalMs: number | undefined;
  /** undefined or 0: the storage's default, kube's 2 s. */
  readonly etcdHealthcheckTimeoutMs: number | undefined;
  readonly etcdReadycheckTimeoutMs: number | undefined;
  readonly watchCache: boolean;
  /** --watch-cache-sizes parsed (GroupResource string to size); empty when the watch cache is off, as kube does not read them then. */
  readonly watchCacheSizes: ReadonlyMap<string, number>;
  /** Absolute; undefined: values are stored as they are. */
  readonly encryptionProviderConfig: string | undefined;
  readonly sqliteShared: boolean;
}

export const STORAGE_FLAGS = {
  'storage-backend': { type: 'string' },
  'etcd-servers': { type: 'string', multiple: true },
  'etcd-prefix': { type: 'string' },
  'etcd-compaction-interval': { type: 'string' },
  'etcd-healthcheck-timeout': { type: 'string' },
  'etcd-readycheck-timeout': { type: 'string' },
  'watch-cache': { type: 'string' },
  'watch-cache-sizes': { type: 'string', multiple: true },
  'encryption-provider-config': { type: 'string' },
} as const satisfies FlagSpecs;

/** The parsed values of STORAGE_FLAGS, as parseFlags returns them. */
export type StorageFlagValues = { readonly [K in Exclude<keyof typeof STORAGE_FLAGS, 'etcd-servers' | 'watch-cache-sizes'>]?: string } & {
  readonly 'etcd-servers'?: readonly string[];
  readonly 'watch-cache-sizes'?: readonly string[];
};

function storageBackendFlag(v: string | undefined): StorageBackend | undefined {
  if (v !== undefined && v !== 'sqlite' && v !== 'etcd3') throw new OptionsError(`--storage-backend: ${JSON.stringify(v)} is not one of sqlite, etcd3`);
  return v;
}

/** The storage options of parsed flags, each undefined when its flag is absent (for the command's `given`). */
export function storageOptionsFromFlags(values: StorageFlagValues): { [K in keyof Required<StorageOptions>]: StorageOptions[K] | undefined } {
  return {
    storageBackend: storageBackendFlag(values['storage-backend']),
    etcdServers: stringSliceFlag(values['etcd-servers']),
    etcdPrefix: values['etcd-prefix'],
    etcdCompactionIntervalMs: durationFlag('etcd-compaction-interval', values['etcd-compaction-interval']),
    etcdHealthcheckTimeoutMs: durationFlag('etcd-healthcheck-timeout', values['etcd-healthcheck-timeout']),
    etcdReadycheckTimeoutMs: durationFlag('etcd-readycheck-timeout', values['etcd-readycheck-timeout']),
    watchCache: boolFlag('watch-cache', values['watch-cache']),
    watchCacheSizes: stringSliceFlag(values['watch-cache-sizes']),
    encryptionProviderConfig: values['encryption-provider-config'],
    sqliteShared: undefined,
  };
}

/** Resolves the defaults and validates; `etcdPrefix` is the command's default key prefix. */
export function completeStorageOptions(o: StorageOptions, defaults: { readonly etcdPrefix: string }): CompletedStorageOptions {
  const storageBackend = o.storageBackend ?? 'sqlite';
  const etcdServers = o.etcdServers ?? [];
  const watchCache = o.watchCache ?? true;
  if (storageBackend === 'etcd3' && etcdServers.length === 0) throw new OptionsError('--etcd-servers must be specified with --storage-backend=etcd3');
  return {
    storageBackend,
    etcdServers,
    etcdPrefix: o.etcdPrefix ?? defaults.etcdPrefix,
    etcdCompactionIntervalMs: o.etcdCompactionIntervalMs,
    etcdHealthcheckTimeoutMs: o.etcdHealthcheckTimeoutMs,
    etcdReadycheckTimeoutMs: o.etcdReadycheckTimeoutMs,
    watchCache,
    // kube parses the sizes only with the watch cache on (its completion and its REST options factory).
    watchCacheSizes: watchCache ? parseWatchCacheSizes(o.watchCacheSizes ?? []) : new Map(),
    encryptionProviderConfig: o.encryptionProviderConfig === undefined ? undefined : resolve(o.encryptionProviderConfig),
    sqliteShared: o.sqliteShared ?? false,
  };
}

/** The usage lines of the storage flags, for a command whose SQLite file is `<data-dir>/<sqliteFile>`. */
export function storageUsage(d: { readonly sqliteFile: string; readonly etcdPrefix: string }): string {
  return `  --storage-backend sqlite|etcd3  Default sqlite (embedded, no setup: <data-dir>/${d.sqliteFile}).
  --etcd-servers URL[,URL…]       etcd endpoints for --storage-backend etcd3.
  --etcd-prefix PREFIX            Key prefix in etcd. Default ${d.etcdPrefix}.
  --etcd-compaction-interval D    How often storage history is compacted (Go duration, e.g. 5m; 0 disables).
                                  etcd: each round compacts to the revision of the round before (kube's).
                                  SQLite: each round drops the history before the current revision.
                                  Default: etcd 5m; SQLite keeps the newest 100,000 revisions (checked every 5m).
  --etcd-healthcheck-timeout D    Timeout of the etcd check of /livez and /readyz (Go duration). Default 2s.
  --etcd-readycheck-timeout D     Timeout of the etcd-readiness check of /readyz (Go duration). Default 2s.
  --watch-cache=false             Serve reads from storage instead of the watch cache.
  --watch-cache-sizes R[.G]#N,…   Per resource (lowercase plural, group omitted for core v1): 0 serves it without
                                  a watch cache, any other size with one (sizes are dynamic). Events have none
                                  unless named here (events#100, events.events.k8s.io#100). Needs --watch-cache.
  --encryption-provider-config FILE  EncryptionConfiguration (apiserver.config.k8s.io/v1, YAML or JSON): which
                                  resources are encrypted at rest, with which providers and keys (the first writes).
`;
}

/**
 * The storage configuration the options ask for, and how the command names it in its start line.
 * Reads the --encryption-provider-config file (OptionsError naming it when it is unusable).
 */
export function storageConfigFor(o: CompletedStorageOptions, sqlitePath: string): { readonly storageConfig: StorageConfig; readonly storageDescription: string } {
  // --etcd-compaction-interval: etcd keeps one interval of history (kube's compactor); SQLite,
  // which has no other server to coordinate with, drops everything before the current revision.
  const interval = o.etcdCompactionIntervalMs;
  const encryption = o.encryptionProviderConfig === undefined ? {} : { resourceTransformers: loadEncryptionConfig(o.encryptionProviderConfig) };
  if (o.storageBackend === 'sqlite') {
    return {
      storageConfig: {
        backend: {
          backend: 'sqlite',
          path: sqlitePath,
          ...(interval === undefined ? {} : { compactionIntervalMs: interval, retainRevisions: 0 }),
          // Only when asked: the default exclusive lock is the fastest path and refuses a second opener.
          ...(o.sqliteShared ? { shared: true } : {}),
        },
        watchCache: o.watchCache,
        ...watchCacheSizesOf(o),
        ...encryption,
      },
      storageDescription: `sqlite ${sqlitePath}${o.sqliteShared ? ' (shared)' : ''}`,
    };
  }
  return {
    storageConfig: {
      backend: {
        backend: 'etcd3',
        endpoints: o.etcdServers,
        prefix: o.etcdPrefix,
        ...(interval === undefined ? {} : { compactionIntervalMs: interval }),
        healthcheckTimeoutMs: o.etcdHealthcheckTimeoutMs ?? 0,
        readycheckTimeoutMs: o.etcdReadycheckTimeoutMs ?? 0,
      },
      watchCache: o.watchCache,
      ...watchCacheSizesOf(o),
      ...encryption,
    },
    storageDescription: `etcd3 ${o.etcdServers.join(',')} prefix ${o.etcdPrefix}`,
  };
}

/** The parsed --watch-cache-sizes, only when any is given (a configuration without them reads as before). */
function watchCacheSizesOf(o: CompletedStorageOptions): { watchCacheSizes?: ReadonlyMap<string, number> } {
  return o.watchCacheSizes.size === 0 ? {} : { watchCacheSizes: o.watchCacheSizes };
}

/**
 * The storage's health checks (kube's EtcdOptions.addEtcdHealthEndpoint). On etcd: `etcd` on
 * /healthz, /livez and /readyz (a read within --etcd-healthcheck-timeout) and `etcd-readiness`
 * on /readyz (within --etcd-readycheck-timeout), so a hung etcd fails both within their
 * timeouts. The embedded store has one `storage` check on /readyz: kube's `etcd` name would
 * mislead, and a process whose own file fails is not helped by a restart.
 */
export function addStorageHealthChecks(
  server: Pick<GenericAPIServer, 'addHealthChecks' | 'addReadyzChecks'>,
  backend: StorageBackend,
  factory: Pick<StorageFactory, 'healthCheck' | 'readinessCheck'>,
): void {
  if (backend === 'etcd3') {
    server.addHealthChecks({ name: 'etcd', check: () => factory.healthCheck() });
    server.addReadyzChecks({ name: 'etcd-readiness', check: () => factory.readinessCheck() });
    return;
  }
  server.addReadyzChecks({ name: 'storage', check: () => factory.readinessCheck() });
}
