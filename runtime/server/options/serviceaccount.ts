import { readFileSync } from 'node:fs';
import type { KeyObject } from 'node:crypto';
import { join, resolve } from 'node:path';
import { parseURL } from '../../apimachinery/cel/library/gourl.js';
import type { ServiceAccountTokenIssuer } from '../../apimachinery/request/authenticator.js';
import {
  newOpenIDMetadata,
  newServiceAccountTokenAuthenticator,
  newServiceAccountTokenIssuer,
  openIDMetadataRoutes,
  parsePrivateKeyPEM,
  parsePublicKeysPEM,
  PublicKeySet,
  type OpenIDMetadataRoute,
  type ServiceAccountTokenAuthenticator,
  type ServiceAccountTokenGetter,
} from '../../authentication/serviceaccount/index.js';
import { boolFlag, durationFlag, OptionsError, stringSliceFlag, type FlagSpecs } from './flags.js';

/**
 * The service-account token flags of kube-apiserver (pkg/kubeapiserver/options/authentication.go,
 * ServiceAccountAuthenticationOptions, and the signing key of its ServerRunOptions): the flags,
 * their validation with kube's messages, kubeadm's defaults over the data dir's PKI, and the keys
 * they name.
 */

/** kubeadm's issuer: `https://kubernetes.default.svc.` + the cluster domain. */
export const DEFAULT_SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';
/** kubeadm's key pair, made by ensurePKI in `<data-dir>/pki`. */
export const SERVICE_ACCOUNT_KEY_FILE = 'sa.key';
export const SERVICE_ACCOUNT_PUBLIC_KEY_FILE = 'sa.pub';

const MAX_EXPIRATION_LOW_MS = 3600 * 1000;
const MAX_EXPIRATION_HIGH_MS = 2 ** 32 * 1000;

export interface ServiceAccountOptions {
  issuers?: readonly string[];
  keyFiles?: readonly string[];
  signingKeyFile?: string;
  apiAudiences?: readonly string[];
  /** ms; 0: no maximum. */
  maxTokenExpirationMs?: number;
  extendTokenExpiration?: boolean;
  jwksURI?: string;
}

export interface CompletedServiceAccountOptions {
  /** The first signs; all are accepted. */
  readonly issuers: readonly string[];
  /** Absolute paths. */
  readonly keyFiles: readonly string[];
  readonly signingKeyFile: string;
  /** Default: the issuers. */
  readonly apiAudiences: readonly string[];
  /** 0: no maximum. */
  readonly maxTokenExpirationSeconds: number;
  readonly extendTokenExpiration: boolean;
  /** undefined: `https://<external address>/openid/v1/jwks`. */
  readonly jwksURI: string | undefined;
}

export const SERVICE_ACCOUNT_FLAGS = {
  'service-account-issuer': { type: 'string', multiple: true },
  'service-account-key-file': { type: 'string', multiple: true },
  'service-account-signing-key-file': { type: 'string' },
  'api-audiences': { type: 'string', multiple: true },
  'service-account-max-token-expiration': { type: 'string' },
  'service-account-extend-token-expiration': { type: 'string' },
  'service-account-jwks-uri': { type: 'string' },
} as const satisfies FlagSpecs;

type Repeated = 'service-account-issuer' | 'service-account-key-file' | 'api-audiences';

/** The parsed values of SERVICE_ACCOUNT_FLAGS, as parseFlags returns them. */
export type ServiceAccountFlagValues = { readonly [K in Exclude<keyof typeof SERVICE_ACCOUNT_FLAGS, Repeated>]?: string } & { readonly [K in Repeated]?: readonly string[] };

/**
 * The options of parsed flags, each undefined when its flag is absent. The issuer and key-file
 * flags are string arrays in kube (repeated, never split at commas: a URL may hold one); the
 * audiences a string slice (comma-separated too).
 */
export function serviceAccountOptionsFromFlags(values: ServiceAccountFlagValues): { [K in keyof Required<ServiceAccountOptions>]: ServiceAccountOptions[K] | undefined } {
  return {
    issuers: values['service-account-issuer'],
    keyFiles: values['service-account-key-file'],
    signingKeyFile: values['service-account-signing-key-file'],
    apiAudiences: stringSliceFlag(values['api-audiences']),
    maxTokenExpirationMs: durationFlag('service-account-max-token-expiration', values['service-account-max-token-expiration']),
    extendTokenExpiration: boolFlag('service-account-extend-token-expiration', values['service-account-extend-token-expiration']),
    jwksURI: values['service-account-jwks-uri'],
  };
}

function goError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** BuiltInAuthenticationOptions.Validate for the issuers: URLs where they have a colon, none empty, none twice. */
function issuerErrors(issuers: readonly string[]): string[] {
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const issuer of issuers) {
    if (issuer.includes(':')) {
      try {
        parseURL(issuer);
      } catch (err) {
        errors.push(`service-account-issuer ${JSON.stringify(issuer)} contained a ':' but was not a valid URL: ${goError(err)}`);
        continue;
      }
    }
    if (issuer === '') errors.push('service-account-issuer should not be an empty string');
    else if (seen.has(issuer)) errors.push(`service-account-issuer ${JSON.stringify(issuer)} is already specified`);
    seen.add(issuer);
  }
  return errors;
}

function jwksURIErrors(uri: string | undefined): string[] {
  if (uri === undefined || uri === '') return [];
  try {
    return parseURL(uri).scheme === 'https' ? [] : [`service-account-jwks-uri requires https scheme, parsed as: ${uri}`];
  } catch (err) {
    return [`service-account-jwks-uri must be a valid URL: ${goError(err)}`];
  }
}

/**
 * Resolves kubeadm's defaults (the issuer `https://kubernetes.default.svc.cluster.local`, the
 * key pair `sa.key`/`sa.pub` of `pkiDir`, the audiences the issuers) and validates as kube-apiserver
 * does; every error at once, as kube lists them.
 */
export function completeServiceAccountOptions(o: ServiceAccountOptions, defaults: { readonly pkiDir: string }): CompletedServiceAccountOptions {
  const issuers = o.issuers ?? [DEFAULT_SERVICE_ACCOUNT_ISSUER];
  const errors = [...issuerErrors(issuers), ...jwksURIErrors(o.jwksURI)];
  if (issuers.length === 0) errors.push('service-account-issuer is a required flag');
  // A signing key of one's own needs the keys that verify it named too (kube's required flag).
  if (o.signingKeyFile !== undefined && (o.keyFiles ?? []).length === 0) errors.push('service-account-key-file is a required flag');
  const maxMs = o.maxTokenExpirationMs ?? 0;
  if (maxMs !== 0 && (maxMs < MAX_EXPIRATION_LOW_MS || maxMs > MAX_EXPIRATION_HIGH_MS)) errors.push('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
  if (errors.length === 1) throw new OptionsError(errors[0]);
  if (errors.length > 1) throw new OptionsError(`[${errors.join(', ')}]`);
  const apiAudiences = o.apiAudiences !== undefined && o.apiAudiences.length > 0 ? o.apiAudiences : issuers;
  return {
    issuers,
    keyFiles: (o.keyFiles ?? [join(defaults.pkiDir, SERVICE_ACCOUNT_PUBLIC_KEY_FILE)]).map((f) => resolve(f)),
    signingKeyFile: resolve(o.signingKeyFile ?? join(defaults.pkiDir, SERVICE_ACCOUNT_KEY_FILE)),
    apiAudiences,
    maxTokenExpirationSeconds: Math.floor(maxMs / 1000),
    extendTokenExpiration: o.extendTokenExpiration ?? true,
    jwksURI: o.jwksURI === '' ? undefined : o.jwksURI,
  };
}

function readKeyFile(flag: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new OptionsError(`--${flag}: ${goError(err)}`);
  }
}

/**
 * The keys the options name, read once at start: the signing key and every public key of the
 * key files, the signing key's public half included (so a token this server signs always
 * verifies). OptionsError naming the flag and the file when one is unusable.
 */
export async function loadServiceAccountKeys(o: CompletedServiceAccountOptions): Promise<{ readonly signingKey: KeyObject; readonly publicKeys: PublicKeySet }> {
  let signingKey: KeyObject;
  try {
    signingKey = parsePrivateKeyPEM(readKeyFile('service-account-signing-key-file', o.signingKeyFile));
  } catch (err) {
    if (err instanceof OptionsError) throw err;
    throw new OptionsError(`--service-account-signing-key-file: failed to parse service-account-issuer-key-file: error reading private key file ${o.signingKeyFile}: ${goError(err)}`);
  }
  const keys: KeyObject[] = [];
  for (const file of o.keyFiles) {
    const data = readKeyFile('service-account-key-file', file);
    try {
      keys.push(...parsePublicKeysPEM(data));
    } catch (err) {
      throw new OptionsError(`--service-account-key-file: error reading public key file ${file}: ${goError(err)}`);
    }
  }
  keys.push(signingKey);
  try {
    return { signingKey, publicKeys: await PublicKeySet.create(keys) };
  } catch (err) {
    throw new OptionsError(`--service-account-signing-key-file: failed to build token generator: ${goError(err)}`);
  }
}

/** What the options make: the TokenRequest issuer, the bearer-token authenticator, and the discovery routes. */
export interface ServiceAccountTokens {
  readonly issuer: ServiceAccountTokenIssuer;
  readonly authenticator: ServiceAccountTokenAuthenticator;
  /** GET /.well-known/openid-configuration and /openid/v1/jwks; none when discoveryError says why. */
  readonly discoveryRoutes: readonly OpenIDMetadataRoute[];
  /** Kube's message for the log when the issuer cannot serve discovery (not an https URL): the server still starts. */
  readonly discoveryError?: string;
}

/**
 * Builds the service-account token machinery of the options (kube-apiserver's Complete and
 * controlplane config): reads the keys, makes the issuer (the first issuer signs), the
 * authenticator (every issuer accepted, `getter` reading the objects tokens name) and the
 * discovery routes, whose jwks_uri defaults to `https://<externalAddress()>/openid/v1/jwks`.
 */
export async function newServiceAccountTokens(
  o: CompletedServiceAccountOptions,
  deps: { readonly getter: ServiceAccountTokenGetter; readonly externalAddress: () => string },
): Promise<ServiceAccountTokens> {
  const { signingKey, publicKeys } = await loadServiceAccountKeys(o);
  const issuer = await newServiceAccountTokenIssuer({
    issuer: o.issuers[0]!,
    signingKey,
    apiAudiences: o.apiAudiences,
    maxExpirationSeconds: o.maxTokenExpirationSeconds,
    extendExpiration: o.extendTokenExpiration,
  });
  const authenticator = newServiceAccountTokenAuthenticator({ issuers: o.issuers, keys: publicKeys, apiAudiences: o.apiAudiences, getter: deps.getter });
  try {
    const md = newOpenIDMetadata({ issuer: o.issuers[0]!, jwksURI: o.jwksURI, externalAddress: deps.externalAddress, keys: publicKeys });
    return { issuer, authenticator, discoveryRoutes: openIDMetadataRoutes(md) };
  } catch (err) {
    const discoveryError = `Could not construct pre-rendered responses for ServiceAccountIssuerDiscovery endpoints. Endpoints will not be enabled. Error: ${goError(err)}`;
    return { issuer, authenticator, discoveryRoutes: [], discoveryError };
  }
}

/** The usage lines of the service-account flags. */
export const SERVICE_ACCOUNT_USAGE = `  --service-account-issuer URL    Issuer of service-account tokens (their "iss"); repeatable: the first signs,
                                  all are accepted. Default ${DEFAULT_SERVICE_ACCOUNT_ISSUER} (kubeadm's).
  --service-account-key-file FILE PEM RSA or ECDSA public or private keys (or certificates) that verify tokens;
                                  repeatable. Default <data-dir>/pki/${SERVICE_ACCOUNT_PUBLIC_KEY_FILE}, made on first start.
  --service-account-signing-key-file FILE  PEM RSA or ECDSA private key that signs tokens (RS256, ES256/384/512).
                                  Default <data-dir>/pki/${SERVICE_ACCOUNT_KEY_FILE}; given, --service-account-key-file must be too.
  --api-audiences A[,A…]          Audiences a token used against this API must have one of. Default: the issuers.
  --service-account-max-token-expiration D  Longest lifetime of a requested token (Go duration, 1h to 2^32s).
                                  Default: none.
  --service-account-extend-token-expiration=false  Do not extend admission's pod-bound 3607 s tokens to a year.
  --service-account-jwks-uri URL  jwks_uri of /.well-known/openid-configuration (https). Default
                                  https://<this server's address>/openid/v1/jwks.
`;
