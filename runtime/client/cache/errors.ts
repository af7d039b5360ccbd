import type { Status } from '../../../apis/meta/v1/status.js';
import { StatusError, type StatusReason } from '../../apimachinery/errors/index.js';

/**
 * How the reflector tells failures apart. Errors are recognised by the Status
 * they carry (a StatusError, or any error with a `status` Status, whatever
 * client produced it) and network failures by their Node error codes.
 */

/** The Status carried by `err` or by one of its causes (errors.As through wrapping). */
function statusOf(err: unknown, depth = 0): Status | undefined {
  if (err instanceof StatusError) return err.status;
  if (typeof err !== 'object' || err === null || depth > 5) return undefined;
  const s = (err as { status?: unknown }).status;
  if (typeof s === 'object' && s !== null && (s as Status).kind === 'Status') return s as Status;
  return statusOf((err as { cause?: unknown }).cause, depth + 1);
}

function reasonOf(err: unknown): string {
  return statusOf(err)?.reason ?? '';
}

function codeOf(err: unknown): number {
  return statusOf(err)?.code ?? 0;
}

/** The resourceVersion or continue token is older than the server keeps (410 Expired, or the older Gone). */
export function isExpiredError(err: unknown): boolean {
  const reason = reasonOf(err);
  return reason === 'Expired' || reason === 'Gone' || (reason === '' && codeOf(err) === 410);
}

/** The server has not yet reached the resourceVersion asked for (504 with a ResourceVersionTooLarge cause). */
export function isTooLargeResourceVersionError(err: unknown): boolean {
  const s = statusOf(err);
  if (s === undefined) return false;
  const causes = s.details?.causes ?? [];
  if (causes.some((c) => c.reason === 'ResourceVersionTooLarge')) return true;
  if (s.reason !== 'Timeout') return false;
  return causes.some((c) => c.message === 'Too large resource version') || (s.message ?? '').includes('Too large resource version');
}

export function isTooManyRequests(err: unknown): boolean {
  return reasonOf(err) === 'TooManyRequests' || codeOf(err) === 429;
}

const CONNECTION_REFUSED = new Set(['ECONNREFUSED']);
const CONNECTION_LOST = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ERR_STREAM_PREMATURE_CLOSE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_BODY_TIMEOUT',
  'ERR_HTTP2_STREAM_ERROR',
]);

/** Error codes of `err`, its causes and the members of an AggregateError (happy-eyeballs connects). */
function codesOf(err: unknown, depth = 0): string[] {
  if (typeof err !== 'object' || err === null || depth > 5) return [];
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown };
  const own = typeof e.code === 'string' ? [e.code] : [];
  const nested = Array.isArray(e.errors) ? e.errors.flatMap((x) => codesOf(x, depth + 1)) : [];
  return [...own, ...codesOf(e.cause, depth + 1), ...nested];
}

/** The server is not accepting connections: most likely down, so back off and retry where we were. */
export function isConnectionRefused(err: unknown): boolean {
  return codesOf(err).some((c) => CONNECTION_REFUSED.has(c));
}

/**
 * The connection broke mid-stream (net.IsProbableEOF): nothing wrong with
 * what the reflector knows, so it resumes the watch from the last
 * resourceVersion as after a clean close.
 */
export function isProbableEOF(err: unknown): boolean {
  if (codesOf(err).some((c) => CONNECTION_LOST.has(c))) return true;
  const message = err instanceof Error ? err.message : '';
  return /socket hang up|other side closed|^terminated$|premature close|unexpected end/i.test(message);
}

/** A watch that may be re-established without relisting: the server refused or throttled it. */
export function isWatchErrorRetriable(err: unknown): boolean {
  return isConnectionRefused(err) || isTooManyRequests(err);
}

/** The error a watch ERROR event stands for (apierrors.FromObject). */
export function errorFromWatchStatus(status: Status): StatusError {
  const code = typeof status.code === 'number' && status.code > 0 ? status.code : 500;
  return new StatusError({
    ...status,
    kind: 'Status',
    apiVersion: 'v1',
    metadata: status.metadata ?? {},
    status: 'Failure',
    message: status.message ?? `watch ended with status ${code}`,
    reason: (status.reason ?? '') as StatusReason,
    code,
  });
}

/** The watch closed within a second without a single event: something between us and the server is wrong. */
export class VeryShortWatchError extends Error {
  override readonly name = 'VeryShortWatchError';
  constructor(reflectorName: string) {
    super(`very short watch: ${reflectorName}: unexpected watch close - watch lasted less than a second and no items received`);
  }
}
