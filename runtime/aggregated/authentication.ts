import { anonymousAuthenticator } from '../authentication/anonymous.js';
import { requestHeaderAuthenticator } from '../authentication/requestheader.js';
import { x509Authenticator } from '../authentication/x509.js';
import { authenticatedGroupAdder, unionAuthenticator, unionFailOnError, type Authenticator } from '../authentication/authenticator.js';
import { CABundle, ClientCertificateVerifier } from '../authentication/clientcert.js';
import { readFlagFile } from './certs.js';
import type { CompletedAggregatedOptions } from './options.js';

/**
 * The paths that answer requests without credentials when anonymous authentication is off:
 * the ones kube's delegated authorizer always allows, so that probes need no certificate.
 */
export const ANONYMOUS_HEALTH_PATHS: readonly string[] = ['/healthz', '/livez', '/readyz'];

export interface DelegatedAuthentication {
  readonly authenticator: Authenticator;
  /** Every CA a client certificate may come from: what the TLS server asks clients for. */
  readonly clientCAPEM: string;
}

/**
 * An aggregated server's authentication (kube's DelegatingAuthenticationOptions, with its CAs
 * given as files instead of read from the control plane's extension-apiserver-authentication
 * ConfigMap): the aggregator's front-proxy certificate, verified against the request-header CA
 * and one of the allowed names, vouches for the user in the X-Remote-* headers; client
 * certificates of --client-ca-file name users directly. Anything else is 401: a certificate of
 * another CA (the control plane's admin certificate included) is refused, and a request with
 * no credential is anonymous only on the health paths (kube's anonymous authenticator
 * restricted by path conditions) unless --anonymous-auth=true.
 */
export function delegatedAuthentication(o: CompletedAggregatedOptions): DelegatedAuthentication {
  const requestHeaderCA = new CABundle(readFlagFile('requestheader-client-ca-file', o.requestheaderClientCAFile), `--requestheader-client-ca-file ${o.requestheaderClientCAFile}`);
  const authenticators: Authenticator[] = [
    requestHeaderAuthenticator({
      verifier: new ClientCertificateVerifier(requestHeaderCA),
      allowedNames: o.requestheaderAllowedNames,
      usernameHeaders: o.requestheaderUsernameHeaders,
      uidHeaders: o.requestheaderUIDHeaders,
      groupHeaders: o.requestheaderGroupHeaders,
      extraHeaderPrefixes: o.requestheaderExtraHeadersPrefix,
    }),
  ];
  let clientCAPEM = requestHeaderCA.toPEM();
  if (o.clientCAFile !== undefined) {
    const clientCA = new CABundle(readFlagFile('client-ca-file', o.clientCAFile), `--client-ca-file ${o.clientCAFile}`);
    authenticators.push(x509Authenticator(new ClientCertificateVerifier(clientCA)));
    clientCAPEM += clientCA.toPEM();
  }
  const authenticated = authenticatedGroupAdder(unionAuthenticator(...authenticators));
  const anonymous = o.anonymousAuth ? anonymousAuthenticator() : anonymousOnPaths(ANONYMOUS_HEALTH_PATHS);
  // Fail on error: a credential that does not verify is refused, never served as anonymous.
  return { authenticator: unionFailOnError(authenticated, anonymous), clientCAPEM };
}

/** system:anonymous for requests to exactly one of `paths`; nobody elsewhere (kube's AnonymousAuthConditions). */
export function anonymousOnPaths(paths: readonly string[]): Authenticator {
  const allowed = new Set(paths);
  const anonymous = anonymousAuthenticator();
  return {
    authenticate: (req) => (allowed.has(req.path) ? anonymous.authenticate(req) : Promise.resolve(undefined)),
  };
}
