import { checkName } from '../../registry/generic/update.js';
import type { KubeObject, Updater, UpdatedObjectInfo } from '../../registry/rest.js';
import type { APIRequest, APIResponse } from '../../server/http.js';
import { admit, requestContext, validatingAdmission, type AdmissionRequest } from './context.js';
import { ensureObjectNamespace } from './create.js';
import { applyFieldValidation, decodeObjectBody, defaultAndValidate, pruneUnknownFields, strictDecodingFailure, validationReadsOld } from './pipeline.js';
import { headerValue, negotiateResponse, writeObject } from './response.js';
import type { RequestScope } from './scope.js';
import { parseUpdateOptions } from './writeoptions.js';

/**
 * PUT of one object (UpdateResource): the create pipeline plus the name check against the URL;
 * the body's uid/resourceVersion are the preconditions; defaulting, validation (with the
 * current object for CEL transition rules) and mutating admission run inside the store's retry
 * loop on a copy (CREATE when the object is absent and the store may create it).
 * 200, or 201 when the update created the object.
 */
export async function updateResource(req: APIRequest, res: APIResponse, scope: RequestScope, storage: Updater): Promise<void> {
  const target = negotiateResponse(req, scope);
  const body = await req.readBody();
  const opts = parseUpdateOptions(req.query);
  const ctx = requestContext(req, res, scope);
  const name = req.info.name;
  const { obj, duplicates } = decodeObjectBody(scope, body, headerValue(req.headers['content-type']) ?? '');
  const unknown = pruneUnknownFields(scope, obj);
  applyFieldValidation(ctx, opts.fieldValidation, [...duplicates, ...unknown], strictDecodingFailure(scope, scope.version));
  checkName(obj, name, ctx.namespace);
  ensureObjectNamespace(obj, ctx.namespace);

  const update: AdmissionRequest = { operation: 'UPDATE', name, dryRun: opts.dryRun, options: opts.raw };
  const create: AdmissionRequest = { ...update, operation: 'CREATE' };
  const objInfo: UpdatedObjectInfo = {
    preconditions: () => preconditionsOf(obj),
    updatedObject: async (c, old) => {
      // Validated here, where the current object is known: transition rules compare with it.
      const next = structuredClone(obj);
      defaultAndValidate(scope, next, old !== undefined && validationReadsOld(scope) ? await scope.codec.fromHub(old) : undefined);
      const hub = await scope.codec.toHub(next);
      await admit(scope, c, old === undefined ? create : update, hub, old);
      return hub;
    },
  };
  const { object, created } = await storage.update(
    ctx,
    name,
    objInfo,
    { create: validatingAdmission(scope, ctx, create), update: validatingAdmission(scope, ctx, update) },
    { dryRun: opts.dryRun, fieldManager: opts.fieldManager, forceAllowCreate: false },
  );
  writeObject(req, res, scope, target, created ? 201 : 200, await scope.codec.fromHub(object));
}

/**
 * DefaultUpdatedObjectInfo.Preconditions: the body's uid only. A stale resourceVersion is the
 * store's optimistic-concurrency conflict, with its own message.
 */
function preconditionsOf(obj: KubeObject): { uid?: string } | undefined {
  const uid = obj.metadata?.uid;
  return typeof uid === 'string' && uid !== '' ? { uid } : undefined;
}

