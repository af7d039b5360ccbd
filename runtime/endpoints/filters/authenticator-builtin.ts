import { anonymousAuthenticator } from './authenticator-anonymous.js';
import { requestHeaderAuthenticator, type RequestHeaderConfig } from './authenticator-requestheader.js';
import { tokenFileAuthenticator, type StaticTokens } from './authenticator-tokenfile.js';
import { x509Authenticator } from './authenticator-x509.js';
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
}

/**
 * authenticator.Config.New: request header, then client certificate, then bearer token; the
 * first that names a user wins and gets system:authenticated. Only a request none of them
 * recognised and none refused falls through to anonymous: an untrusted certificate or an
 * unknown token is 401 even with --anonymous-auth.
 */
export function newBuiltInAuthenticator(c: BuiltInAuthenticationConfig): Authenticator {
  const authenticators: Authenticator[] = [];
  if (c.requestHeader !== undefined) authenticators.push(requestHeaderAuthenticator(c.requestHeader));
  if (c.clientCertificates !== undefined) authenticators.push(x509Authenticator(c.clientCertificates));
  if (c.tokens !== undefined) authenticators.push(tokenFileAuthenticator(c.tokens));
  if (authenticators.length === 0) return c.anonymous ? anonymousAuthenticator() : unionAuthenticator();
  const authenticated = authenticatedGroupAdder(unionAuthenticator(...authenticators));
  return c.anonymous ? unionFailOnError(authenticated, anonymousAuthenticator()) : authenticated;
}
