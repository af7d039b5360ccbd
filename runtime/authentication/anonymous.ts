import type { UserInfo } from '../apimachinery/request/types.js';
import { ALL_UNAUTHENTICATED, ANONYMOUS, type Authenticator } from './authenticator.js';

const ANONYMOUS_USER: UserInfo = Object.freeze({ name: ANONYMOUS, groups: Object.freeze([ALL_UNAUTHENTICATED]) });

/**
 * anonymous.NewAuthenticator: every request is system:anonymous in system:unauthenticated.
 * Meant to come last, behind unionFailOnError, so that it only answers requests that carried
 * no credential at all (--anonymous-auth).
 */
export function anonymousAuthenticator(): Authenticator {
  const resp = { user: ANONYMOUS_USER };
  return { authenticate: () => Promise.resolve(resp) };
}
