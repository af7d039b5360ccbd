import type { GroupResource } from './catalog.js';
import type { StatusError } from './status-error.js';

/** What a request's error is reported against: the arguments of kube's storage.Interpret*Error. */
export interface ErrorTarget {
  readonly gr: GroupResource;
  readonly name: string;
  /** The verb kube names in a ServerTimeout (`create`, `update`, …). */
  readonly operation: string;
}

/**
 * An error of a lower layer (a storage error) that becomes an API Status only once the request's
 * target is known. toStatusError asks the error itself, so this layer names no storage error and
 * the layer that defines the error owns its Status (kube's storeerr beside the registry).
 */
export abstract class InterpretableError extends Error {
  abstract interpret(target: ErrorTarget): StatusError;
}
