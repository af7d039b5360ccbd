import { newUnauthorized } from '../../apimachinery/errors/index.js';
import type { Filter, Handler } from '../../apimachinery/request/http.js';
import type { Authenticator } from '../../authentication/authenticator.js';
import type { Logger } from './log.js';

export interface AuthenticationOptions {
  authenticator: Authenticator;
  logger: Logger;
  /** Answers requests nobody authenticated; default 401 Unauthorized. */
  failed?: Handler;
}

/** Front-proxy headers that must not travel further once a request is authenticated. */
const REQUEST_HEADER_NAMES = ['x-remote-user', 'x-remote-uid', 'x-remote-group'];
const REQUEST_HEADER_EXTRA_PREFIX = 'x-remote-extra-';

/** Answers 401 Unauthorized (kube's Unauthorized handler). */
export const unauthorizedHandler: Handler = async (_req, res) => {
  res.writeError(newUnauthorized());
};

/**
 * WithAuthentication: sets `req.user` from the authenticator, or hands the request to the
 * failed handler. On success the credentials are removed from the request (Authorization and
 * the X-Remote-* front-proxy headers) so nothing downstream, a proxy to an aggregated server
 * least of all, can forward or trust them.
 */
export function withAuthentication(opts: AuthenticationOptions): Filter {
  const failed = opts.failed ?? unauthorizedHandler;
  return async (req, res, next) => {
    let resp;
    try {
      resp = await opts.authenticator.authenticate(req);
    } catch (err) {
      opts.logger.error('Unable to authenticate the request', { method: req.method, URI: req.raw.url, err });
    }
    if (!resp) return failed(req, res);
    const headers = req.raw.headers;
    delete headers.authorization;
    for (const name of Object.keys(headers)) {
      if (REQUEST_HEADER_NAMES.includes(name) || name.startsWith(REQUEST_HEADER_EXTRA_PREFIX)) delete headers[name];
    }
    req.user = resp.user;
    return next(req, res);
  };
}
