import type { CollectionDeleter } from '../../registry/rest.js';
import type { APIRequest, APIResponse } from '../../apimachinery/request/http.js';
import { deleteValidatingAdmission, requestContext, type AdmissionRequest } from './context.js';
import { readDeleteOptions } from './deleteoptions.js';
import { decodeListOptions, setListOptionsDefaults, toInternalListOptions, validateListOptions } from './listoptions.js';
import { negotiateResponse, versionedList, writeObject } from './response.js';
import type { RequestScope } from './scope.js';

/**
 * DELETE of a collection (DeleteCollection): ListOptions select the objects (as for a list),
 * DeleteOptions apply to each; the answer is the list of what was deleted, in the request version.
 */
export async function deleteCollection(req: APIRequest, res: APIResponse, scope: RequestScope, storage: CollectionDeleter): Promise<void> {
  const target = negotiateResponse(req, scope);
  const rawList = setListOptionsDefaults(decodeListOptions(req.query, false));
  validateListOptions(rawList);
  const listOpts = toInternalListOptions(rawList, scope.definition, '');
  const { options, raw } = await readDeleteOptions(req);
  const ctx = requestContext(req, res, scope);
  const r: AdmissionRequest = { operation: 'DELETE', name: '', dryRun: options.dryRun, options: raw };
  const list = await storage.deleteCollection(ctx, deleteValidatingAdmission(scope, ctx, r), options, listOpts);
  writeObject(req, res, scope, target, 200, await versionedList(scope, list), true);
}
