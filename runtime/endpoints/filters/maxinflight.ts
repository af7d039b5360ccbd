import { newTooManyRequests } from '../../apimachinery/errors/index.js';
import type { Filter } from '../../server/http.js';
import { SYSTEM_PRIVILEGED_GROUP } from './authenticator.js';
import type { LongRunningRequestCheck } from './longrunning.js';

export const DEFAULT_MAX_REQUESTS_IN_FLIGHT = 400;
export const DEFAULT_MAX_MUTATING_REQUESTS_IN_FLIGHT = 200;

export type RequestKind = 'mutating' | 'readOnly';

/** Told the number of requests in flight of a kind whenever it changes (apiserver_current_inflight_requests). */
export interface InFlightRecorder {
  setInFlight(kind: RequestKind, count: number): void;
}

export interface MaxInFlightOptions {
  /** Read-only (get, list, watch) requests served at once; 0 means unlimited. */
  maxRequestsInFlight: number;
  /** Every other verb; 0 means unlimited. */
  maxMutatingRequestsInFlight: number;
  longRunning: LongRunningRequestCheck;
  recorder?: InFlightRecorder;
}

const NON_MUTATING_VERBS: ReadonlySet<string> = new Set(['get', 'list', 'watch']);

/**
 * WithMaxInFlightLimit: at most so many read-only and so many mutating requests at once; one
 * more gets 429 TooManyRequests with `Retry-After: 1`. Long-running requests are neither limited
 * nor counted. As kube, a member of system:masters is served even over the limit (without being
 * counted): the super-user and the loopback client always get an answer.
 */
export function withMaxInFlightLimit(opts: MaxInFlightOptions): Filter {
  const limits: Record<RequestKind, number> = { readOnly: opts.maxRequestsInFlight, mutating: opts.maxMutatingRequestsInFlight };
  const inFlight: Record<RequestKind, number> = { readOnly: 0, mutating: 0 };
  return async (req, res, next) => {
    if (opts.longRunning(req.info)) return next(req, res);
    const kind: RequestKind = NON_MUTATING_VERBS.has(req.info.verb) ? 'readOnly' : 'mutating';
    const limit = limits[kind];
    if (limit <= 0) return next(req, res);
    if (inFlight[kind] >= limit) {
      if (req.user?.groups.includes(SYSTEM_PRIVILEGED_GROUP)) return next(req, res);
      res.writeError(newTooManyRequests('Too many requests, please try again later.', 1));
      return;
    }
    opts.recorder?.setInFlight(kind, ++inFlight[kind]);
    try {
      await next(req, res);
    } finally {
      opts.recorder?.setInFlight(kind, --inFlight[kind]);
    }
  };
}
