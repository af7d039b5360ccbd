import type { APIRequest } from '../../server/http.js';

/**
 * The same request with another abort signal (the timeout filter's deadline). Everything else,
 * including later writes to `info` and `user`, goes to the original, so filters outside the
 * derivation (metrics, audit, panic recovery) still see what filters inside it set.
 */
export function withSignal(req: APIRequest, signal: AbortSignal): APIRequest {
  return Object.create(req, {
    signal: { value: signal, enumerable: true },
    info: { get: () => req.info, set: (v: APIRequest['info']) => { req.info = v; }, enumerable: true },
    user: { get: () => req.user, set: (v: APIRequest['user']) => { req.user = v; }, enumerable: true },
  }) as APIRequest;
}
