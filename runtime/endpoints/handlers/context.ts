import type { Attributes, Operation } from '../../admission/types.js';
import type { KubeObject, RequestContext, ValidateObjectFunc } from '../../registry/rest.js';
import type { APIRequest, APIResponse } from '../../apimachinery/request/http.js';
import type { UserInfo } from '../../apimachinery/request/types.js';
import { admitKeepingManagedFields } from './managedfields.js';
import type { RequestScope } from './scope.js';

/** The user when no authentication filter ran (in-process tests). */
const ANONYMOUS: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };

/** The storage's view of the request; warnings go to the response's Warning headers. */
export function requestContext(req: APIRequest, res: APIResponse, scope: RequestScope): RequestContext {
  return {
    namespace: scope.namespaced ? req.info.namespace : '',
    user: req.user ?? ANONYMOUS,
    requestInfo: req.info,
    get signal() {
      return req.signal;
    },
    warn: (message) => res.addWarning(message),
  };
}

export interface AdmissionRequest {
  readonly operation: Operation;
  readonly name: string;
  readonly dryRun: boolean;
  readonly options: unknown;
}

/** admission.NewAttributesRecord for this scope; objects are in the hub version. */
export function admissionAttributes(scope: RequestScope, ctx: RequestContext, r: AdmissionRequest, object: KubeObject | undefined, oldObject: KubeObject | undefined): Attributes {
  const hubVersion = scope.codec.scheme?.hubVersion ?? scope.version;
  return {
    operation: r.operation,
    group: scope.group,
    version: hubVersion,
    kind: scope.kind,
    resource: scope.resource,
    subresource: scope.subresource,
    namespace: ctx.namespace,
    name: r.name,
    object,
    oldObject,
    dryRun: r.dryRun,
    userInfo: ctx.user,
    options: r.options,
  };
}

/** Runs the mutating phase on `obj` (in place); managedFields it leaves invalid are put back, with a warning. */
export async function admit(scope: RequestScope, ctx: RequestContext, r: AdmissionRequest, obj: KubeObject, old: KubeObject | undefined): Promise<void> {
  const run = (): Promise<void> => scope.admission.admit(admissionAttributes(scope, ctx, r, obj, old), ctx);
  await (scope.fieldManager === undefined ? run() : admitKeepingManagedFields(ctx, obj, run));
}

/** The validating phase as the callback the store calls on the final object (AdmissionToValidateObjectFunc). */
export function validatingAdmission(scope: RequestScope, ctx: RequestContext, r: AdmissionRequest): ValidateObjectFunc {
  return async (obj, old) => {
    const name = r.name !== '' ? r.name : String(obj.metadata?.name ?? '');
    await scope.admission.validate(admissionAttributes(scope, ctx, { ...r, name }, obj, old), ctx);
  };
}

/**
 * Admission of a DELETE (AdmissionToValidateObjectDeleteFunc): the store calls it with the object
 * being deleted, the old object, and both phases run on it, mutating plugins first (nothing to
 * mutate, but a mutating plugin may refuse: NamespaceLifecycle's immortal namespaces).
 */
export function deleteValidatingAdmission(scope: RequestScope, ctx: RequestContext, r: AdmissionRequest): ValidateObjectFunc {
  return async (obj) => {
    const name = r.name !== '' ? r.name : String(obj.metadata?.name ?? '');
    const attrs = admissionAttributes(scope, ctx, { ...r, name }, undefined, obj);
    await scope.admission.admit(attrs, ctx);
    await scope.admission.validate(attrs, ctx);
  };
}
