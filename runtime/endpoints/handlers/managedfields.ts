import { newZeroObject } from '../../apimachinery/definition/zero.js';
import { decodeManagedFields, managerOrUserAgent } from '../../apimachinery/managedfields/index.js';
import type { APIRequest } from '../../apimachinery/request/http.js';
import type { KubeObject, RequestContext } from '../../registry/rest.js';
import { headerValue } from './response.js';
import type { RequestScope } from './scope.js';

/**
 * Records the write from `live` to `obj` (both in the hub version) as an Update by the request's
 * manager (the fieldManager option, else the User-Agent), before mutating admission, as kube's
 * create, update and patch handlers do. Never fails: a field manager error drops managedFields
 * (UpdateNoErrors). Returns a new object; an endpoint without a field manager returns `obj`.
 */
export async function trackUpdate(scope: RequestScope, req: APIRequest, live: KubeObject | undefined, obj: KubeObject, fieldManager: string): Promise<KubeObject> {
  if (scope.fieldManager === undefined) return obj;
  const manager = managerOrUserAgent(fieldManager, headerValue(req.headers['user-agent']) ?? '');
  return (await scope.fieldManager.updateNoErrors(live ?? emptyObject(scope), obj, manager)) as KubeObject;
}

/**
 * The zero object of the endpoint's kind in the hub version (scope.Creater.New): the live object
 * of a create and of an apply that creates. Kinds of apis/ start from their generated zero value
 * (the non-pointer structs Go always writes, such as a Service's `spec`), a fresh copy per request;
 * custom resources, being unstructured, from `{apiVersion, kind}` alone.
 */
export function emptyObject(scope: RequestScope): KubeObject {
  const scheme = scope.codec.scheme;
  if (scheme === undefined) return { apiVersion: scope.codec.apiVersion, kind: scope.codec.kind };
  return newZeroObject(scheme.resource(scheme.hubVersion), scheme.apiVersion(scheme.hubVersion), scope.codec.kind) as KubeObject;
}

/** kube's InvalidManagedFieldsAfterMutatingAdmissionWarningFormat. */
const invalidAfterAdmission = '.metadata.managedFields was in an invalid state after admission; this could be caused by an outdated mutating admission controller; please fix your requests: ';

/**
 * Runs mutating admission (`run`) keeping managedFields valid (the managed-fields validating
 * admission controller): when admission leaves them undecodable they are put back as they were
 * before it, with a warning.
 */
export async function admitKeepingManagedFields(ctx: RequestContext, obj: KubeObject, run: () => Promise<void>): Promise<void> {
  const before = obj.metadata?.managedFields;
  await run();
  const after = obj.metadata?.managedFields;
  if (after === undefined) return;
  try {
    decodeManagedFields(after);
  } catch (err) {
    const meta = (obj.metadata ??= {});
    if (before === undefined) delete meta.managedFields;
    else meta.managedFields = before;
    ctx.warn(invalidAfterAdmission + (err instanceof Error ? err.message : String(err)));
  }
}
