import type { BoundObject, ServiceAccountTokenClaims } from '../../apimachinery/request/authenticator.js';
import { isJSONObject, ownField } from '../../apimachinery/serializer/jsonvalue.js';
import { makeUsername } from './util.js';

/**
 * The claims of a bound service-account token (kube's pkg/serviceaccount/claims.go): the public
 * JWT claims and kube's private `kubernetes.io` claim, as issued and as read back.
 */

/** WarnOnlyBoundTokenExpirationSeconds: the lifetime admission asks for that may be extended to a year. */
export const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 60 * 60 + 7;
/** ExpirationExtensionSeconds: the extended lifetime (a year). */
export const EXPIRATION_EXTENSION_SECONDS = 24 * 365 * 60 * 60;
/** jwt.DefaultLeeway: clock skew tolerated on exp, nbf, iat and deletion timestamps. */
export const DEFAULT_LEEWAY_SECONDS = 60;

export interface Ref {
  readonly name: string;
  readonly uid: string;
}

/** The `kubernetes.io` private claim. */
export interface KubernetesClaims {
  readonly namespace: string;
  readonly serviceaccount: Ref;
  readonly pod?: Ref;
  readonly secret?: Ref;
  readonly node?: Ref;
  /** Seconds since the epoch after which a use of an extended token is stale. */
  readonly warnafter?: number;
}

/** The registered claims kube sets and reads (jwt.Claims). */
export interface PublicClaims {
  readonly iss: string;
  readonly sub: string;
  readonly aud: readonly string[];
  readonly exp?: number;
  readonly nbf?: number;
  readonly iat?: number;
  readonly jti: string;
}

export interface TokenClaims {
  readonly public: PublicClaims;
  readonly kubernetes: KubernetesClaims;
}

function ref(name: string, uid: string): Ref {
  // `omitempty` on both fields.
  return { ...(name === '' ? {} : { name }), ...(uid === '' ? {} : { uid }) } as Ref;
}

function boundRefs(bound: BoundObject | undefined): Pick<KubernetesClaims, 'pod' | 'secret' | 'node'> {
  if (bound === undefined) return {};
  const r = ref(bound.name, bound.uid);
  switch (bound.kind) {
    case 'Pod':
      return { pod: r };
    case 'Secret':
      return { secret: r };
    case 'Node':
      return { node: r };
    default:
      throw new Error(`internal error, cannot bind token to object of kind ${JSON.stringify(bound.kind)}`);
  }
}

/**
 * Claims: the payload of a token for `c`, valid from `now` (seconds) for `expirationSeconds`,
 * with a `warnafter` when `warnAfterSeconds` is not 0. Keys are in the order go-jose writes them
 * (sorted: it merges claims through maps), so a token reads as kube's does.
 */
export function tokenPayload(iss: string, c: ServiceAccountTokenClaims, now: number, expirationSeconds: number, warnAfterSeconds: number, jti: string): Record<string, unknown> {
  const { pod, secret, node } = boundRefs(c.boundObject);
  const kubernetes = {
    namespace: c.namespace,
    ...(node === undefined ? {} : { node }),
    ...(pod === undefined ? {} : { pod }),
    ...(secret === undefined ? {} : { secret }),
    serviceaccount: ref(c.serviceAccountName, c.serviceAccountUID),
    ...(warnAfterSeconds === 0 ? {} : { warnafter: now + warnAfterSeconds }),
  };
  return {
    aud: [...c.audiences],
    exp: now + expirationSeconds,
    iat: now,
    iss,
    jti,
    'kubernetes.io': kubernetes,
    nbf: now,
    sub: makeUsername(c.namespace, c.serviceAccountName),
  };
}

class ClaimError extends Error {}

function str(obj: object, key: string, where: string): string {
  const v = ownField(obj, key);
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new ClaimError(`${where}${key} must be a string`);
  return v;
}

function numericDate(obj: object, key: string): number | undefined {
  const v = ownField(obj, key);
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ClaimError(`${key} must be a number`);
  return v;
}

function audience(obj: object): string[] {
  const v = ownField(obj, 'aud');
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((a): a is string => typeof a === 'string')) return v;
  throw new ClaimError('aud must be a string or an array of strings');
}

function readRef(obj: object, key: string): Ref | undefined {
  const v = ownField(obj, key);
  if (v === undefined || v === null) return undefined;
  if (!isJSONObject(v)) throw new ClaimError(`kubernetes.io.${key} must be an object`);
  return { name: str(v, 'name', `kubernetes.io.${key}.`), uid: str(v, 'uid', `kubernetes.io.${key}.`) };
}

/**
 * The claims of a verified payload, typed as go-jose unmarshals them: absent fields are empty,
 * a field of the wrong type is an error. Unknown claims are ignored.
 */
export function parseTokenClaims(payload: unknown): TokenClaims {
  try {
    if (!isJSONObject(payload)) throw new ClaimError('the payload must be a JSON object');
    const pub: PublicClaims = {
      iss: str(payload, 'iss', ''),
      sub: str(payload, 'sub', ''),
      aud: audience(payload),
      exp: numericDate(payload, 'exp'),
      nbf: numericDate(payload, 'nbf'),
      iat: numericDate(payload, 'iat'),
      jti: str(payload, 'jti', ''),
    };
    const k = ownField(payload, 'kubernetes.io') ?? {};
    if (!isJSONObject(k)) throw new ClaimError('kubernetes.io must be an object');
    const warnafter = numericDate(k, 'warnafter');
    const kubernetes: KubernetesClaims = {
      namespace: str(k, 'namespace', 'kubernetes.io.'),
      serviceaccount: readRef(k, 'serviceaccount') ?? { name: '', uid: '' },
      pod: readRef(k, 'pod'),
      secret: readRef(k, 'secret'),
      node: readRef(k, 'node'),
      ...(warnafter === undefined ? {} : { warnafter }),
    };
    return { public: pub, kubernetes };
  } catch (err) {
    if (err instanceof ClaimError) throw new Error(`service account token claims could not be parsed: ${err.message}`, { cause: err });
    throw err;
  }
}

/**
 * jwt.Claims.Validate with the default leeway, in go-jose's order and with kube's messages: not
 * yet valid, expired, issued in the future.
 */
export function validateTokenTimes(c: PublicClaims, nowSeconds: number): void {
  if (c.nbf !== undefined && nowSeconds + DEFAULT_LEEWAY_SECONDS < c.nbf) throw new Error('service account token is not valid yet');
  if (c.exp !== undefined && nowSeconds - DEFAULT_LEEWAY_SECONDS > c.exp) throw new Error('service account token has expired');
  if (c.iat !== undefined && nowSeconds + DEFAULT_LEEWAY_SECONDS < c.iat) throw new Error('service account token is issued in the future');
}
