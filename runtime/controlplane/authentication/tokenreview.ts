import type { TokenReview, TokenReviewStatus, UserInfo as ReviewUserInfo } from '../../../apis/authentication/v1/types.js';
import { newBadRequest, newInternalError } from '../../apimachinery/errors/index.js';
import type { UserInfo } from '../../apimachinery/request/types.js';
import { deepCopyJSON } from '../../apimachinery/serializer/jsonvalue.js';
import type { ResourceStorage } from '../../registry/rest.js';
import type { RESTAuthContext } from '../../registry/types.js';
import { createOnlyStorage, requireAuth, withStatus } from '../authorization/create-only.js';

export const GROUP = 'authentication.k8s.io';

/**
 * pkg/registry/authentication/tokenreview: who a bearer token authenticates as, by the server's
 * own token authenticators, for the audiences the review names (none: the server's implicit
 * audiences). A token that does not authenticate is an answer (`authenticated` unset), and so is
 * an authenticator's error (`status.error`); nothing is stored.
 */
export function tokenReviewStorage(auth: RESTAuthContext | undefined): ResourceStorage {
  return createOnlyStorage({ group: GROUP, resource: 'tokenreviews' }, async (ctx, obj, validate) => {
    const review = obj as unknown as TokenReview;
    if (ctx.namespace !== '') throw newBadRequest(`namespace is not allowed on this type: ${ctx.namespace}`);
    const token = review.spec?.token ?? '';
    if (token === '') throw newBadRequest('token is required for TokenReview in authentication');
    await validate(deepCopyJSON(obj), undefined);
    const authenticator = requireAuth(auth, 'TokenReview').tokenAuthenticator;
    const requested = review.spec?.audiences ?? [];
    const audiences = requested.length > 0 ? requested : authenticator.implicitAudiences;
    return withStatus(obj, await reviewToken(authenticator, token, audiences));
  });
}

/**
 * kube encodes `user` even when empty (a struct under omitempty), so a token that does not
 * authenticate answers `status: {user: {}}`. A response whose audiences share none with those
 * asked is the authenticator's fault, not the token's: kube fails the review with a 500.
 */
async function reviewToken(authenticator: RESTAuthContext['tokenAuthenticator'], token: string, audiences: readonly string[]): Promise<TokenReviewStatus> {
  let resp: Awaited<ReturnType<typeof authenticator.authenticateToken>>;
  try {
    resp = await authenticator.authenticateToken(token, audiences);
  } catch (err) {
    return { user: {}, error: err instanceof Error ? err.message : String(err) };
  }
  if (resp === undefined) return { user: {} };
  if (audiences.length > 0 && !resp.audiences.some((a) => audiences.includes(a))) throw newInternalError(new Error('error validating audiences'));
  const status: TokenReviewStatus = { authenticated: true, user: reviewUserInfo(resp.user) };
  if (resp.audiences.length > 0) status.audiences = [...resp.audiences];
  return status;
}

/** authentication/v1 UserInfo of an authenticated user, empty fields omitted as kube encodes them. */
export function reviewUserInfo(user: UserInfo): ReviewUserInfo {
  const out: ReviewUserInfo = {};
  if (user.name !== '') out.username = user.name;
  if (user.uid !== undefined && user.uid !== '') out.uid = user.uid;
  if (user.groups.length > 0) out.groups = [...user.groups];
  const extra = Object.entries(user.extra ?? {});
  if (extra.length > 0) out.extra = Object.fromEntries(extra.map(([k, v]) => [k, [...v]]));
  return out;
}
