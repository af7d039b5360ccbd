import type { GracefulDeleter, KubeObject } from '../../registry/rest.js';
import type { APIRequest, APIResponse } from '../../apimachinery/request/http.js';
import { deleteValidatingAdmission, requestContext, type AdmissionRequest } from './context.js';
import { readDeleteOptions } from './deleteoptions.js';
import { negotiateResponse, writeObject } from './response.js';
import type { RequestScope } from './scope.js';

/**
 * DELETE of one object (DeleteResource). The answer is the object while it still exists
 * (finalizers: deletionTimestamp set) or when the resource returns deleted objects; otherwise a
 * Success Status naming it (ReturnDeletedObject=false, the default). 202 instead of 200 when
 * orphanDependents=false and the object was not deleted at once.
 */
export async function deleteResource(req: APIRequest, res: APIResponse, scope: RequestScope, storage: GracefulDeleter, returnDeletedObject: boolean): Promise<void> {
  const target = negotiateResponse(req, scope);
  const { options, raw } = await readDeleteOptions(req);
  const ctx = requestContext(req, res, scope);
  const name = req.info.name;
  const r: AdmissionRequest = { operation: 'DELETE', name, dryRun: options.dryRun, options: raw };
  const { object, deleted } = await storage.delete(ctx, name, deleteValidatingAdmission(scope, ctx, r), options);
  const code = !deleted && raw.orphanDependents === false ? 202 : 200;
  if (!deleted || returnDeletedObject) {
    writeObject(req, res, scope, target, code, await scope.codec.fromHub(object));
    return;
  }
  writeObject(req, res, scope, target, code, successStatus(scope, object));
}

/** The Status the store answers for a completed delete: details.kind is the resource, as kube sets it. */
function successStatus(scope: RequestScope, obj: KubeObject): KubeObject {
  const details: Record<string, string> = {};
  const name = obj.metadata?.name;
  const uid = obj.metadata?.uid;
  if (typeof name === 'string' && name !== '') details['name'] = name;
  if (scope.group !== '') details['group'] = scope.group;
  details['kind'] = scope.resource;
  if (typeof uid === 'string' && uid !== '') details['uid'] = uid;
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details } as KubeObject;
}
