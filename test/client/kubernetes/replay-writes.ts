// The replay server's writes, echoing as a recording can: create, update and patch store what was
// sent (patches applied with kube's patch semantics, strategic merge typed by the kind's published
// schema) at a new resourceVersion and answer it; kube's checks that a client can trip without a
// registry (missing name, namespace or name mismatch, taken name, stale resourceVersion, apply
// without fieldManager) answer kube's Status. Apply stores the applied configuration merged over
// the object as a JSON merge patch: the field manager is not replayed.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { applyJSONPatch, applyMergePatch, applyStrategicMergePatch } from '../../../runtime/apimachinery/patch/index.js';
import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import type { JSONObject, RecordedResource } from './recorded.js';
import type { RecordedRequest } from './replay-server.js';
import type { Route } from './replay-route.js';
import { selects } from './replay-route.js';
import { metaOf, type ReplayStore } from './replay-store.js';
import { alreadyExists, badRequest, conflict, deleted, fieldManagerRequired, nameRequired, notFound, type StatusAnswer, unsupportedPatch } from './replay-status.js';

/** A success: the JSON body and its code. */
export interface WriteAnswer {
  readonly code: number;
  readonly text: string;
}

/** What the server sets on a created object (uid, creationTimestamp): fresh per create. */
export type Fresh = () => { uid: string; creationTimestamp: string };

const SCHEMAS = fileURLToPath(new URL('../../../generated/kubernetes/applyconfigurations/', import.meta.url));

/** The kind's published schema (with its patch strategies and merge keys), as the generated apply configurations carry it. */
function schemaOf(r: RecordedResource): JSONSchemaProps | undefined {
  const dir = r.group === '' ? 'core' : r.group.split('.')[0]!;
  const path = `${SCHEMAS}${dir}/${r.version}/${r.kind.toLowerCase()}.schema.json`;
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as JSONSchemaProps) : undefined;
}

function parseObject(body: string): JSONObject {
  const v: unknown = JSON.parse(body);
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('the request body must be a JSON object');
  return v as JSONObject;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function answer(code: number, object: unknown): WriteAnswer {
  return { code, text: JSON.stringify(object) };
}

export function handleWrite(store: ReplayStore, req: RecordedRequest, route: Route, fresh: Fresh): WriteAnswer | StatusAnswer {
  const name = route.name;
  if (req.method === 'POST' && name === undefined) return create(store, req, route, fresh);
  if (req.method === 'DELETE' && name === undefined) return deleteCollection(store, req, route);
  if (name === undefined || (req.method !== 'PUT' && req.method !== 'PATCH' && req.method !== 'DELETE')) return badRequest(`${req.method} is not supported at ${req.path}`);
  if (req.method === 'PATCH') return patch(store, req, { ...route, name }, fresh);
  const stored = store.get(route.resource, route.namespace, name);
  if (stored === undefined) return notFound(route.resource, name);
  if (req.method === 'DELETE') {
    store.write(route.resource, 'DELETED', stored.object);
    return deleted(route.resource, name, str(metaOf(stored.object)['uid']) || undefined);
  }
  const body = parseObject(req.body);
  const meta = metaOf(body);
  if (str(meta['name']) !== name) return badRequest(`the name of the object (${str(meta['name'])}) does not match the name on the URL (${name})`);
  const rv = str(meta['resourceVersion']);
  if (rv !== '' && rv !== str(metaOf(stored.object)['resourceVersion'])) return conflict(route.resource, name);
  const updated = withSubresource(route, stored.object, body);
  if (req.query.get('dryRun') === 'All') return answer(200, updated);
  return answer(200, store.write(route.resource, 'MODIFIED', updated));
}

/** The object after a write: a status write changes status only, a main-resource write keeps the stored status when status is a subresource. */
function withSubresource(route: Route, stored: JSONObject, written: JSONObject): JSONObject {
  const storedMeta = metaOf(stored);
  const keep = { uid: storedMeta['uid'], creationTimestamp: storedMeta['creationTimestamp'] };
  if (route.subresource === 'status') return { ...stored, status: written['status'] };
  const out: JSONObject = { ...written, metadata: { ...metaOf(written), ...Object.fromEntries(Object.entries(keep).filter(([, v]) => v !== undefined)) } };
  if (route.resource.subresources.includes('status')) {
    if (stored['status'] === undefined) delete out['status'];
    else out['status'] = stored['status'];
  }
  return out;
}

function create(store: ReplayStore, req: RecordedRequest, route: Route, fresh: Fresh): WriteAnswer | StatusAnswer {
  const r = route.resource;
  const body = parseObject(req.body);
  const meta = metaOf(body);
  let name = str(meta['name']);
  if (name === '' && str(meta['generateName']) === '') return nameRequired(r);
  if (name === '') name = `${str(meta['generateName'])}${Math.random().toString(36).slice(2, 7)}`;
  const namespace = str(meta['namespace']);
  if (r.namespaced && namespace !== '' && namespace !== route.namespace) return badRequest('the namespace of the provided object does not match the namespace sent on the request');
  if (store.get(r, route.namespace, name) !== undefined) return alreadyExists(r, name);
  const created: JSONObject = { ...body, metadata: { ...meta, name, ...(r.namespaced ? { namespace: route.namespace } : {}), ...fresh() } };
  if (req.query.get('dryRun') === 'All') return answer(201, created);
  return answer(201, store.write(r, 'ADDED', created));
}

function patch(store: ReplayStore, req: RecordedRequest, route: Route & { name: string }, fresh: Fresh): WriteAnswer | StatusAnswer {
  const r = route.resource;
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
  const stored = store.get(r, route.namespace, route.name);
  const bytes = new TextEncoder().encode(req.body);
  let patched: JSONObject;
  if (type === 'application/apply-patch+yaml') {
    if ((req.query.get('fieldManager') ?? '') === '') return fieldManagerRequired();
    const applied = parseObject(req.body);
    if (stored === undefined) {
      const created: JSONObject = { ...applied, metadata: { ...metaOf(applied), ...(r.namespaced ? { namespace: route.namespace } : {}), ...fresh() } };
      return answer(201, store.write(r, 'ADDED', created));
    }
    patched = applyMergePatch(stored.object, bytes).value;
  } else if (stored === undefined) {
    return notFound(r, route.name);
  } else if (type === 'application/merge-patch+json') {
    patched = applyMergePatch(stored.object, bytes).value;
  } else if (type === 'application/json-patch+json') {
    patched = applyJSONPatch(stored.object, bytes).value as JSONObject;
  } else if (type === 'application/strategic-merge-patch+json') {
    patched = applyStrategicMergePatch(stored.object, bytes, schemaOf(r)).value;
  } else {
    return unsupportedPatch();
  }
  const updated = withSubresource(route, stored.object, patched);
  if (req.query.get('dryRun') === 'All') return answer(200, updated);
  return answer(200, store.write(r, 'MODIFIED', updated));
}

/** DELETE of a collection: every selected object, answered with the list of what was deleted. */
function deleteCollection(store: ReplayStore, req: RecordedRequest, route: Route): WriteAnswer | StatusAnswer {
  const r = route.resource;
  const all = store.list(r, route.namespace).map((s) => s.object);
  const matched = selects(all, req.query.get('labelSelector') ?? '', req.query.get('fieldSelector') ?? '');
  if ('code' in matched) return matched;
  const items = matched.map((o) => store.write(r, 'DELETED', o));
  return answer(200, { kind: `${r.kind}List`, apiVersion: r.group === '' ? r.version : `${r.group}/${r.version}`, metadata: { resourceVersion: String(store.rv) }, items });
}
