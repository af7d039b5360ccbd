import { newAlreadyExists, newConflict, newNotFound, newServerTimeout, OPTIMISTIC_LOCK_ERROR_MSG, StatusError, type StatusReason } from '../apimachinery/errors/index.js';
import type { ErrorTarget } from '../apimachinery/errors/interpretable.js';
import type { StorageError } from './errors.js';

/** storage.Interpret*Error: a storage error as the Status kube-apiserver answers with. */
export function interpretStorageError(err: StorageError, { gr, name, operation }: ErrorTarget): StatusError {
  switch (err.code) {
    case 'KeyNotFound':
      return newNotFound(gr, name);
    case 'KeyExists':
      return newAlreadyExists(gr, name);
    case 'ResourceVersionConflicts':
      return newConflict(gr, name, OPTIMISTIC_LOCK_ERROR_MSG);
    case 'InvalidObj':
      // Its whole text, as kube's: "StorageError: invalid object, Code: 4, Key: …, AdditionalErrorMsg: …".
      return newConflict(gr, name, err.message);
    // Backends raise these only where sending the request again is safe (a read, a write that
    // never left): the Retry-After makes client-go send it again.
    case 'Unreachable':
    case 'Timeout':
      return newServerTimeout(gr, operation, 2);
    case 'ResourceVersionSetOnCreate':
      return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: err.message, code: 500 });
    default: {
      const s = err.toStatus();
      const reason = s.reason === undefined || s.reason === '' ? {} : { reason: s.reason as StatusReason };
      const e = new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: s.message, ...reason, code: s.code });
      if (s.details !== undefined) e.status.details = s.details;
      // An expired continue token's 410 carries the token of an inconsistent continuation (kube's ListMeta.Continue).
      if (s.metadata.continue) e.status.metadata.continue = s.metadata.continue;
      return e;
    }
  }
}
