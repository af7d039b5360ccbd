import { checkName, checkResourceVersionConflict } from '../../registry/generic/update.js';
import type { KubeObject, RequestContext, Updater, UpdatedObjectInfo } from '../../registry/rest.js';
import type { APIRequest, APIResponse } from '../../apimachinery/request/http.js';
import { admit, requestContext, validatingAdmission, type AdmissionRequest } from './context.js';
import { ensureObjectNamespace } from './create.js';
import { withCreateAuthorization } from './create-on-update.js';
import { applyFieldValidation, cloneDecoded, decodeObjectBody, defaultObject, pruneUnknownFields, strictDecodingFailure, validateAdmitted } from './pipeline.js';
import { trackUpdate } from './managedfields.js';
import { headerValue, negotiateResponse, writeObject, type ResponseTarget } from './response.js';
import type { RequestScope } from './scope.js';
import { parseUpdateOptions } from './writeoptions.js';

/**
 * PUT of one object (UpdateResource): the create pipeline plus the name check against the URL;
 * the body's uid/resourceVersion are the preconditions; defaulting, managedFields, mutating
 * admission, the resourceVersion comparison and validation (with the current object for CEL
 * transition rules) run inside the store's retry loop on a copy (CREATE when the object is
 * absent and the store may create it).
 * 200, or 201 when the update created the object.
 */
export async function updateResource(req: APIRequest, res: APIResponse, scope: RequestScope, storage: Updater): Promise<void> {
  const target = negotiateResponse(req, scope);
  const body = await req.readBody();
  const opts = parseUpdateOptions(req.query);
  const ctx = requestContext(req, res, scope);
  const name = req.info.name;
  const { obj, strict, floatLiterals } = await decodeObjectBody(scope, body, headerValue(req.headers['content-type']) ?? '', req, opts.fieldValidation, ctx);
  const unknown = pruneUnknownFields(scope, obj);
  applyFieldValidation(ctx, opts.fieldValidation, [...strict.errors, ...unknown], strictDecodingFailure(scope, scope.version), [...strict.warnings, ...unknown]);
  checkName(obj, name, ctx.namespace);
  ensureObjectNamespace(obj, ctx.namespace);

  const update: AdmissionRequest = { operation: 'UPDATE', name, dryRun: opts.dryRun, options: opts.raw };
  const create: AdmissionRequest = { ...update, operation: 'CREATE' };
  const objInfo: UpdatedObjectInfo = {
    preconditions: () => preconditionsOf(obj),
    updatedObject: async (c, old) => {
      // objInfo.UpdatedObject (the body, the field manager, mutating admission), then Store.Update's
      // resourceVersion comparison (a stale one is a conflict before anything is validated), then
      // BeforeUpdate's validation, where the current object is known (transition rules, ratcheting).
      const next = cloneDecoded(obj, floatLiterals);
      defaultObject(scope, next);
      const hub = await trackUpdate(scope, req, old, await scope.codec.toHub(next), opts.fieldManager);
      await admit(scope, c, old === undefined ? create : update, hub, old);
      if (old !== undefined) checkResourceVersionConflict(scope.groupResource, name, hub, old);
      await validateAdmitted(scope, hub, old, c.warn);
      return hub;
    },
  };
  await storeUpdateAndAnswer({ req, res, scope, storage, target, ctx, name, objInfo, update, create, opts });
}

/**
 * The end PUT and PATCH share: the store's update with validating admission for the update
 * (and for a create, when the store may create, after the user's `create` permission is
 * checked), then 200, or 201 when the object was created.
 */
export async function storeUpdateAndAnswer(u: {
  readonly req: APIRequest;
  readonly res: APIResponse;
  readonly scope: RequestScope;
  readonly storage: Updater;
  readonly target: ResponseTarget;
  readonly ctx: RequestContext;
  readonly name: string;
  readonly objInfo: UpdatedObjectInfo;
  readonly update: AdmissionRequest;
  readonly create: AdmissionRequest;
  readonly opts: { readonly dryRun: boolean; readonly fieldManager: string };
  /** Apply patches create a missing object whatever the strategy says. Default false. */
  readonly forceAllowCreate?: boolean;
}): Promise<void> {
  const resourceScope = u.scope.resourceScope;
  const { object, created } = await u.storage.update(
    u.ctx,
    u.name,
    u.objInfo,
    {
      create: withCreateAuthorization(u.req, validatingAdmission(u.scope, u.ctx, u.create)),
      update: validatingAdmission(u.scope, u.ctx, u.update),
      ...(resourceScope !== undefined ? { resource: (obj: KubeObject, old: KubeObject | undefined) => validateAdmitted(resourceScope, obj, old, u.ctx.warn) } : {}),
    },
    { dryRun: u.opts.dryRun, fieldManager: u.opts.fieldManager, forceAllowCreate: u.forceAllowCreate ?? false },
  );
  writeObject(u.req, u.res, u.scope, u.target, created ? 201 : 200, await u.scope.codec.fromHub(object));
}

/**
 * DefaultUpdatedObjectInfo.Preconditions: the body's uid only. A stale resourceVersion is the
 * store's optimistic-concurrency conflict, with its own message.
 */
function preconditionsOf(obj: KubeObject): { uid?: string } | undefined {
  const uid = obj.metadata?.uid;
  return typeof uid === 'string' && uid !== '' ? { uid } : undefined;
}
