import type { BackoffOptions } from './config.js';

/**
 * When a request is sent again (client-go rest/with_retry.go), as pure decisions; the client
 * does the waiting.
 *
 * - An answer of 429 or 5xx with an integer Retry-After is retried for any method, after the
 *   seconds the server asked for: the server has said it did not act on the request.
 * - A connection failure (refused, reset, closed before the answer was complete) is retried
 *   only for GET, after an exponential backoff with jitter: for any other method the request
 *   may have reached the server and been acted on.
 * - Nothing else is retried, and nothing after maxRetries retries.
 */

/** The retry number this decision is about, counted from 1. */
export type Attempt = number;

/** Connection failures that say nothing about whether the server acted on the request. */
const CONNECTION_FAILURES: ReadonlySet<string> = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ECONNABORTED', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ERR_STREAM_PREMATURE_CLOSE']);

export function isConnectionFailure(code: string | undefined): boolean {
  return code !== undefined && CONNECTION_FAILURES.has(code);
}

/** Retry-After as an integer number of seconds (the only form kube sends); undefined otherwise. */
export function retryAfterSeconds(header: string | string[] | undefined): number | undefined {
  const h = Array.isArray(header) ? header[0] : header;
  if (h === undefined || !/^\s*-?\d+\s*$/.test(h)) return undefined;
  return Math.max(0, Number.parseInt(h, 10));
}

/** The wait before retry `attempt` after an answer, or undefined when the answer is final. */
export function retryAfterAnswer(statusCode: number, retryAfter: number | undefined, attempt: Attempt, maxRetries: number): number | undefined {
  if (attempt > maxRetries) return undefined;
  if (statusCode !== 429 && statusCode < 500) return undefined;
  return retryAfter === undefined ? undefined : retryAfter * 1000;
}

/** The wait before retry `attempt` after a connection failure, or undefined when it is final. */
export function retryAfterFailure(
  method: string,
  code: string | undefined,
  attempt: Attempt,
  maxRetries: number,
  backoff: Required<BackoffOptions>,
  random: () => number = Math.random,
): number | undefined {
  if (attempt > maxRetries || method !== 'GET' || !isConnectionFailure(code)) return undefined;
  return backoffDelay(attempt, backoff, random);
}

/** initial·2^(attempt-1), capped, then stretched by up to `jitter` of itself. */
export function backoffDelay(attempt: Attempt, b: Required<BackoffOptions>, random: () => number = Math.random): number {
  const base = Math.min(b.maxMs, b.initialMs * 2 ** Math.min(attempt - 1, 30));
  return Math.round(base * (1 + b.jitter * random()));
}
