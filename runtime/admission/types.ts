import type { UserInfo } from '../apimachinery/request/types.js';
import type { StoredObject } from '../apimachinery/object.js';

/**
 * Admission (k8s.io/apiserver/pkg/admission): in-process plugins that see every write after
 * decoding and defaulting, mutating ones first, then validating ones. Plugins receive objects in
 * the hub version of their kind; a rejection is a thrown StatusError (usually Forbidden or Invalid).
 */
export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface Attributes {
  readonly operation: Operation;
  /** '' for the core group. */
  readonly group: string;
  /** The hub version objects are presented in. */
  readonly version: string;
  readonly kind: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  /** The new object: absent on DELETE. Mutating plugins may change it in place. */
  readonly object: StoredObject | undefined;
  /** The stored object on UPDATE and DELETE. Never mutate it. */
  readonly oldObject: StoredObject | undefined;
  readonly dryRun: boolean;
  readonly userInfo: UserInfo;
  /** Options of the operation (CreateOptions, UpdateOptions, DeleteOptions) as sent. */
  readonly options: unknown;
}

export interface Plugin {
  /** Plugin name, as in --enable-admission-plugins (e.g. NamespaceLifecycle, or a group's own). */
  readonly name: string;
  /** Whether the plugin wants to see this operation at all. */
  handles(operation: Operation): boolean;
}

/**
 * What a plugin may wait on (Go's ctx): the request's signal, made on first use so plugins that
 * never block cost the request nothing.
 */
export interface AdmissionContext {
  readonly signal: AbortSignal;
}

export interface MutationInterface extends Plugin {
  admit(attrs: Attributes, ctx: AdmissionContext): Promise<void>;
}

export interface ValidationInterface extends Plugin {
  validate(attrs: Attributes, ctx: AdmissionContext): Promise<void>;
}

export type AdmissionPlugin = MutationInterface | ValidationInterface | (MutationInterface & ValidationInterface);

/** The plugin chain: every mutating plugin in order, then every validating plugin in order. */
export interface AdmissionChain {
  admit(attrs: Attributes, ctx: AdmissionContext): Promise<void>;
  validate(attrs: Attributes, ctx: AdmissionContext): Promise<void>;
}

export function newAdmissionChain(plugins: readonly AdmissionPlugin[]): AdmissionChain {
  const mutating = plugins.filter((p): p is MutationInterface => 'admit' in p);
  const validating = plugins.filter((p): p is ValidationInterface => 'validate' in p);
  return {
    async admit(attrs, ctx) {
      for (const p of mutating) if (p.handles(attrs.operation)) await p.admit(attrs, ctx);
    },
    async validate(attrs, ctx) {
      for (const p of validating) if (p.handles(attrs.operation)) await p.validate(attrs, ctx);
    },
  };
}

/**
 * Read access to stored objects for plugins that consult other objects (NamespaceLifecycle,
 * a group's own), as kube's admission initializers hand plugins informers. Objects are in the hub
 * version of their kind, shared and frozen.
 */
export interface ObjectLookup {
  /** The object as stored now (a consistent read, as a plugin's live lookup). */
  get(gr: { group: string; resource: string }, namespace: string, name: string, ctx: AdmissionContext): Promise<StoredObject | undefined>;
  /**
   * The object as the watch cache holds it, without waiting for the cache to catch up (an
   * informer's lister): possibly a moment stale, and answered while storage is unreachable.
   */
  getCached(gr: { group: string; resource: string }, namespace: string, name: string, ctx: AdmissionContext): Promise<StoredObject | undefined>;
  /** Every object, from the watch cache without waiting for it to catch up, as an informer's lister answers. */
  list(gr: { group: string; resource: string }, namespace: string, ctx: AdmissionContext): Promise<readonly StoredObject[]>;
}

/**
 * What the server hands a plugin when it builds it (kube's admission plugin initializers): the
 * plugin keeps what it needs. Servers differ in what `lookup` reaches (a standalone aggregated
 * server sees its own objects, and namespaces only through its control plane).
 */
export interface PluginInitializer {
  readonly lookup: ObjectLookup;
}

/**
 * How a group declares an admission plugin (kube's admission.Factory, with the initializers
 * applied): the server calls it once, when it builds its admission chain.
 */
export type PluginFactory = (init: PluginInitializer) => AdmissionPlugin;
