import { deepCopyJSON } from '../../apimachinery/serializer/jsonvalue.js';
import type { KubeObject, ResourceStorage } from '../../registry/rest.js';
import { formatTime } from '../../registry/generic/index.js';
import { createOnlyStorage } from '../authorization/create-only.js';
import { GROUP, reviewUserInfo } from './tokenreview.js';

/**
 * pkg/registry/authentication/selfsubjectreview: the requesting user as this server authenticated
 * it (after impersonation), what `kubectl auth whoami` prints. The answer is a new review stamped
 * with the time it was made, as kube's is; nothing is stored.
 */
export function selfSubjectReviewStorage(now: () => Date = () => new Date()): ResourceStorage {
  return createOnlyStorage({ group: GROUP, resource: 'selfsubjectreviews' }, async (ctx, obj, validate) => {
    await validate(deepCopyJSON(obj), undefined);
    return { apiVersion: obj.apiVersion, kind: obj.kind, metadata: { creationTimestamp: formatTime(now()) }, status: { userInfo: reviewUserInfo(ctx.user) } } as unknown as KubeObject;
  });
}
