// The Status bodies kube-apiserver 1.32 answers with, in its exact shape and wording
// (k8s.io/apimachinery/pkg/api/errors: NewNotFound, NewAlreadyExists, NewConflict, NewInvalid,
// NewBadRequest; the handlers' Status of a successful delete): written here from kube's
// constructors, not from this repository's error catalog, so the clients are tested against
// kube's wire form rather than against this server's.
import { groupResource, type JSONObject, type RecordedResource } from './recorded.js';

export interface StatusAnswer {
  readonly code: number;
  readonly body: JSONObject;
}

type Resource = Pick<RecordedResource, 'group' | 'resource' | 'kind'>;

/** metav1.StatusDetails: empty fields are left out (omitempty), in the struct's field order. */
function details(d: { name?: string; group?: string; kind?: string; uid?: string; causes?: JSONObject[] }): JSONObject {
  const out: JSONObject = {};
  if (d.name) out['name'] = d.name;
  if (d.group) out['group'] = d.group;
  if (d.kind) out['kind'] = d.kind;
  if (d.uid) out['uid'] = d.uid;
  if (d.causes && d.causes.length > 0) out['causes'] = d.causes;
  return out;
}

function failure(code: number, reason: string, message: string, d?: JSONObject): StatusAnswer {
  const body: JSONObject = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason };
  if (d !== undefined && Object.keys(d).length > 0) body['details'] = d;
  body['code'] = code;
  return { code, body };
}

/** 404 NotFound: `deployments.apps "x" not found`, details.kind the resource. */
export function notFound(r: Resource, name: string): StatusAnswer {
  return failure(404, 'NotFound', `${groupResource(r)} "${name}" not found`, details({ name, group: r.group, kind: r.resource }));
}

/** 409 AlreadyExists of a create whose name is taken. */
export function alreadyExists(r: Resource, name: string): StatusAnswer {
  return failure(409, 'AlreadyExists', `${groupResource(r)} "${name}" already exists`, details({ name, group: r.group, kind: r.resource }));
}

/** 409 Conflict of a write whose resourceVersion is not the stored one. */
export function conflict(r: Resource, name: string): StatusAnswer {
  const message = `Operation cannot be fulfilled on ${groupResource(r)} "${name}": the object has been modified; please apply your changes to the latest version and try again`;
  return failure(409, 'Conflict', message, details({ name, group: r.group, kind: r.resource }));
}

/** 422 Invalid with one field error: `Deployment.apps "" is invalid: metadata.name: Required value: …`; details.kind the Kind. */
export function invalid(r: Resource, name: string, cause: { reason: string; field: string; detail: string }): StatusAnswer {
  const groupKind = r.group === '' ? r.kind : `${r.kind}.${r.group}`;
  const message = `${cause.field}: ${cause.detail}`;
  return failure(
    422,
    'Invalid',
    `${groupKind} "${name}" is invalid: ${message}`,
    details({ name, group: r.group, kind: r.kind, causes: [{ reason: cause.reason, message: cause.detail, field: cause.field }] }),
  );
}

/** The create of an object with neither name nor generateName (ValidateObjectMeta). */
export function nameRequired(r: Resource): StatusAnswer {
  return invalid(r, '', { reason: 'FieldValueRequired', field: 'metadata.name', detail: 'Required value: name or generateName is required' });
}

/** An apply without fieldManager (the patch handler's options validation). */
export function fieldManagerRequired(): StatusAnswer {
  const message = 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch';
  return failure(
    422,
    'Invalid',
    message,
    details({ group: 'meta.k8s.io', kind: 'PatchOptions', causes: [{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }] }),
  );
}

export function badRequest(message: string): StatusAnswer {
  return failure(400, 'BadRequest', message);
}

/** 415 of a patch in a type the endpoint does not take. */
export function unsupportedPatch(): StatusAnswer {
  const message =
    'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml';
  return failure(415, 'UnsupportedMediaType', message);
}

/** The watch cache's answer to a watch from before its window (`oldest`: the newest resourceVersion it no longer holds), sent as an ERROR event. */
export function tooOldResourceVersion(requested: number, oldest: number): StatusAnswer {
  return failure(410, 'Expired', `too old resource version: ${requested} (${oldest})`);
}

/** A delete that removed the object at once: Status Success naming it (the handler's answer when the registry does not return the object). */
export function deleted(r: Resource, name: string, uid: string | undefined): StatusAnswer {
  return { code: 200, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: details({ name, group: r.group, kind: r.resource, uid }) } };
}
