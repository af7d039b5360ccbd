import { isDeepStrictEqual } from 'node:util';
import type { APIServiceCondition } from '../../../apis/apiregistration/v1/types.js';
import type { APIServiceInterface } from '../../../generated/clientset/apiregistration/v1/index.js';
import { isConflict, isNotFound } from '../../apimachinery/errors/index.js';
import { mutableCopy, setAvailableCondition, type CachedAPIService } from '../apiservice.js';

/** The Available condition a controller concluded, before its transition time is settled. */
export type AvailableVerdict = Omit<APIServiceCondition, 'type' | 'lastTransitionTime'>;

/**
 * Writes `verdict` as the APIService's Available condition through the status subresource,
 * only when that changes its status (the controllers re-check often; no-op writes would churn
 * every watcher). Resolves false when the write lost a race (conflict, deleted): the informer
 * brings the newer object and the check runs again.
 */
export async function updateAvailableCondition(client: APIServiceInterface, original: CachedAPIService, verdict: AvailableVerdict, now: Date, signal: AbortSignal): Promise<boolean> {
  const updated = mutableCopy(original);
  setAvailableCondition(updated, verdict, now);
  if (isDeepStrictEqual(updated.status, original.status)) return true;
  try {
    await client.updateStatus(updated, { signal });
    return true;
  } catch (err) {
    if (isConflict(err) || isNotFound(err)) return false;
    throw err;
  }
}
