import type { Filter } from '../../apimachinery/request/http.js';

/**
 * WithCacheControl: responses are `Cache-Control: no-cache, private` unless the handler sets
 * its own (OpenAPI documents served immutable do).
 */
export function withCacheControl(): Filter {
  return (req, res, next) => {
    res.setHeader('Cache-Control', 'no-cache, private');
    return next(req, res);
  };
}
