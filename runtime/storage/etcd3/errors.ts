import { CompactedError, FutureRevisionError } from '../kv.js';
import { BackendTimeoutError, BackendUnavailableError } from '../kvstore/kvErrors.js';

/**
 * Maps etcd3 client errors onto the KV error contract. Deadline errors leave a write's outcome
 * unknown (TimeoutError upstream); unavailable means the call most likely never reached etcd.
 */
export function mapEtcdError(e: unknown, requestedRevision = 0): Error {
  const err = e instanceof Error ? e : new Error(String(e));
  const msg = err.message;
  if (msg.includes('required revision has been compacted')) return new CompactedError(requestedRevision, 0);
  if (msg.includes('required revision is a future revision')) return new FutureRevisionError(requestedRevision, 0);
  if (err.name === 'GRPCDeadlineExceededError' || /DEADLINE_EXCEEDED|request timed out|Deadline exceeded/i.test(msg)) {
    return new BackendTimeoutError(`etcd request timed out: ${msg}`, { cause: err });
  }
  if (
    err.name === 'GRPCUnavailableError' ||
    err.name === 'ClientClosedError' ||
    err.name === 'GRPCCancelledError' ||
    /UNAVAILABLE|ECONNREFUSED|No connection established|leader changed|no leader|Connection dropped|failed to connect/i.test(msg)
  ) {
    return new BackendUnavailableError(`etcd unavailable: ${msg}`, { cause: err });
  }
  return err;
}

/** True when a failed write certainly did not reach etcd (safe to send again). */
export function neverSent(e: unknown): boolean {
  const msg = e instanceof Error ? e.message : String(e);
  return /No connection established|ECONNREFUSED|connect ECONNRESET/i.test(msg);
}
