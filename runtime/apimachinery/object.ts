/**
 * The objects storage deals in: plain JSON objects with a `metadata` block, stored as JSON text.
 * Storage reads only the metadata fields below and treats everything else as opaque.
 */
export interface ObjectMeta {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  selfLink?: string;
  generation?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [field: string]: unknown;
}

export interface StoredObject {
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

/** Status as returned in ERROR watch events and by typed errors (meta.k8s.io/v1 Status). */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: { continue?: string };
  status: 'Failure';
  message: string;
  reason?: string;
  code: number;
  details?: {
    causes?: Array<{ reason?: string; message?: string; field?: string }>;
    retryAfterSeconds?: number;
  };
}

/** Deep-freezes a JSON value in place and returns it; objects shared between readers are frozen. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as Record<string, unknown>)) deepFreeze(v);
  }
  return value;
}
