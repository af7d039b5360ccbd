import type { Scale } from '../../../apis/autoscaling/v1/types.js';
import { newBadRequest, newConflict, newInternalError, newInvalid, newNotFound, OPTIMISTIC_LOCK_ERROR_MSG } from '../../apimachinery/errors/index.js';
import { scaleFromObject, setNested, validateScale } from '../../registry/generic/scale.js';
import type { KubeObject } from '../../registry/rest.js';
import { decodeBody } from './mutations.js';
import type { FakeResource } from './resources.js';

function scalePaths(r: FakeResource): NonNullable<NonNullable<FakeResource['subresources']>['scale']> {
  const paths = r.subresources?.scale;
  if (paths === undefined) throw newNotFound({ group: r.descriptor.group, resource: r.descriptor.resource }, '');
  return paths;
}

/** The Scale view of an object, as the registry's scale subresource builds it. */
export function getScale(r: FakeResource, obj: KubeObject): Scale {
  const paths = scalePaths(r);
  const { scale, found } = scaleFromObject(obj, paths);
  if (!found) throw newInternalError(new Error(`the spec replicas field ${JSON.stringify(paths.specReplicasPath)} does not exist`));
  return scale;
}

/**
 * The object an update of its Scale stores: spec replicas written at the
 * resource's path; a Scale with another name is a 400, with a stale
 * resourceVersion a 409, with negative replicas a 422 on autoscaling Scale.
 */
export function scaledObject(r: FakeResource, current: KubeObject, name: string, body: unknown): KubeObject {
  const paths = scalePaths(r);
  const scale = decodeBody(body) as Scale;
  const scaleName = scale.metadata?.name ?? '';
  if (scaleName !== name) throw newBadRequest(`the name of the object (${scaleName}) does not match the name on the URL (${name})`);
  const errs = validateScale(scale);
  if (errs.length > 0) throw newInvalid({ group: 'autoscaling', kind: 'Scale' }, name, errs);
  const rv = scale.metadata?.resourceVersion;
  if (typeof rv === 'string' && rv !== '' && rv !== current.metadata?.resourceVersion) {
    throw newConflict({ group: r.descriptor.group, resource: r.descriptor.resource }, name, OPTIMISTIC_LOCK_ERROR_MSG);
  }
  const obj = structuredClone(current);
  setNested(obj, paths.specReplicasPath, scale.spec?.replicas ?? 0);
  return obj;
}
