import { Cacher } from './cacher/cacher.js';
import { newEtcdClient } from './etcd3/client.js';
import { Compactor } from './etcd3/compactor.js';
import { DEFAULT_HEALTHCHECK_TIMEOUT_MS, EtcdCheck } from './etcd3/healthcheck.js';
import { EtcdKV } from './etcd3/kv.js';
import type { Interface } from './interfaces.js';
import type { KV } from './kv.js';
import { Store } from './kvstore/store.js';
import type { StoredObject } from '../apimachinery/object.js';
import { SqliteKV } from './sqlite/kv.js';
import { identityTransformer, type ValueTransformer } from './transformer.js';
import { groupResourceOfPrefix, type ResourceTransformers } from './value/resources.js';
import { groupResourceString, type GroupResource } from '../apimachinery/errors/index.js';

/** Which backend holds the data. */
export type BackendConfig =
  | {
      backend: 'sqlite';
      /** Database file (created if missing). */
      path: string;
      /** Keep this many revisions of history; compacted every compactionIntervalMs. */
      retainRevisions?: number;
      /** Default 5 min; 0 disables periodic compaction. */
      compactionIntervalMs?: number;
      /**
       * Several server processes share the file (default false: it is locked to this process,
       * the fastest path). Every process on one file must set it. See runtime/storage/README.md.
       */
      shared?: boolean;
    }
  | {
      backend: 'etcd3';
      endpoints: readonly string[];
      /** Key prefix shared with kube-apiserver conventions (default `/registry`). */
      prefix?: string;
      /** Deadline of each etcd request (default 10 s). */
      requestTimeoutMs?: number;
      /** kube's --etcd-compaction-interval (default 5 min; 0 disables). */
      compactionIntervalMs?: number;
      /** kube's --etcd-healthcheck-timeout (default 2 s): bounds the `etcd` check of /livez and /readyz. */
      healthcheckTimeoutMs?: number;
      /** kube's --etcd-readycheck-timeout (default 2 s): bounds the `etcd-readiness` check of /readyz. */
      readycheckTimeoutMs?: number;
    };

export interface StorageConfig {
  backend: BackendConfig;
  /** Put a watch cache in front of every resource (default true, as kube-apiserver); false: none anywhere. */
  watchCache?: boolean;
  /**
   * kube's --watch-cache-sizes, parsed: per served resource (`resource[.group]`, GroupResource's
   * string), 0 serves it without a watch cache and any other size with one, whatever the
   * resource declares. Consulted only when `watchCache` is on, as kube's.
   */
  watchCacheSizes?: ReadonlyMap<string, number>;
  /** Where kube's storage warnings go (klog.Warningf); default stderr. */
  warn?: (message: string) => void;
  /** Encryption at rest (default identity). */
  transformer?: ValueTransformer;
  /** Encryption at rest per resource (--encryption-provider-config); takes precedence over `transformer`. */
  resourceTransformers?: ResourceTransformers;
}

/** A StorageConfig with every default resolved; only complete() makes one. */
export interface CompletedStorageConfig {
  readonly backend: Required<BackendConfig>;
  readonly watchCache: boolean;
  readonly watchCacheSizes: ReadonlyMap<string, number>;
  readonly warn: (message: string) => void;
  readonly transformer: ValueTransformer;
  readonly resourceTransformers: ResourceTransformers | undefined;
  readonly completed: true;
}

/** Resolves defaults in one place. */
export function complete(config: StorageConfig): CompletedStorageConfig {
  const b = config.backend;
  const backend: Required<BackendConfig> =
    b.backend === 'sqlite'
      ? { backend: 'sqlite', path: b.path, retainRevisions: b.retainRevisions ?? 100_000, compactionIntervalMs: b.compactionIntervalMs ?? 5 * 60_000, shared: b.shared ?? false }
      : {
          backend: 'etcd3',
          endpoints: b.endpoints,
          prefix: b.prefix ?? '/registry',
          requestTimeoutMs: b.requestTimeoutMs ?? 10_000,
          compactionIntervalMs: b.compactionIntervalMs ?? 5 * 60_000,
          healthcheckTimeoutMs: b.healthcheckTimeoutMs || DEFAULT_HEALTHCHECK_TIMEOUT_MS,
          readycheckTimeoutMs: b.readycheckTimeoutMs || DEFAULT_HEALTHCHECK_TIMEOUT_MS,
        };
  return {
    backend,
    watchCache: config.watchCache ?? true,
    watchCacheSizes: config.watchCacheSizes ?? new Map(),
    warn: config.warn ?? ((m) => process.stderr.write(`W ${m}\n`)),
    transformer: config.transformer ?? identityTransformer,
    resourceTransformers: config.resourceTransformers,
    completed: true,
  };
}

export interface ResourceStorageOptions<T extends StoredObject> {
  /** The resource's key prefix, e.g. `/pods/` or `/apps/deployments/`. */
  resourcePrefix: string;
  /** The resource its transformer is chosen for; default read from resourcePrefix (`/<group>/<plural>/`). */
  groupResource?: GroupResource;
  /**
   * Whether this storage has a watch cache when the factory's are on (default true): false for the
   * server's own internal storages, and for a resource served without one unless
   * --watch-cache-sizes gives it a size (kube's DefaultWatchCacheSizes: Events).
   */
  watchCache?: boolean;
  /**
   * The served resource this storage is for, whose --watch-cache-sizes entry overrides
   * `watchCache` (kube decides per REST resource, so each of two cohabitating resources has its
   * own). Absent: no entry applies.
   */
  servedAs?: GroupResource;
  /** Unsafe deletion of corrupt objects (kube's AllowUnsafeMalformedObjectDeletion). */
  corruptObjectHandling?: boolean;
  /** Type witness only. */
  example?: T;
}

/**
 * StorageFactory owns one backend connection (one SQLite file or one etcd client) and builds a
 * storage.Interface per resource, each behind its own watch cache when enabled.
 */
export class StorageFactory {
  private readonly cachers: Cacher<StoredObject>[] = [];
  private readonly compactor: Compactor | undefined;
  /** etcd only: kube's two checks, each with its own client and timeout. */
  private readonly checks: { health: EtcdCheck; readiness: EtcdCheck } | undefined;

  private constructor(
    private readonly config: CompletedStorageConfig,
    readonly kv: KV,
    compactor: Compactor | undefined,
    checks?: { health: EtcdCheck; readiness: EtcdCheck },
  ) {
    this.compactor = compactor;
    this.checks = checks;
    compactor?.start();
  }

  static create(config: CompletedStorageConfig): StorageFactory {
    const b = config.backend;
    if (b.backend === 'sqlite') {
      const compaction = b.compactionIntervalMs > 0 ? { intervalMs: b.compactionIntervalMs, retainRevisions: b.retainRevisions } : undefined;
      const kv = new SqliteKV({ path: b.path, compaction, shared: b.shared });
      return new StorageFactory(config, kv, undefined);
    }
    const client = newEtcdClient({ endpoints: b.endpoints, requestTimeoutMs: b.requestTimeoutMs });
    const kv = new EtcdKV(client, { healthKey: `${b.prefix.replace(/\/$/, '')}/health`, requestTimeoutMs: b.requestTimeoutMs });
    const compactor = b.compactionIntervalMs > 0 ? new Compactor(client, kv, b.compactionIntervalMs) : undefined;
    const checks = {
      health: new EtcdCheck({ endpoints: b.endpoints, prefix: b.prefix, timeoutMs: b.healthcheckTimeoutMs }),
      readiness: new EtcdCheck({ endpoints: b.endpoints, prefix: b.prefix, timeoutMs: b.readycheckTimeoutMs }),
    };
    return new StorageFactory(config, kv, compactor, checks);
  }

  /** The storage for one resource. Reads through a watch cache are served once it has synced. */
  async forResource<T extends StoredObject>(opts: ResourceStorageOptions<T>): Promise<Interface<T>> {
    const b = this.config.backend;
    const store = new Store<T>({
      kv: this.kv,
      pathPrefix: b.backend === 'etcd3' ? b.prefix : '/registry',
      resourcePrefix: opts.resourcePrefix,
      transformer: this.config.resourceTransformers?.transformerForResource(opts.groupResource ?? groupResourceOfPrefix(opts.resourcePrefix)) ?? this.config.transformer,
      corruptObjectHandling: opts.corruptObjectHandling ?? false,
    });
    if (!this.watchCacheFor(opts)) return store;
    const cacher = new Cacher<T>({
      storage: store,
      resourcePrefix: opts.resourcePrefix,
      keyOf: (o) => store.restKeyOf(o),
      consistentReadsFromCache: await store.supportsRequestWatchProgress(),
    });
    this.cachers.push(cacher as unknown as Cacher<StoredObject>);
    return cacher;
  }

  /**
   * kube's choice of a decorator per resource (EtcdOptions' StorageFactoryRestOptionsFactory):
   * none when --watch-cache is off; else the served resource's --watch-cache-sizes entry (0: none)
   * when it has one, else what the resource declares.
   */
  private watchCacheFor(opts: Pick<ResourceStorageOptions<StoredObject>, 'watchCache' | 'servedAs'>): boolean {
    if (!this.config.watchCache) return false;
    const resource = opts.servedAs === undefined ? undefined : groupResourceString(opts.servedAs);
    const size = resource === undefined ? undefined : this.config.watchCacheSizes.get(resource);
    // kube warns each time it makes a named resource's storage: a size only turns the cache on.
    if (size !== undefined && size > 0) this.config.warn(`Dropping watch-cache-size for ${resource} - watchCache size is now dynamic`);
    return size === undefined ? (opts.watchCache ?? true) : size > 0;
  }

  /**
   * kube's `etcd` check (/healthz, /livez, /readyz): rejects while the backend does not answer
   * a read within --etcd-healthcheck-timeout.
   */
  healthCheck(): Promise<void> {
    return this.checks ? this.checks.health.check() : this.kv.healthCheck();
  }

  /** kube's `etcd-readiness` check (/readyz): the same read within --etcd-readycheck-timeout. */
  readinessCheck(): Promise<void> {
    return this.checks ? this.checks.readiness.check() : this.kv.healthCheck();
  }

  async close(): Promise<void> {
    this.checks?.health.close();
    this.checks?.readiness.close();
    this.compactor?.stop();
    for (const c of this.cachers) c.stop();
    await this.kv.close();
  }
}

/** complete() then create(): the usual way to get a factory. */
export function newStorageFactory(config: StorageConfig): StorageFactory {
  return StorageFactory.create(complete(config));
}
