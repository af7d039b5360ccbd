import { CompactedError, FutureRevisionError } from '../kv.js';
import { BackendError, BackendTimeoutError, BackendUnavailableError } from '../kvstore/kvErrors.js';

/** gRPC status codes by number, named as Go prints them (codes.Code's String), which is how kube's messages show them. */
const grpcCodeNames = [
  'OK',
  'Canceled',
  'Unknown',
  'InvalidArgument',
  'DeadlineExceeded',
  'NotFound',
  'AlreadyExists',
  'PermissionDenied',
  'ResourceExhausted',
  'FailedPrecondition',
  'Aborted',
  'OutOfRange',
  'Unimplemented',
  'Internal',
  'Unavailable',
  'DataLoss',
  'Unauthenticated',
] as const;

const UNAVAILABLE = 14;
const UNKNOWN = 2;
const DEADLINE_EXCEEDED = 4;
const CANCELLED = 1;

/** etcd3's typed errors keep no code, only grpc-js's message (`14 UNAVAILABLE: etcdserver: leader changed`): read it back from there. */
export function grpcStatusOf(e: unknown): { code: number; details: string } | undefined {
  if (!(e instanceof Error)) return undefined;
  const m = /^(\d{1,2}) [A-Z_]+: ([\s\S]*)$/.exec(e.message);
  if (m) return { code: Number(m[1]), details: m[2] ?? '' };
  const code = (e as { code?: unknown }).code;
  return typeof code === 'number' && code > 0 && code < grpcCodeNames.length ? { code, details: e.message } : undefined;
}

/** The etcd3 client's error class: its errors keep Error's name, only the class tells them apart. */
function etcd3Kind(e: Error): string {
  return e.constructor.name;
}

/**
 * The text etcd's server answered with (rpctypes' `etcdserver: …` errors), as Go's client
 * reports it: the bare text, which is the message kube-apiserver's 500 carries.
 */
function etcdServerText(e: Error): string | undefined {
  const status = grpcStatusOf(e);
  if (status?.details.startsWith('etcdserver: ')) return status.details;
  const at = e.message.indexOf('etcdserver: ');
  return at >= 0 && etcd3Kind(e) === 'EtcdError' ? e.message.slice(at) : undefined;
}

/**
 * Maps etcd3 client errors onto the KV error contract:
 * - compaction and future revisions keep their typed errors;
 * - an error etcd's server answered with (leader changed, no leader, request timed out, request
 *   too large, too many requests, …) and any other gRPC status that is not about the connection
 *   is a BackendError with the message Go's client gives it: kube's registry passes such an
 *   error through unchanged and answers 500 with an empty reason and no Retry-After, so a client
 *   does not send again a write that may have committed;
 * - this client's own deadline (a hung etcd) is a BackendTimeoutError, and no connection (or a
 *   lost one) a BackendUnavailableError: both become 500 ServerTimeout with Retry-After, which
 *   is right for a read (sending it again is harmless) and for a write that never left; a
 *   write's error goes through mapEtcdWriteError instead, which keeps Retry-After off a write
 *   that may have committed.
 */
export function mapEtcdError(e: unknown, requestedRevision = 0): Error {
  const err = e instanceof Error ? e : new Error(String(e));
  const msg = err.message;
  if (msg.includes('required revision has been compacted')) return new CompactedError(requestedRevision, 0);
  if (msg.includes('required revision is a future revision')) return new FutureRevisionError(requestedRevision, 0);
  const serverText = etcdServerText(err);
  if (serverText !== undefined) return new BackendError(serverText, { cause: err });
  const status = grpcStatusOf(err);
  // Only this client's deadline: etcd's server answers a proposal that outlived its own request
  // timeout with code Unknown "context deadline exceeded", which is the server's error.
  if (etcd3Kind(err) === 'GRPCDeadlineExceededError' || status?.code === DEADLINE_EXCEEDED || (status === undefined && /Deadline exceeded/i.test(msg))) {
    return new BackendTimeoutError(`etcd request timed out: ${msg}`, { cause: err });
  }
  if (
    ['GRPCUnavailableError', 'ClientClosedError', 'GRPCCancelledError'].includes(etcd3Kind(err)) ||
    status?.code === UNAVAILABLE ||
    status?.code === CANCELLED ||
    /ECONNREFUSED|No connection established|Connection dropped|failed to connect/i.test(msg)
  ) {
    return new BackendUnavailableError(`etcd unavailable: ${msg}`, { cause: err });
  }
  if (status !== undefined) return new BackendError(`rpc error: code = ${grpcCodeNames[status.code] ?? status.code} desc = ${status.details}`, { cause: err });
  return err;
}

const RESOURCE_EXHAUSTED = 8;

/**
 * A request over the client's send limit (grpc.max_send_message_length), refused before it was
 * sent, with the text grpc-go gives (`trying to send message larger than max (N vs. limit)`),
 * which kube passes through to a 500. `size` measures the request, which grpc-js does not report.
 */
export function sendLimitError(e: unknown, size: () => number): BackendError | undefined {
  const status = grpcStatusOf(e);
  const limit = status?.code === RESOURCE_EXHAUSTED ? /^Attempted to send message with a size larger than (\d+)$/.exec(status.details)?.[1] : undefined;
  if (limit === undefined) return undefined;
  return new BackendError(`rpc error: code = ResourceExhausted desc = trying to send message larger than max (${size()} vs. ${limit})`, { cause: e });
}

/**
 * Maps the error of a read (a range). A read that outlived its deadline is a timeout whichever
 * end noticed first: this client (DeadlineExceeded), or etcd's server, which answers a call past
 * the deadline it was sent with as code Unknown "context deadline exceeded" (the two race at the
 * same instant). Sending a read again is harmless, so either way it is ServerTimeout with
 * Retry-After; a write's Unknown stays the server's error (mapEtcdWriteError).
 */
export function mapEtcdReadError(e: unknown, requestedRevision = 0): Error {
  const status = grpcStatusOf(e);
  if (status?.code === UNKNOWN && status.details === 'context deadline exceeded') {
    return new BackendTimeoutError(`etcd request timed out: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  return mapEtcdError(e, requestedRevision);
}

/**
 * Maps the error of a write (a transaction that puts or deletes). A write that may have reached
 * etcd and then lost its connection, was cancelled, or outlived this client's deadline has an
 * unknown outcome: it may have committed. client-go sends again any request answered 5xx with
 * Retry-After (a create that did commit would then get 409, a JSON patch appending to a list
 * would apply twice), so such a write is answered as kube answers it: the error Go's etcd client
 * returns, passed through to a 500 with an empty reason and no Retry-After. Go's client gives
 * `context deadline exceeded` when the call's context expired (toErr) and the gRPC status text
 * otherwise. Only a write that certainly never left keeps ServerTimeout with Retry-After.
 */
export function mapEtcdWriteError(e: unknown): Error {
  const mapped = mapEtcdError(e);
  if (!(mapped instanceof BackendTimeoutError || mapped instanceof BackendUnavailableError) || writeNeverSent(e)) return mapped;
  if (mapped instanceof BackendTimeoutError) return new BackendError('context deadline exceeded', { cause: e });
  const status = grpcStatusOf(e);
  const code = status?.code ?? UNAVAILABLE;
  const details = status?.details ?? mapped.message.replace(/^etcd unavailable: /, '');
  return new BackendError(`rpc error: code = ${grpcCodeNames[code] ?? code} desc = ${details}`, { cause: e });
}

/**
 * True when a write certainly never reached etcd: no connection (neverSent), a client or channel
 * already closed, a stream the server refused (HTTP/2 REFUSED_STREAM: not processed), or a
 * deadline that passed while grpc-js still waited for a connection to send it on (its deadline
 * text says "Waiting for LB pick": no stream was opened).
 */
function writeNeverSent(e: unknown): boolean {
  if (neverSent(e)) return true;
  if (!(e instanceof Error)) return false;
  if (etcd3Kind(e) === 'ClientClosedError') return true;
  const status = grpcStatusOf(e);
  if (status?.code === UNAVAILABLE) return /^(Stream refused by server|Channel closed before call started)$/.test(status.details);
  return status?.code === DEADLINE_EXCEEDED && /Waiting for LB pick/.test(status.details);
}

/**
 * True when a read may be sent again: etcd's client retries a range whose error has code
 * Unavailable (isSafeRetryImmutableRPC), whether etcd's server said so (leader changed, no
 * leader, request timed out) or the connection did; a call that never left is always safe.
 */
export function retryableRead(e: unknown): boolean {
  if (neverSent(e)) return true;
  if (e instanceof Error && etcd3Kind(e) === 'GRPCUnavailableError') return true;
  return grpcStatusOf(e)?.code === UNAVAILABLE;
}

/** True when a failed write certainly did not reach etcd (safe to send again). */
export function neverSent(e: unknown): boolean {
  const msg = e instanceof Error ? e.message : String(e);
  return /No connection established|ECONNREFUSED|connect ECONNRESET/i.test(msg);
}
