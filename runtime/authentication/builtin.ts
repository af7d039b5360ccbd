import { anonymousAuthenticator } from './anonymous.js';
import { requestHeaderAuthenticator, type RequestHeaderConfig } from './requestheader.js';
import { tokenFileAuthenticator, type StaticTokens } from './tokenfile.js';
import { x509Authenticator } from './x509.js';
import { authenticatedGroupAdder, unionAuthenticator, unionFailOnError, type Authenticator } from './authenticator.js';
import type { ClientCertificateVerifier } from './clientcert.js';

/** What kube-apiserver's authentication flags configure; an absent field turns its authenticator off. */
export interface BuiltInAuthenticationConfig {
  /** --anonymous-auth: requests without any credential are system:anonymous; otherwise 401. */
  readonly anonymous: boolean;
  /** --client-ca-file: client certificates name users. */
  readonly clientCertificates?: ClientCertificateVerifier;
  /** --requestheader-*: a front proxy names users in headers. */
  readonly requestHeader?: RequestHeaderConfig;
  /** --token-auth-file: static bearer tokens. */
  readonly tokens?: StaticTokens;
  /** Service-account tokens (JWTs of --service-account-issuer), asked after the static tokens. */
  readonly serviceAccountTokens?: Authenticator;
}

const NO_TOKENS: StaticTokens = new Map();

/**
 * authenticator.Config.New: request header, then client certificate, then bearer tokens (static,
 * then service-account JWTs); the
 * first that names a user wins and gets system:authenticated. Only a request none of them
 * recognised and none refused falls through to anonymous: an untrusted certificate or an
 * unknown token is 401 even with --anonymous-auth.
 *
 * The bearer-token authenticator is always there, with no static tokens when no token file is
 * given: kube-apiserver always has one (service-account tokens are mandatory), so a bearer token
 * is a credential that must be accepted, never one ignored in favour of anonymous. Any other
 * Authorization scheme (`Basic`: kube has had no password authenticator since 1.19) is no
 * credential at all, as in kube.
 */
export function newBuiltInAuthenticator(c: BuiltInAuthenticationConfig): Authenticator {
  const authenticators: Authenticator[] = [];
  if (c.requestHeader !== undefined) authenticators.push(requestHeaderAuthenticator(c.requestHeader));
  if (c.clientCertificates !== undefined) authenticators.push(x509Authenticator(c.clientCertificates));
  authenticators.push(tokenFileAuthenticator(c.tokens ?? NO_TOKENS));
  if (c.serviceAccountTokens !== undefined) authenticators.push(c.serviceAccountTokens);
  const authenticated = authenticatedGroupAdder(unionAuthenticator(...authenticators));
  return c.anonymous ? unionFailOnError(authenticated, anonymousAuthenticator()) : authenticated;
}
