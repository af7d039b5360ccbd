import { anonymousAuthenticator } from '../authentication/anonymous.js';
import { requestHeaderAuthenticator, type RequestHeaderConfig } from '../authentication/requestheader.js';
import { x509Authenticator } from '../authentication/x509.js';
import { authenticatedGroupAdder, unionAuthenticator, unionFailOnError, type Authenticator } from '../authentication/authenticator.js';
import { CABundle, ClientCertificateVerifier } from '../authentication/clientcert.js';
import { WebhookTokenAuthenticator } from '../authentication/webhook.js';
import { DEFAULT_WEBHOOK_RETRY_BACKOFF, shouldRetryWebhook, withExponentialBackoff } from '../authorization/webhook.js';
import type { ClusterAuthenticationInfo } from '../controllers/clusterauthenticationtrust/index.js';
import { readFlagFile } from '../server/options/files.js';
import { DynamicFileCAContent, type CABundleContentProvider, type Listener } from '../server/dynamiccertificates/index.js';
import { AuthenticationConfigMap } from './authentication-configmap.js';
import { tokenReviewerOver, type DelegationClients } from './delegated-clients.js';
import type { CompletedAggregatedOptions } from './options.js';

/**
 * The paths that answer requests without credentials when anonymous authentication is off:
 * the ones kube's delegated authorizer always allows, so that probes need no certificate.
 */
export const ANONYMOUS_HEALTH_PATHS: readonly string[] = ['/healthz', '/livez', '/readyz'];

export interface DelegatedAuthentication {
  readonly authenticator: Authenticator;
  /** Every CA a client certificate may come from, as it is now: what the TLS server asks clients for. */
  readonly clientCA: CABundleContentProvider;
  /** Stops following the control plane's ConfigMap and the CA files. */
  stop(): Promise<void>;
}

/**
 * An aggregated server's authentication (kube's DelegatingAuthenticationOptions.ApplyTo): the
 * front proxy (the aggregator's client certificate, verified against the request-header CA and
 * one of the allowed names, vouches for the user in the X-Remote-* headers), then client
 * certificates, then bearer tokens reviewed by the control plane (TokenReview, cached). The CAs
 * come from --requestheader-client-ca-file and --client-ca-file when given, else from the
 * control plane's kube-system/extension-apiserver-authentication ConfigMap, followed as it
 * changes so that a rotated CA is trusted without a restart; the files are followed too (kube's
 * DynamicFileCAContent). A credential that does not verify
 * is 401, never anonymous; a request without one is system:anonymous everywhere
 * (--anonymous-auth, the default with delegated authorization) or on the health paths only.
 */
export async function delegatedAuthentication(o: CompletedAggregatedOptions, clients: DelegationClients): Promise<DelegatedAuthentication> {
  const d = o.delegation;
  const fileCA = (flag: string, purpose: string, path: string | undefined): DynamicFileCAContent | undefined => {
    if (path === undefined) return undefined;
    // The start fails naming the flag, as before any reload.
    new CABundle(readFlagFile(flag, path), `--${flag} ${path}`);
    return new DynamicFileCAContent(purpose, path);
  };
  const flagRequestHeaderCA = fileCA('requestheader-client-ca-file', 'request-header', o.requestheaderClientCAFile);
  const flagClientCA = fileCA('client-ca-file', 'client-ca-bundle', o.clientCAFile);
  const files = [flagRequestHeaderCA, flagClientCA].filter((f) => f !== undefined);
  const rest = d.authenticationKubeconfig === undefined ? undefined : clients.client('authentication-kubeconfig', d.authenticationKubeconfig);
  const needLookup = rest !== undefined && !d.authenticationSkipLookup && (flagRequestHeaderCA === undefined || flagClientCA === undefined);
  const configMap = needLookup ? await AuthenticationConfigMap.start(rest, { tolerateLookupFailure: d.authenticationTolerateLookupFailure }) : undefined;

  const tokens =
    rest === undefined
      ? undefined
      : new WebhookTokenAuthenticator({
          reviewer: tokenReviewerOver(rest),
          cacheTTLMs: d.authenticationTokenWebhookCacheTTLMs,
          retry: (attempt) => withExponentialBackoff(DEFAULT_WEBHOOK_RETRY_BACKOFF, attempt, shouldRetryWebhook, (ms) => new Promise((r) => setTimeout(r, ms))),
          logger: { error: (message, details) => process.stderr.write(`E ${message}: ${String((details?.['err'] as Error | undefined)?.message ?? '')}\n`) },
        });
  const anonymous = o.anonymousAuth ? anonymousAuthenticator() : anonymousOnPaths(ANONYMOUS_HEALTH_PATHS);
  const build = (info: ClusterAuthenticationInfo): { authenticator: Authenticator; caPEM: () => string } => {
    const authenticators: Authenticator[] = [];
    const verifiers: ClientCertificateVerifier[] = [];
    const requestHeader = flagRequestHeaderCA !== undefined ? flagRequestHeaderConfig(o, flagRequestHeaderCA) : configMapRequestHeaderConfig(info);
    if (requestHeader !== undefined) {
      authenticators.push(requestHeaderAuthenticator(requestHeader));
      verifiers.push(requestHeader.verifier);
    }
    const clientCA = flagClientCA ?? (info.clientCA !== undefined ? new CABundle(info.clientCA, 'client-ca-file') : undefined);
    if (clientCA !== undefined) {
      const verifier = new ClientCertificateVerifier(clientCA);
      authenticators.push(x509Authenticator(verifier));
      verifiers.push(verifier);
    }
    if (tokens !== undefined) authenticators.push(tokens);
    // Fail on error: a credential that does not verify is refused, never served as anonymous.
    // The verifiers read a reloaded file's bundle at each call.
    return { authenticator: unionFailOnError(authenticatedGroupAdder(unionAuthenticator(...authenticators)), anonymous), caPEM: () => verifiers.map((v) => v.bundle.toPEM()).join('') };
  };

  let current = build(configMap?.current() ?? {});
  const listeners: Listener[] = [];
  const changed: Listener = { enqueue: () => listeners.forEach((l) => l.enqueue()) };
  configMap?.onChange((info) => {
    current = build(info);
    changed.enqueue();
  });
  for (const f of files) {
    f.addListener(changed);
    f.start();
  }
  return {
    authenticator: { authenticate: (req) => current.authenticator.authenticate(req) },
    clientCA: {
      name: files.map((f) => f.name).join(',') || 'extension-apiserver-authentication',
      addListener: (l) => listeners.push(l),
      currentCABundleContent: () => current.caPEM(),
    },
    stop: async () => {
      await Promise.all(files.map((f) => f.stop()));
      await configMap?.stop();
    },
  };
}

function flagRequestHeaderConfig(o: CompletedAggregatedOptions, ca: DynamicFileCAContent): RequestHeaderConfig {
  return {
    verifier: new ClientCertificateVerifier(ca),
    allowedNames: o.requestheaderAllowedNames,
    usernameHeaders: o.requestheaderUsernameHeaders,
    uidHeaders: o.requestheaderUIDHeaders,
    groupHeaders: o.requestheaderGroupHeaders,
    extraHeaderPrefixes: o.requestheaderExtraHeadersPrefix,
  };
}

/** The ConfigMap's front proxy, with its own names and headers (none without its CA: front proxies are then not trusted). */
function configMapRequestHeaderConfig(info: ClusterAuthenticationInfo): RequestHeaderConfig | undefined {
  if (info.requestHeaderCA === undefined) return undefined;
  return {
    verifier: new ClientCertificateVerifier(new CABundle(info.requestHeaderCA, 'requestheader-client-ca-file')),
    allowedNames: info.requestHeaderAllowedNames ?? [],
    usernameHeaders: info.requestHeaderUsernameHeaders ?? [],
    uidHeaders: info.requestHeaderUIDHeaders ?? [],
    groupHeaders: info.requestHeaderGroupHeaders ?? [],
    extraHeaderPrefixes: info.requestHeaderExtraHeaderPrefixes ?? [],
  };
}

/** system:anonymous for requests to exactly one of `paths`; nobody elsewhere (kube's AnonymousAuthConditions). */
export function anonymousOnPaths(paths: readonly string[]): Authenticator {
  const allowed = new Set(paths);
  const anonymous = anonymousAuthenticator();
  return {
    authenticate: (req) => (allowed.has(req.path) ? anonymous.authenticate(req) : Promise.resolve(undefined)),
  };
}
