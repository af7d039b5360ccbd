import { applyDefaults, schemaHasDefaults } from '../../apimachinery/schema/defaults.js';
import { KindScheme } from '../../apimachinery/scheme/scheme.js';
import type { Interface } from '../../storage/index.js';
import type { KubeObject, ResourceStorage } from '../rest.js';
import type { APIGroupDefinition, CohabitatingStorage } from '../types.js';
import type { RandomIntFunc } from './names.js';
import { replicasPathMappings, ScaleStore } from './scale.js';
import { Store, type TTLFunc } from './store.js';
import type { VersionView } from './view.js';

export interface ResourceStorageOptions {
  readonly group: APIGroupDefinition;
  readonly kind: string;
  /** From StorageFactory.forResource({ resourcePrefix: storagePrefix(group.name, plural) }). */
  readonly storage: Interface;
  /** Clock for creation and deletion timestamps (default: the system clock). */
  readonly now?: () => Date;
  /** Source of generated-name characters (default: crypto). */
  readonly random?: RandomIntFunc;
  /**
   * Completes every object read from storage, in the storage version, before it is converted
   * (default: the storage version's schema defaults, as kube's storage codec defaults what it
   * decodes, so objects written before a default existed are served with it).
   */
  readonly readDefaults?: (stored: KubeObject) => void;
  /**
   * The version requests through these stores speak, when it is not the hub: the strategy
   * validates, and the /scale store reads replicas, in it (default: the hub's objects and paths).
   */
  readonly versionView?: VersionView;
  /** The time to live every write gives an object (kube's Store.TTLFunc: Events' --event-ttl); absent: forever. */
  readonly ttl?: TTLFunc;
  /**
   * Set when another resource stores the kind (its group's declaration says so): `storage` is
   * that resource's, objects cross with the codec, and reads apply no defaults of this kind's
   * storage version (what is stored is the other resource's object).
   */
  readonly storedAs?: CohabitatingStorage;
  /**
   * Whether /scale validates the Scale it is sent before the replicas reach the object, as kube's
   * built-in scale endpoints do (ValidateScale: 422 naming Scale.autoscaling). Default true; custom
   * resources pass false: apiextensions' ScaleREST leaves the replicas to the resource's validation.
   */
  readonly validateScale?: boolean;
  /** Unused: admission comes in per call as the validate callbacks. */
  readonly admission?: unknown;
}

/**
 * The storages of one kind: the main Store, plus the /status store and the /scale store
 * when the hub version's definition declares those subresources.
 */
export function createResourceStorage(opts: ResourceStorageOptions): ResourceStorage & { readonly main: Store; readonly status?: Store; readonly scale?: ScaleStore } {
  const scheme = new KindScheme(opts.group, opts.kind);
  const common = {
    scheme,
    storage: opts.storage,
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.random ? { random: opts.random } : {}),
    ...readDefaultsOf(opts),
    ...(opts.versionView ? { versionView: opts.versionView } : {}),
    ...(opts.ttl ? { ttl: opts.ttl } : {}),
    ...(opts.storedAs ? { storedAs: opts.storedAs } : {}),
  };
  const main = new Store(common);
  const subresources = main.resource.subresources;
  return {
    main,
    ...(subresources.status ? { status: new Store({ ...common, target: 'status' }) } : {}),
    ...(subresources.scale
      ? { scale: new ScaleStore(main, subresources.scale, { versionView: opts.versionView, replicasPaths: replicasPathMappings(opts.group, opts.kind), validateScale: opts.validateScale ?? true }) }
      : {}),
  };
}

/** The schema defaults of the kind's storage version, when it has any. */
function readDefaultsOf(opts: ResourceStorageOptions): { readDefaults?: (stored: KubeObject) => void } {
  if (opts.readDefaults !== undefined) return { readDefaults: opts.readDefaults };
  if (opts.storedAs !== undefined) return {};
  const version = opts.group.versions.find((v) => v.name === opts.group.storageVersion);
  const schema = version?.resources.find((r) => r.kind === opts.kind)?.schema;
  return schema !== undefined && schemaHasDefaults(schema) ? { readDefaults: (stored) => applyDefaults(stored, schema) } : {};
}
