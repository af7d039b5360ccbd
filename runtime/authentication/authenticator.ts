import { aggregateMessage } from '../apimachinery/errors/aggregate.js';
import type { APIRequest } from '../apimachinery/request/http.js';
import type { UserInfo } from '../apimachinery/request/types.js';

/** Well-known users and groups (k8s.io/apiserver/pkg/authentication/user). */
export const SYSTEM_PRIVILEGED_GROUP = 'system:masters';
export const ALL_AUTHENTICATED = 'system:authenticated';
export const ALL_UNAUTHENTICATED = 'system:unauthenticated';
export const ANONYMOUS = 'system:anonymous';

/** The fixed administrator every request is, while no real authenticator is configured. */
export const SYSTEM_ADMIN: UserInfo = Object.freeze({ name: 'system:admin', groups: Object.freeze([SYSTEM_PRIVILEGED_GROUP, ALL_AUTHENTICATED]) });

export interface AuthenticationResponse {
  readonly user: UserInfo;
  /** The audiences the credential was valid for (service-account tokens); absent when not audience-bound. */
  readonly audiences?: readonly string[];
}

/**
 * authenticator.Request: looks at a request's credentials (Authorization header,
 * `req.raw.socket` peer certificate, X-Remote-* headers from a front proxy) and says who sent it.
 * Resolves undefined when the request carries no credential this authenticator understands;
 * rejects when it carries one that is invalid (logged, answered 401 like an absent one).
 * Must not read the body.
 */
export interface Authenticator {
  authenticate(req: APIRequest): Promise<AuthenticationResponse | undefined>;
}

/**
 * union.New: asks each authenticator in order and takes the first that authenticates. When none
 * does, rejects with every error met (so the failure is logged), or resolves undefined.
 */
export function unionAuthenticator(...authenticators: readonly Authenticator[]): Authenticator {
  return {
    authenticate(req) {
      // Chained with then(ok, failed) rather than a try around await: an authenticator that
      // fails is routine here (the request-header one, for every client certificate its CA did
      // not sign), and a rejection handled by then() costs no throw.
      const errors: unknown[] = [];
      const from = (i: number): Promise<AuthenticationResponse | undefined> => {
        const a = authenticators[i];
        if (a === undefined) {
          if (errors.length === 1) return Promise.reject(errors[0] as Error);
          if (errors.length > 1) return Promise.reject(new AggregateError(errors, aggregateMessage(errors)));
          return Promise.resolve(undefined);
        }
        const failed = (err: unknown): Promise<AuthenticationResponse | undefined> => {
          errors.push(err);
          return from(i + 1);
        };
        try {
          return a.authenticate(req).then((resp) => resp ?? from(i + 1), failed);
        } catch (err) {
          // One that throws instead of rejecting fails the same way.
          return failed(err);
        }
      };
      return from(0);
    },
  };
}

/**
 * union.NewFailOnError: asks each authenticator in order; the first that errors ends the search
 * with its error, the first that authenticates answers. Used to put anonymous behind the real
 * authenticators, so that a bad credential is refused rather than served as anonymous.
 */
export function unionFailOnError(...authenticators: readonly Authenticator[]): Authenticator {
  return {
    async authenticate(req) {
      for (const a of authenticators) {
        const resp = await a.authenticate(req);
        if (resp) return resp;
      }
      return undefined;
    },
  };
}

/**
 * group.NewAuthenticatedGroupAdder: adds system:authenticated to every user the wrapped
 * authenticator names, unless it is system:anonymous or already in system:authenticated or
 * system:unauthenticated.
 */
export function authenticatedGroupAdder(inner: Authenticator): Authenticator {
  return {
    async authenticate(req) {
      const resp = await inner.authenticate(req);
      if (!resp) return undefined;
      const user = withAuthenticatedGroup(resp.user);
      return user === resp.user ? resp : { ...resp, user };
    },
  };
}

/** The user with system:authenticated added, as the group adder adds it (the same object when it adds nothing). */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.name === ANONYMOUS || user.groups.some((g) => g === ALL_AUTHENTICATED || g === ALL_UNAUTHENTICATED)) return user;
  return { ...user, groups: [...user.groups, ALL_AUTHENTICATED] };
}

/** Authenticates every request as `user` (the default: SYSTEM_ADMIN). */
export function fixedUserAuthenticator(user: UserInfo = SYSTEM_ADMIN): Authenticator {
  const resp: AuthenticationResponse = { user };
  return { authenticate: () => Promise.resolve(resp) };
}
