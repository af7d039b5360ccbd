import type { int64, ObjectMeta, Time, TypeMeta, UID } from '../../meta/v1/types.js';

/**
 * ExtraValue masks the value so protobuf can generate: a named list, which go-to-protobuf wraps
 * in a message `{ repeated string items = 1; }` while its JSON stays the plain array.
 */
export type ExtraValue = string[];

/** A user as an authenticator names it. */
export interface UserInfo {
  /**
   * The user's name, unique among all active users.
   *
   * @protobuf 1
   */
  username?: string;
  /**
   * A value that identifies this user across time: two users of one name at different times have different UIDs.
   *
   * @protobuf 2
   */
  uid?: string;
  /**
   * The groups the user is in.
   *
   * @listType atomic
   * @protobuf 3
   */
  groups?: string[];
  /**
   * Extra attributes the authenticator provided.
   *
   * @protobuf 4
   */
  extra?: Record<string, ExtraValue>;
}

/** The token to review and the audiences it must be valid for. */
export interface TokenReviewSpec {
  /**
   * The opaque bearer token.
   *
   * @protobuf 1
   */
  token?: string;
  /**
   * The audiences the caller accepts; the token must be valid for at least one. Empty: the server's own audiences.
   *
   * @listType atomic
   * @protobuf 2
   */
  audiences?: string[];
}

/** Whether the token authenticates, and as whom. */
export interface TokenReviewStatus {
  /**
   * Whether the token is valid for one of the audiences.
   *
   * @protobuf 1
   */
  authenticated?: boolean;
  /**
   * The user the token names.
   *
   * @protobuf 2
   */
  user?: UserInfo;
  /**
   * The audiences the token is valid for, among those asked (the server's own when none were asked).
   *
   * @listType atomic
   * @protobuf 4
   */
  audiences?: string[];
  /**
   * Why the token could not be checked.
   *
   * @protobuf 3
   */
  error?: string;
}

/**
 * Asks whether a bearer token authenticates, and as whom. The answer may be cached by the caller.
 *
 * @genclient
 * @nonNamespaced
 * @onlyVerbs create
 * @resource path=tokenreviews singular=tokenreview
 */
export interface TokenReview extends TypeMeta {
  /** @protobuf 1 */
  metadata?: ObjectMeta;
  /**
   * The token to review.
   *
   * @protobuf 2
   */
  spec: TokenReviewSpec;
  /**
   * The answer, filled in by the server.
   *
   * @protobuf 3
   */
  status?: TokenReviewStatus;
}

/** Who the requesting user is. */
export interface SelfSubjectReviewStatus {
  /**
   * The user's attributes as the server authenticated them.
   *
   * @protobuf 1
   */
  userInfo?: UserInfo;
}

/**
 * Returns the requesting user's attributes as the server authenticated them (`kubectl auth whoami`); impersonation shows the impersonated user.
 *
 * @genclient
 * @nonNamespaced
 * @onlyVerbs create
 * @resource path=selfsubjectreviews singular=selfsubjectreview
 */
export interface SelfSubjectReview extends TypeMeta {
  /** @protobuf 1 */
  metadata?: ObjectMeta;
  /**
   * The answer, filled in by the server.
   *
   * @protobuf 2
   */
  status?: SelfSubjectReviewStatus;
}

/** The object a service-account token is bound to: the token is invalid once the object is gone. */
export interface BoundObjectReference {
  /**
   * The referent's kind: Pod, Secret or Node.
   *
   * @protobuf 1
   */
  kind?: string;
  /**
   * The referent's API version.
   *
   * @protobuf 2
   */
  apiVersion?: string;
  /**
   * The referent's name.
   *
   * @protobuf 3
   */
  name?: string;
  /**
   * The referent's UID.
   *
   * @protobuf 4
   */
  uid?: UID;
}

/** What a requested token must be valid for. */
export interface TokenRequestSpec {
  /**
   * The audiences the token is for; a recipient must find one of its own identifiers here. Empty: the server's issuer audiences.
   *
   * @listType atomic
   * @protobuf 1
   */
  audiences: string[];
  /**
   * The requested lifetime in seconds; the server may shorten it. At least 10 minutes.
   *
   * @default 3600
   * @protobuf 4 pointer
   */
  expirationSeconds?: int64;
  /**
   * The object the token is bound to.
   *
   * @protobuf 3 pointer
   */
  boundObjectRef?: BoundObjectReference;
}

/** The issued token. */
export interface TokenRequestStatus {
  /**
   * The opaque bearer token.
   *
   * @protobuf 1
   */
  token: string;
  /**
   * When the token expires.
   *
   * @protobuf 2
   */
  expirationTimestamp: Time;
}

/** Requests a token for a service account: the body of `serviceaccounts/<name>/token` in the core group. */
export interface TokenRequest extends TypeMeta {
  /** @protobuf 1 */
  metadata?: ObjectMeta;
  /**
   * What the token is for.
   *
   * @protobuf 2
   */
  spec: TokenRequestSpec;
  /**
   * The token, filled in by the server.
   *
   * @protobuf 3
   */
  status?: TokenRequestStatus;
}
