import { newInvalid, newNotFound, newUnsupportedMediaType, type StatusError } from '../../apimachinery/errors/index.js';
import { mediaTypeEssence, parseMediaType } from '../../apimachinery/serializer/mediatype.js';
import type { KubeObject, Updater, UpdatedObjectInfo } from '../../registry/rest.js';
import type { APIRequest, APIResponse } from '../../server/http.js';
import { admit, requestContext, validatingAdmission, type AdmissionRequest } from './context.js';
import { decodePatch, applyPatchDocument, type PatchType, type DecodedPatch } from './patchers.js';
import { applyFieldValidation, defaultAndCheckTypeMeta, defaultAndValidate, pruneUnknownFields } from './pipeline.js';
import { headerValue, negotiateResponse, writeObject } from './response.js';
import type { RequestScope } from './scope.js';
import { checkName } from './update.js';
import { parsePatchOptions } from './writeoptions.js';

/**
 * PATCH of one object (PatchResource): the Content-Type picks the patch type (415 for any
 * other, first of all), then negotiation, PatchOptions (422), the patch decoded once (400).
 * Inside the store's retry loop the current object is converted to the request version,
 * patched, and sent through the create pipeline from pruning on; a missing object is a 404.
 */
export async function patchResource(req: APIRequest, res: APIResponse, scope: RequestScope, storage: Updater): Promise<void> {
  const mt = parseMediaType(headerValue(req.headers['content-type']) ?? '');
  const patchType = (mt === undefined ? '' : mediaTypeEssence(mt)) as PatchType;
  if (!scope.patchTypes.includes(patchType)) throw newUnsupportedMediaType(scope.patchTypes);
  const target = negotiateResponse(req, scope);
  const body = await req.readBody();
  const opts = parsePatchOptions(req.query, false);
  const ctx = requestContext(req, res, scope);
  const name = req.info.name;
  const patch = decodePatch(patchType, body, opts.fieldValidation);

  const update: AdmissionRequest = { operation: 'UPDATE', name, dryRun: opts.dryRun, options: opts.raw };
  const create: AdmissionRequest = { ...update, operation: 'CREATE' };
  const objInfo: UpdatedObjectInfo = {
    preconditions: () => undefined,
    updatedObject: async (c, old) => {
      if (old === undefined) throw newNotFound(scope.groupResource, name);
      const patched = patchedObject(scope, patch, structuredClone(scope.codec.fromHub(old)));
      const unknown = pruneUnknownFields(scope, patched);
      applyFieldValidation(c, opts.fieldValidation, [...patch.strictErrors, ...unknown], (message) => patchFailure(patch, patched, message));
      checkName(patched, name, c.namespace);
      defaultAndValidate(scope, patched);
      const hub = scope.codec.toHub(patched);
      await admit(scope, c, update, hub, old);
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
  writeObject(req, res, scope, target, created ? 201 : 200, scope.codec.fromHub(object));
}

/** The patch applied to the current object in the request version; its type meta must stay the URL's. */
function patchedObject(scope: RequestScope, patch: DecodedPatch, current: KubeObject): KubeObject {
  const result = applyPatchDocument(patch, current, scope.codec.scheme !== undefined ? scope.definition.schema : undefined);
  if (result === null || typeof result !== 'object' || Array.isArray(result)) {
    throw invalidPatch(JSON.stringify(result), "Object 'Kind' is missing");
  }
  const obj = result as KubeObject;
  defaultAndCheckTypeMeta(scope, obj);
  return obj;
}

/**
 * Strict decoding errors of a patch are a 422 on the `patch` field (with no kind), showing the
 * patched object (JSON and merge patches) or the patch as Go prints a map (strategic merge).
 */
function patchFailure(patch: DecodedPatch, patched: KubeObject, message: string): StatusError {
  return invalidPatch(patch.type === 'application/strategic-merge-patch+json' ? patch.goString : JSON.stringify(patched), message);
}

function invalidPatch(value: string, detail: string): StatusError {
  return newInvalid({ group: '', kind: '' }, '', [{ type: 'FieldValueInvalid', field: 'patch', badValue: value, detail }]);
}

