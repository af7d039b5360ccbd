import { ExpiredError, expiredMessages, StorageError, TimeoutError, UnreachableError } from '../errors.js';
import { CompactedError } from '../kv.js';

/**
 * Backends throw these for transport problems on a call that is safe to send again: a read, or
 * a write that never reached the backend (no connection, store closed). The store maps them to
 * storage errors that the API answers with 500 ServerTimeout and Retry-After, which client-go
 * follows by sending the request again, a write included. A write that may have reached the
 * backend is a BackendError instead.
 */
export class BackendUnavailableError extends Error {
  override readonly name = 'BackendUnavailableError';
}

/** The call outlived the backend client's own deadline; as BackendUnavailableError, only where sending it again is safe. */
export class BackendTimeoutError extends Error {
  override readonly name = 'BackendTimeoutError';
}

/**
 * The backend answered with an error of its own (etcd's `etcdserver: leader changed`, `request
 * is too large`, …), or a write may have reached it before its connection or deadline ran out
 * (`rpc error: code = Unavailable desc = …`, `context deadline exceeded`). Not a storage error:
 * kube's Interpret*Error passes it through and the client gets a 500 with an empty reason and
 * this message, without Retry-After, because a write that got it may have committed.
 */
export class BackendError extends Error {
  override readonly name = 'BackendError';
}

/** Maps a KV error to the storage error the REST layer understands; storage errors and BackendErrors pass through. */
export function mapKVError(e: unknown, key: string): Error {
  if (e instanceof StorageError) return e;
  if (e instanceof CompactedError) return new ExpiredError(expiredMessages.list);
  if (e instanceof BackendTimeoutError) return new TimeoutError(key, e.message, { cause: e });
  if (e instanceof BackendUnavailableError) return new UnreachableError(key, e.message, { cause: e });
  return e instanceof Error ? e : new Error(String(e));
}
