import type { TokenRequest } from '../../../apis/authentication/v1/types.js';
import type { FieldError } from '../../apimachinery/validation/field.js';

/** validation.MinTokenAgeSec: the shortest lifetime a TokenRequest may ask for. */
export const MIN_TOKEN_AGE_SECONDS = 10 * 60;

/** The longest: 2^32 seconds. */
const MAX_TOKEN_AGE_SECONDS = 2 ** 32;

/**
 * pkg/apis/authentication/validation.ValidateTokenRequest (kube 1.32): the requested lifetime is
 * at least 10 minutes and at most 2^32 seconds. An absent expirationSeconds is Go's zero (the
 * route defaults it to 3600 before the storage sees it).
 */
export function validateTokenRequest(tr: TokenRequest): FieldError[] {
  const errs: FieldError[] = [];
  const seconds = tr.spec?.expirationSeconds ?? 0;
  if (seconds < MIN_TOKEN_AGE_SECONDS) {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.expirationSeconds', badValue: seconds, detail: 'may not specify a duration less than 10 minutes' });
  }
  if (seconds > MAX_TOKEN_AGE_SECONDS) {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.expirationSeconds', badValue: seconds, detail: 'may not specify a duration larger than 2^32 seconds' });
  }
  return errs;
}
