import type { Filter } from '../../apimachinery/request/http.js';
import { resolveRequestInfo } from '../../apimachinery/request/requestinfo.js';

/** WithRequestInfo: sets `req.info` for every filter and handler after it. */
export function withRequestInfo(): Filter {
  return (req, res, next) => {
    req.info = resolveRequestInfo(req.method, req.path, req.query);
    return next(req, res);
  };
}
