import { newBadRequest } from '../../apimachinery/errors/index.js';
import type { Getter } from '../../registry/rest.js';
import type { APIRequest, APIResponse } from '../../apimachinery/request/http.js';
import { requestContext } from './context.js';
import { queryBool, queryString } from './queryparams.js';
import { negotiateResponse, writeObject } from './response.js';
import type { RequestScope } from './scope.js';

/** GET of one object (GetResource): negotiation first (406), then GetOptions, then the store. */
export async function getResource(req: APIRequest, res: APIResponse, scope: RequestScope, storage: Getter): Promise<void> {
  const target = negotiateResponse(req, scope);
  if (queryBool(req.query, 'export') === true) throw newBadRequest('the export parameter, deprecated since v1.14, is no longer supported');
  const ctx = requestContext(req, res, scope);
  const obj = await storage.get(ctx, req.info.name, { resourceVersion: queryString(req.query, 'resourceVersion') });
  writeObject(req, res, scope, target, 200, await scope.codec.fromHubShared(obj));
}
