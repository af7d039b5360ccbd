import { newBadRequest, newGenericServerResponse, toStatusError, type StatusError } from '../../errors/index.js';

/**
 * The errors of k8s.io/apimachinery/pkg/util/mergepatch that strategic merge
 * patch raises, and how the patch handler maps them to a Status
 * (interpretStrategicMergePatchError): malformed directives are 400
 * BadRequest, lists of lists and retainKeys mismatches 422 with kube's
 * generic message, anything else the 500 kube answers for a bare error.
 */
export class MergePatchError extends Error {
  override readonly name = 'MergePatchError';
  constructor(
    message: string,
    readonly kind: 'BadRequest' | 'Unprocessable' | 'Other' = 'Other',
  ) {
    super(message);
  }
}

export const errBadJSONDoc = (): MergePatchError => new MergePatchError('invalid JSON document', 'BadRequest');
export const errNoListOfLists = (): MergePatchError => new MergePatchError('lists of lists are not supported', 'Unprocessable');
export const errBadPatchFormatForPrimitiveList = (): MergePatchError => new MergePatchError('invalid patch format of primitive list', 'BadRequest');
export const errBadPatchFormatForRetainKeys = (): MergePatchError => new MergePatchError('invalid patch format of retainKeys', 'BadRequest');
export const errBadPatchFormatForSetElementOrderList = (): MergePatchError => new MergePatchError('invalid patch format of setElementOrder list', 'BadRequest');
export const errPatchContentNotMatchRetainKeys = (): MergePatchError => new MergePatchError("patch content doesn't match retainKeys list", 'Unprocessable');

/** Any error from applying a strategic merge patch as the StatusError the client receives. */
export function interpretStrategicMergePatchError(err: unknown): StatusError {
  if (err instanceof MergePatchError) {
    if (err.kind === 'BadRequest') return newBadRequest(err.message);
    if (err.kind === 'Unprocessable') return newGenericServerResponse(422);
  }
  return toStatusError(err);
}
