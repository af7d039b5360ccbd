import type { StatusCause, StatusDetails } from '../../../apis/meta/v1/status.js';
import { newGenericServerResponse, StatusError, type FailureStatus, type StatusReason } from '../../apimachinery/errors/index.js';
import { parseJSON } from './decode.js';

/**
 * The request got no usable answer: the connection failed or broke, the deadline passed, TLS
 * verification failed, or the body could not be decoded. Answers of the server, whatever their
 * code, are StatusErrors instead.
 */
export class TransportError extends Error {
  override readonly name = 'TransportError';

  constructor(
    message: string,
    /** Node's error code when there is one (ECONNRESET, ECONNREFUSED, UNABLE_TO_VERIFY_LEAF_SIGNATURE…); 'ETIMEDOUT' for the client's own deadline. */
    readonly code: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The bytes of a non-2xx answer, as the transport received them. */
export interface ErrorResponse {
  readonly method: string;
  readonly statusCode: number;
  readonly contentType: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly body: Buffer;
}

/** client-go caps the text it quotes from a body that is not a Status. */
const MAX_UNSTRUCTURED_TEXT = 2048;

/**
 * The error a non-2xx answer rejects with: the Status the server sent, or, when the body is
 * not a failure Status (a proxy's HTML page, an empty body), a Status built from the HTTP code
 * as client-go's newUnstructuredResponseError builds it.
 */
export function statusErrorFromResponse(r: ErrorResponse): StatusError {
  const status = decodeFailureStatus(r);
  if (status !== undefined) return new StatusError(status);
  return unstructuredResponseError(r);
}

function decodeFailureStatus(r: ErrorResponse): FailureStatus | undefined {
  if (r.body.length === 0) return undefined;
  let value: unknown;
  try {
    value = parseJSON(r.body);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || value['status'] !== 'Failure') return undefined;
  // A Status without kind is read as one, as client-go decodes error bodies with a v1 Status default.
  if (value['kind'] !== undefined && value['kind'] !== 'Status') return undefined;
  const code = typeof value['code'] === 'number' && value['code'] !== 0 ? value['code'] : r.statusCode;
  const status: FailureStatus = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: isRecord(value['metadata']) ? value['metadata'] : {},
    status: 'Failure',
    message: typeof value['message'] === 'string' ? value['message'] : '',
    // Servers may send reasons this catalog does not name; predicates then fall back to the code.
    reason: (typeof value['reason'] === 'string' ? value['reason'] : '') as StatusReason,
    code,
  };
  if (isRecord(value['details'])) status.details = value['details'] as StatusDetails;
  return status;
}

function unstructuredResponseError(r: ErrorResponse): StatusError {
  const isText = /^text\//i.test(r.contentType ?? '');
  const message = isText ? r.body.subarray(0, MAX_UNSTRUCTURED_TEXT).toString('utf8').trim() : 'unknown';
  const generic = newGenericServerResponse(r.statusCode, message).status;
  // A conflict on create means the name is taken.
  const reason: StatusReason = r.statusCode === 409 && r.method === 'POST' ? 'AlreadyExists' : (generic.reason ?? '');
  const causes: StatusCause[] = [{ reason: 'UnexpectedServerResponse', message }];
  const details: StatusDetails = { causes, ...(r.retryAfterSeconds !== undefined && r.retryAfterSeconds > 0 ? { retryAfterSeconds: r.retryAfterSeconds } : {}) };
  return new StatusError({ ...generic, reason, details });
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
