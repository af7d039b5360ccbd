import { parseURL } from '../../apimachinery/cel/library/gourl.js';
import { newGenericServerResponse } from '../../apimachinery/errors/index.js';
import type { Handler } from '../../apimachinery/request/http.js';
import type { PublicKeySet } from './keys.js';

/**
 * Service-account issuer discovery (kube's pkg/serviceaccount/openidmetadata.go and
 * pkg/routes/openidmetadata.go): the OIDC provider configuration and the key set, so that
 * systems outside the cluster can verify service-account tokens. Kube authorizes both paths
 * through the `system:service-account-issuer-discovery` ClusterRole, which is not bound by default.
 */

/** OpenIDConfigPath */
export const OPENID_CONFIG_PATH = '/.well-known/openid-configuration';
/** JWKSPath */
export const JWKS_PATH = '/openid/v1/jwks';

/** Overrides the server-wide `private, no-cache`: relying parties may cache both documents for an hour. */
const CACHE_CONTROL = 'public, max-age=3600';
const MIME_JWKS = 'application/jwk-set+json';

export interface OpenIDMetadataOptions {
  /** The first --service-account-issuer. */
  readonly issuer: string;
  /** --service-account-jwks-uri; when absent, `https://<external address>/openid/v1/jwks`. */
  readonly jwksURI?: string;
  /**
   * The server's external address (host:port), read when the first document is served: the port
   * may only be known once the server listens.
   */
  readonly externalAddress: () => string;
  readonly keys: PublicKeySet;
}

export interface OpenIDMetadata {
  /** The provider configuration (issuer, jwks_uri, response and subject types, signing algorithms). */
  configJSON(): string;
  /** The public keys as a JWK set. */
  readonly keysetJSON: string;
}

/**
 * NewOpenIDMetadataProvider: the documents, or kube's error (Go's url.Parse errors included) when the issuer is not an https URL
 * without query or fragment, or the JWKS URI is not https. Kube logs that error and serves no
 * discovery endpoints, and so should the caller: the check is stricter than the flags' own.
 */
export function newOpenIDMetadata(o: OpenIDMetadataOptions): OpenIDMetadata {
  if (o.issuer === '') throw new Error('empty issuer URL');
  const iss = parseURL(o.issuer);
  if (iss.scheme !== 'https') throw new Error(`issuer URL must use https scheme, got: ${o.issuer}`);
  if (iss.rawQuery !== '') throw new Error(`issuer URL may not include a query, got: ${o.issuer}`);
  if (o.issuer.includes('#')) throw new Error(`issuer URL may not include a fragment, got: ${o.issuer}`);
  if (o.jwksURI !== undefined && o.jwksURI !== '' && parseURL(o.jwksURI).scheme !== 'https') throw new Error(`jwksURI requires https scheme, parsed as: ${o.jwksURI}`);
  if (o.keys.all.length === 0) throw new Error('no keys provided for validating keyset');
  const keysetJSON = JSON.stringify({ keys: o.keys.all.map((k) => k.jwk) });
  const algorithms = [...new Set(o.keys.all.map((k) => k.algorithm))].sort();
  let configJSON: string | undefined;
  return {
    keysetJSON,
    configJSON() {
      configJSON ??= JSON.stringify({
        issuer: o.issuer,
        jwks_uri: o.jwksURI || `https://${o.externalAddress()}${JWKS_PATH}`,
        response_types_supported: ['id_token'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: algorithms,
      });
      return configJSON;
    },
  };
}

function documentHandler(body: () => string, contentType: string): Handler {
  return async (req, res) => {
    // A go-restful route with GET only: any other method is the container's 405.
    if (req.method !== 'GET') return res.writeError(newGenericServerResponse(405));
    res.setHeader('Cache-Control', CACHE_CONTROL);
    res.writeBytes(200, body(), contentType);
  };
}

/** A handler to mount on a path mux (the shape of runtime/server/discovery's routes). */
export interface OpenIDMetadataRoute {
  readonly path: string;
  readonly prefix: boolean;
  readonly handler: Handler;
}

/** OpenIDMetadataServer.Install: GET /.well-known/openid-configuration (application/json) and GET /openid/v1/jwks (application/jwk-set+json). */
export function openIDMetadataRoutes(md: OpenIDMetadata): OpenIDMetadataRoute[] {
  return [
    { path: OPENID_CONFIG_PATH, prefix: false, handler: documentHandler(() => md.configJSON(), 'application/json') },
    { path: JWKS_PATH, prefix: false, handler: documentHandler(() => md.keysetJSON, MIME_JWKS) },
  ];
}
