import type { APIRequest } from '../../server/http.js';

/**
 * The same request with another abort signal (the timeout filter's deadline, a watch's shutdown
 * signal). Every field is copied, so the result also survives a spread; `info` and `user` are
 * forwarded to the original, so filters outside the derivation (metrics, audit, panic recovery)
 * see what filters and handlers inside it set.
 */
export function withSignal(req: APIRequest, signal: AbortSignal): APIRequest {
  const derived = { ...req, signal } as APIRequest;
  Object.defineProperties(derived, {
    info: { get: () => req.info, set: (v: APIRequest['info']) => { req.info = v; }, enumerable: true },
    user: { get: () => req.user, set: (v: APIRequest['user']) => { req.user = v; }, enumerable: true },
  });
  return derived;
}
