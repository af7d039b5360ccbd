import { newBadRequest } from '../../apimachinery/errors/index.js';
import type { Creater, KubeObject } from '../../registry/rest.js';
import type { APIRequest, APIResponse } from '../../apimachinery/request/http.js';
import { admit, requestContext, validatingAdmission, type AdmissionRequest } from './context.js';
import { applyFieldValidation, decodeObjectBody, defaultAndValidate, pruneUnknownFields, strictDecodingFailure } from './pipeline.js';
import { headerValue, negotiateResponse, writeObject } from './response.js';
import type { RequestScope } from './scope.js';
import { parseCreateOptions } from './writeoptions.js';

/**
 * POST to a collection (createHandler): negotiation (406), body (413), CreateOptions (422),
 * decoding (415/400), fieldValidation, system fields wiped, namespace from the URL, defaulting
 * and schema validation (422) in the request version; then, in the hub, mutating admission and
 * the store with validating admission. 201 with the created object in the request version.
 */
export async function createResource(req: APIRequest, res: APIResponse, scope: RequestScope, storage: Creater): Promise<void> {
  const target = negotiateResponse(req, scope);
  const body = await req.readBody();
  const opts = parseCreateOptions(req.query);
  const ctx = requestContext(req, res, scope);
  const { obj, duplicates } = await decodeObjectBody(scope, body, headerValue(req.headers['content-type']) ?? '', req.signal);
  const unknown = pruneUnknownFields(scope, obj);
  applyFieldValidation(ctx, opts.fieldValidation, [...duplicates, ...unknown], strictDecodingFailure(scope, scope.version));
  wipeObjectMetaSystemFields(obj);
  ensureObjectNamespace(obj, ctx.namespace);
  defaultAndValidate(scope, obj);

  const hub = await scope.codec.toHub(obj);
  const r: AdmissionRequest = { operation: 'CREATE', name: String(hub.metadata?.name ?? ''), dryRun: opts.dryRun, options: opts.raw };
  await admit(scope, ctx, r, hub, undefined);
  const out = await storage.create(ctx, hub, validatingAdmission(scope, ctx, r), { dryRun: opts.dryRun, fieldManager: opts.fieldManager });
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
