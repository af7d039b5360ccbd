/**
 * The meta components the generated paths reference that the generated documents do not carry:
 * Status, DeleteOptions, Patch, WatchEvent (with RawExtension), and autoscaling/v1 Scale (scaleSchemas), under
 * kube-apiserver's names. Shapes follow apis/meta/v1 and apis/autoscaling/v1.
 */

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
export const STATUS_SCHEMA = `${META}.Status`;
export const DELETE_OPTIONS_SCHEMA = `${META}.DeleteOptions`;
export const PATCH_SCHEMA = `${META}.Patch`;
export const WATCH_EVENT_SCHEMA = `${META}.WatchEvent`;
export const SCALE_SCHEMA = 'io.k8s.api.autoscaling.v1.Scale';
const OBJECT_META = `${META}.ObjectMeta`;
const LIST_META = `${META}.ListMeta`;
const RAW_EXTENSION = 'io.k8s.apimachinery.pkg.runtime.RawExtension';

export function schemaRef(name: string): { $ref: string } {
  return { $ref: `#/components/schemas/${name}` };
}

const str = (description: string): object => ({ type: 'string', description });
const int32 = (description: string): object => ({ type: 'integer', format: 'int32', description });
const typeMeta = {
  apiVersion: str('The versioned schema of this representation of an object.'),
  kind: str('The REST resource this object represents.'),
};

function gvkList(kind: string, groupVersions: readonly (readonly [string, string])[]): object[] {
  const seen = new Set<string>();
  const out: object[] = [];
  for (const [group, version] of groupVersions) {
    const key = `${group}/${version}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ group, kind, version });
  }
  return out;
}

/** The built-in meta components for a document of `group`/`version` (DeleteOptions and WatchEvent are registered in every group). */
export function metaSchemas(group: string, version: string): Record<string, unknown> {
  const everywhere: (readonly [string, string])[] = [
    ['', 'v1'],
    [group, version],
  ];
  return {
    [STATUS_SCHEMA]: {
      description: 'The result of a call that returns no other object, most often an error.',
      type: 'object',
      properties: {
        ...typeMeta,
        code: int32('The suggested HTTP status code; 0 if unset.'),
        details: { description: 'Extra data for the reason.', allOf: [schemaRef(`${META}.StatusDetails`)] },
        message: str('A human-readable description of the outcome.'),
        metadata: { description: 'Standard list metadata.', allOf: [schemaRef(LIST_META)] },
        reason: str('Why the operation failed; empty means no reason is known.'),
        status: str('Success or Failure.'),
      },
      'x-kubernetes-group-version-kind': gvkList('Status', [['', 'v1']]),
    },
    [`${META}.StatusDetails`]: {
      description: 'Additional facts about a failure; which attributes are set depends on Status.reason.',
      type: 'object',
      properties: {
        causes: { type: 'array', description: 'Individual causes of the failure.', items: schemaRef(`${META}.StatusCause`), 'x-kubernetes-list-type': 'atomic' },
        group: str('The API group of the resource involved.'),
        kind: str('The kind (or resource) involved.'),
        name: str('The name of the resource involved.'),
        retryAfterSeconds: int32('Seconds to wait before retrying.'),
        uid: str('The UID of the resource involved.'),
      },
    },
    [`${META}.StatusCause`]: {
      description: 'One cause of a failure.',
      type: 'object',
      properties: {
        field: str('The JSON path of the offending field.'),
        message: str('A human-readable description of the cause.'),
        reason: str('What went wrong, machine-readable.'),
      },
    },
    [DELETE_OPTIONS_SCHEMA]: {
      description: 'Options of a delete request.',
      type: 'object',
      properties: {
        ...typeMeta,
        dryRun: { type: 'array', description: 'When present, modifications are not persisted; All is the only value.', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic' },
        gracePeriodSeconds: { type: 'integer', format: 'int64', description: 'Seconds before the object is deleted; zero means immediately.' },
        orphanDependents: { type: 'boolean', description: 'Deprecated: use propagationPolicy.' },
        preconditions: { description: 'Must be fulfilled before the deletion is carried out.', allOf: [schemaRef(`${META}.Preconditions`)] },
        propagationPolicy: str('Whether and how garbage collection is performed: Orphan, Background or Foreground.'),
      },
      'x-kubernetes-group-version-kind': gvkList('DeleteOptions', everywhere),
    },
    [`${META}.Preconditions`]: {
      description: 'Conditions an operation must fulfil before it is carried out.',
      type: 'object',
      properties: { resourceVersion: str('The target resourceVersion.'), uid: str('The target UID.') },
    },
    [PATCH_SCHEMA]: { description: 'The body of a PATCH request; its form depends on the Content-Type.', type: 'object' },
    [WATCH_EVENT_SCHEMA]: {
      description: 'One event of a watch stream.',
      type: 'object',
      required: ['type', 'object'],
      properties: {
        object: { description: 'The object, or a Status for ERROR events.', allOf: [schemaRef(RAW_EXTENSION)] },
        type: str('ADDED, MODIFIED, DELETED, BOOKMARK or ERROR.'),
      },
      'x-kubernetes-group-version-kind': gvkList('WatchEvent', everywhere),
    },
    [RAW_EXTENSION]: { description: 'An embedded object, serialized as-is.', type: 'object' },
  };
}

/** autoscaling/v1 Scale and its parts, for documents with scale subresources. */
export function scaleSchemas(): Record<string, unknown> {
  return {
    [SCALE_SCHEMA]: {
      description: 'The scale of a resource: desired and observed replica counts.',
      type: 'object',
      properties: {
        ...typeMeta,
        metadata: { description: "The scaled object's metadata.", allOf: [schemaRef(OBJECT_META)] },
        spec: { description: 'The desired scale.', allOf: [schemaRef('io.k8s.api.autoscaling.v1.ScaleSpec')] },
        status: { description: 'The observed scale; read-only.', allOf: [schemaRef('io.k8s.api.autoscaling.v1.ScaleStatus')] },
      },
      'x-kubernetes-group-version-kind': gvkList('Scale', [['autoscaling', 'v1']]),
    },
    'io.k8s.api.autoscaling.v1.ScaleSpec': {
      description: 'The desired scale of a resource.',
      type: 'object',
      properties: { replicas: int32('The desired number of instances.') },
    },
    'io.k8s.api.autoscaling.v1.ScaleStatus': {
      description: 'The observed scale of a resource.',
      type: 'object',
      required: ['replicas'],
      properties: {
        replicas: int32('The number of instances actually observed.'),
        selector: str('The label selector of the instances counted, in query-parameter syntax.'),
      },
    },
  };
}
