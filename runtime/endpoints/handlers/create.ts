import { newBadRequest } from '../../apimachinery/errors/index.js';
import type { Creater, KubeObject, RequestContext, ValidateObjectFunc, WriteOptions } from '../../registry/rest.js';
import type { NamedCreater } from '../../registry/types.js';
import type { APIRequest, APIResponse } from '../../apimachinery/request/http.js';
import { admit, requestContext, validatingAdmission, type AdmissionRequest } from './context.js';
import { applyFieldValidation, decodeObjectBody, defaultObject, pruneUnknownFields, strictDecodingFailure, validateAdmitted } from './pipeline.js';
import { trackUpdate } from './managedfields.js';
import { headerValue, negotiateResponse, writeObject } from './response.js';
import type { RequestScope } from './scope.js';
import { parseCreateOptions } from './writeoptions.js';

/**
 * POST to a collection (createHandler): negotiation (406), body (413), CreateOptions (422),
 * decoding (415/400), fieldValidation, system fields wiped, namespace from the URL, defaulting in
 * the request version; then, in the hub, managedFields (an Update by the request's manager) and
 * mutating admission; then the schema's and CEL validation (422) in the request version, as the
 * store's BeforeCreate runs the strategy's, and the store with validating admission. 201 with the
 * created object in the request version.
 */
export async function createResource(req: APIRequest, res: APIResponse, scope: RequestScope, storage: Creater): Promise<void> {
  await create(req, res, scope, undefined, (ctx, hub, validate, opts) => storage.create(ctx, hub, validate, opts));
}

/**
 * POST to a subresource of a named object (a NamedCreater: `serviceaccounts/<name>/token`): the same
 * pipeline as createResource in the subresource's own kind, admission and the storage told the
 * URL's name.
 */
export async function createNamedResource(req: APIRequest, res: APIResponse, scope: RequestScope, storage: NamedCreater): Promise<void> {
  const name = req.info.name;
  await create(req, res, scope, name, (ctx, hub, validate, opts) => storage.create(ctx, name, hub, validate, opts));
}

type CreateFunc = (ctx: RequestContext, hub: KubeObject, validate: ValidateObjectFunc, opts: WriteOptions) => Promise<KubeObject>;

async function create(req: APIRequest, res: APIResponse, scope: RequestScope, name: string | undefined, store: CreateFunc): Promise<void> {
  const target = negotiateResponse(req, scope);
  const body = await req.readBody();
  const opts = parseCreateOptions(req.query);
  const ctx = requestContext(req, res, scope);
  const { obj, strict } = await decodeObjectBody(scope, body, headerValue(req.headers['content-type']) ?? '', req, opts.fieldValidation, ctx);
  const unknown = pruneUnknownFields(scope, obj);
  applyFieldValidation(ctx, opts.fieldValidation, [...strict.errors, ...unknown], strictDecodingFailure(scope, scope.version), [...strict.warnings, ...unknown]);
  wipeObjectMetaSystemFields(obj);
  ensureObjectNamespace(obj, ctx.namespace);
  defaultObject(scope, obj);

  const hub = await trackUpdate(scope, req, undefined, await scope.codec.toHub(obj), opts.fieldManager);
  const r: AdmissionRequest = { operation: 'CREATE', name: name ?? String(hub.metadata?.name ?? ''), dryRun: opts.dryRun, options: opts.raw };
  await admit(scope, ctx, r, hub, undefined);
  // The strategy's validation (BeforeCreate in the store), on the object as admission left it.
  await validateAdmitted(scope, hub, undefined, ctx.warn);
  const out = await store(ctx, hub, validatingAdmission(scope, ctx, r), { dryRun: opts.dryRun, fieldManager: opts.fieldManager });
  writeObject(req, res, scope, target, 201, await scope.codec.fromHub(out));
}

/** rest.WipeObjectMetaSystemFields: what the server alone sets on create. */
export function wipeObjectMetaSystemFields(obj: KubeObject): void {
  const meta = obj.metadata as Record<string, unknown> | undefined;
  if (meta === undefined || meta === null || typeof meta !== 'object') return;
  for (const f of ['creationTimestamp', 'uid', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink']) delete meta[f];
}

/**
 * EnsureObjectNamespaceMatchesRequestNamespace: an object without a namespace takes the URL's,
 * a cluster-scoped object loses its namespace, any other difference is a 400.
 */
export function ensureObjectNamespace(obj: KubeObject, requestNamespace: string): void {
  const meta = (obj.metadata ??= {}) as Record<string, unknown>;
  const ns = typeof meta['namespace'] === 'string' ? meta['namespace'] : '';
  if (ns === requestNamespace) return;
  if (ns === '') meta['namespace'] = requestNamespace;
  else if (requestNamespace === '') delete meta['namespace'];
  else throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
}
