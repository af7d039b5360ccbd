// The shape of one fuzz case and the answers a case may accept: kube-apiserver's Status (code and
// reason), a success (the input was valid), or the mux's plain-text 404 for paths no server owns.
import type { RawRequest } from '../integration/https.js';
import type { Model } from './model.js';
import type { Target, Verb } from './targets.js';

export interface StatusExpect {
  code: number;
  reason: string;
}

/** The input is valid: a 2xx, whose body `check` may inspect further (undefined = fine). */
export interface SuccessExpect {
  code: 'success';
  check?: (body: unknown) => string | undefined;
}

/** kube's mux answers a path no server owns with a plain `404 page not found`, not a Status. */
export interface PlainNotFound {
  code: 'plain404';
}

export type Expect = StatusExpect | SuccessExpect | PlainNotFound;

export const BAD_REQUEST: StatusExpect = { code: 400, reason: 'BadRequest' };
export const INVALID: StatusExpect = { code: 422, reason: 'Invalid' };
export const NOT_FOUND: StatusExpect = { code: 404, reason: 'NotFound' };
export const TOO_LARGE: StatusExpect = { code: 413, reason: 'RequestEntityTooLarge' };
export const UNSUPPORTED: StatusExpect = { code: 415, reason: 'UnsupportedMediaType' };
export const NOT_ACCEPTABLE: StatusExpect = { code: 406, reason: 'NotAcceptable' };
export const METHOD_NOT_ALLOWED: StatusExpect = { code: 405, reason: 'MethodNotAllowed' };
export const SUCCESS: SuccessExpect = { code: 'success' };
export const PLAIN_404: PlainNotFound = { code: 'plain404' };
export const CONFLICT: StatusExpect = { code: 409, reason: 'Conflict' };
/**
 * kube's answer to an applied configuration its type converter refuses (a field the kind's schema
 * does not declare, a value of another type): 500 without a reason, `failed to create typed patch
 * object (…)`, as kube-apiserver 1.32 answers it (a plain error of the field manager).
 */
export const APPLY_UNTYPED: StatusExpect = { code: 500, reason: '' };
/**
 * What an apply patch may answer besides what a merge patch of the same content would: 422 on
 * PatchOptions without a fieldManager (checked before the body is decoded), kube's 500 for a
 * configuration the schema cannot type, and 409 where fields the fuzz wrote earlier belong to
 * another manager (`unknown`, the User-Agent-less writes).
 */
export const APPLY_REFUSALS: readonly StatusExpect[] = [INVALID, APPLY_UNTYPED, CONFLICT];
/**
 * kube's answer to DeleteOptions that do not decode: delete.go hands the decoder's error to
 * scope.err unchanged, a 500 without a reason (`couldn't get version/kind; json parse error: …`).
 */
export const DELETE_OPTIONS_UNDECODABLE: StatusExpect = { code: 500, reason: '' };

/** What the runner needs to send one request: built when it is sent, from the acknowledged state. */
export interface Sent {
  req: RawRequest;
  expect: readonly Expect[];
  /** Nothing is persisted (dry run in the query or in delete options): a 2xx changes no object. */
  dryRun?: boolean;
  /** The answer is not the object (a Scale): after a 2xx the runner reads the object back into the model. */
  refresh?: boolean;
}

export interface FuzzCase {
  /** The input class (e.g. "prototype keys"); failures and the summary are grouped by it. */
  category: string;
  /** The resource the request goes to, or `discovery`. */
  target: Target['id'] | 'discovery';
  verb: Verb | 'discovery';
  /**
   * The object this request reads or may change (`<target>/<namespace>/<name>`). Requests on
   * one object are sent one at a time, in case order, so the model of acknowledged writes is
   * exact; a case without it changes nothing that exists (or only creates a new object).
   */
  object?: string;
  /**
   * `status`: the answer must match one of `expect`. `parser`: the request is refused by the
   * HTTP parser before any handler (oversized header block): 431/400 without a Status body, or
   * the connection reset while the client is still sending.
   */
  answer: 'status' | 'parser';
  /** Builds the request and its expected answers from the model of acknowledged writes. */
  build(m: Model): Sent;
}

/** A case whose request and answers do not depend on the state. */
export function fixed(category: string, target: FuzzCase['target'], verb: FuzzCase['verb'], req: RawRequest, expect: readonly Expect[], object?: string): FuzzCase {
  return { category, target, verb, answer: 'status', ...(object !== undefined ? { object } : {}), build: () => ({ req, expect }) };
}
