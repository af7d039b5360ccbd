import type { UserInfo } from '../endpoints/request/types.js';
import type { StoredObject } from '../storage/object.js';

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
  /** Plugin name, as in --enable-admission-plugins (e.g. NamespaceLifecycle, BanFlunder). */
  readonly name: string;
  /** Whether the plugin wants to see this operation at all. */
  handles(operation: Operation): boolean;
}

export interface MutationInterface extends Plugin {
  admit(attrs: Attributes, signal: AbortSignal): Promise<void>;
}

export interface ValidationInterface extends Plugin {
  validate(attrs: Attributes, signal: AbortSignal): Promise<void>;
}

export type AdmissionPlugin = MutationInterface | ValidationInterface | (MutationInterface & ValidationInterface);

/** The plugin chain: every mutating plugin in order, then every validating plugin in order. */
export interface AdmissionChain {
  admit(attrs: Attributes, signal: AbortSignal): Promise<void>;
  validate(attrs: Attributes, signal: AbortSignal): Promise<void>;
}

export function newAdmissionChain(plugins: readonly AdmissionPlugin[]): AdmissionChain {
  const mutating = plugins.filter((p): p is MutationInterface => 'admit' in p);
  const validating = plugins.filter((p): p is ValidationInterface => 'validate' in p);
  return {
    async admit(attrs, signal) {
      for (const p of mutating) if (p.handles(attrs.operation)) await p.admit(attrs, signal);
    },
    async validate(attrs, signal) {
      for (const p of validating) if (p.handles(attrs.operation)) await p.validate(attrs, signal);
    },
  };
}

/**
 * Read access to stored objects for plugins that consult other objects (NamespaceLifecycle,
 * BanFlunder), as kube's admission initializers hand plugins informers. Objects are in the hub
 * version of their kind, shared and frozen.
 */
export interface ObjectLookup {
  get(gr: { group: string; resource: string }, namespace: string, name: string, signal: AbortSignal): Promise<StoredObject | undefined>;
  list(gr: { group: string; resource: string }, namespace: string, signal: AbortSignal): Promise<readonly StoredObject[]>;
}
