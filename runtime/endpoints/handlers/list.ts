import type { Lister } from '../../registry/rest.js';
import type { APIRequest, APIResponse } from '../../apimachinery/request/http.js';
import { requestContext } from './context.js';
import { decodeListOptions, setListOptionsDefaults, toInternalListOptions, validateListOptions } from './listoptions.js';
import { negotiateResponse, versionedList, writeObject } from './response.js';
import type { RequestScope } from './scope.js';

/**
 * GET of a collection (ListResource without watch): negotiation (406), ListOptions (400 on
 * malformed values, 422 on invalid combinations), selectors (400), then the store. The answer
 * is the request version's `<Kind>List`, or a Table / PartialObjectMetadataList.
 */
export async function listResource(req: APIRequest, res: APIResponse, scope: RequestScope, storage: Lister): Promise<void> {
  const target = negotiateResponse(req, scope);
  const raw = setListOptionsDefaults(decodeListOptions(req.query, false));
  validateListOptions(raw);
  const opts = toInternalListOptions(raw, scope.definition, nameInPath(req));
  const list = await storage.list(requestContext(req, res, scope), opts);
  writeObject(req, res, scope, target, 200, await versionedList(scope, list), true);
}

/**
 * The object name the URL itself carries (`…/services/x` for a legacy `/watch/` path), as
 * opposed to RequestInfo.name, which a list also takes from a metadata.name field selector.
 */
export function nameInPath(req: APIRequest): string {
  return req.info.parts[1] ?? '';
}
