import { isNotFound } from '../apimachinery/errors/index.js';
import type { TokenAuthenticator } from '../apimachinery/request/authenticator.js';
import type { Authorizer } from '../apimachinery/request/authorizer.js';
import { withAuthenticatedGroup, type Authenticator } from '../authentication/authenticator.js';
import { newBuiltInAuthenticator } from '../authentication/builtin.js';
import { CABundle, ClientCertificateVerifier } from '../authentication/clientcert.js';
import type { OpenIDMetadataRoute, ServiceAccountTokenGetter } from '../authentication/serviceaccount/index.js';
import { parseTokenFile, type StaticTokens } from '../authentication/tokenfile.js';
import { PolicyStore, RBACAuthorizer } from '../authorization/rbac/index.js';
import { consoleLogger } from '../endpoints/filters/log.js';
import type { ResourceRegistry } from '../registry/resources.js';
import type { RESTAuthContext } from '../registry/types.js';
import { newAuthorizationFromOptions } from '../server/options/authorization.js';
import { newServiceAccountTokens } from '../server/options/serviceaccount.js';
import { readFlagFile } from '../server/options/files.js';
import {
  DynamicCertKeyPairContent,
  DynamicFileCAContent,
  DynamicServingCertificateController,
  StaticCAContent,
  StaticCertKeyContent,
  UnionCAContent,
  type CAContentProvider,
  type CertKeyContentProvider,
  type ControllerRunner,
  type Listener,
  type SecureContextTarget,
  type TLSContent,
} from '../server/dynamiccertificates/index.js';
import type { PKI } from './certs.js';
import { systemContext } from './loopback.js';
import type { CompletedServerRunOptions } from './options.js';

/** The control plane's authentication and authorization, built from its flags before its servers. */
export interface ControlPlaneSecurity {
  /** Request header, client certificates, static and service-account tokens, anonymous last (when on). */
  readonly authenticator: Authenticator;
  /** The serving pair and the CAs clients may present certificates from, reloaded from their files while the server runs. */
  readonly certificates: ControlPlaneCertificates;
  /** The two bundles apart, as they are now (what extension-apiserver-authentication publishes): client certificates, front proxies. */
  trustedCAs(): { readonly clientCA: string; readonly requestHeaderCA: string };
  /** system:masters, then the --authorization-mode authorizers in order. */
  readonly authorizer: Authorizer;
  /** What the review APIs, RBAC's escalation checks and TokenRequest answer with. */
  readonly rest: RESTAuthContext;
  /** The roles and bindings RBAC reads: fed by PolicyInformers once the server can serve them. */
  readonly policy: PolicyStore;
  /** /.well-known/openid-configuration and /openid/v1/jwks (none when the issuer cannot serve discovery). */
  readonly openIDRoutes: readonly OpenIDMetadataRoute[];
}

/**
 * kube-apiserver's BuiltInAuthenticationOptions and BuiltInAuthorizationOptions applied: the
 * authenticators the flags ask for over the control plane's own PKI (client certificates signed
 * by the cluster CA, front proxies signed by the front-proxy CA, --token-auth-file tokens,
 * service-account JWTs verified with --service-account-key-file), the authorizer of
 * --authorization-mode behind the system:masters shortcut, and RBAC over a policy store that
 * informers fill once the server runs. `resources` is read at request time (service accounts
 * and bound objects of tokens); `externalAddress` names the server in the issuer's jwks_uri.
 */
export async function newControlPlaneSecurity(o: CompletedServerRunOptions, pki: PKI, resources: ResourceRegistry, externalAddress: () => string): Promise<ControlPlaneSecurity> {
  const certificates = new ControlPlaneCertificates(o, pki);
  const { clientCA, requestHeaderCA } = certificates;
  const tokens: StaticTokens = o.tokenAuthFile !== undefined ? parseTokenFile(readFlagFile('token-auth-file', o.tokenAuthFile), o.tokenAuthFile) : new Map();
  const serviceAccounts = await newServiceAccountTokens(o.serviceAccounts, { getter: storageTokenGetter(resources), externalAddress });
  if (serviceAccounts.discoveryError !== undefined) process.stderr.write(`E ${serviceAccounts.discoveryError}\n`);
  const authenticator = newBuiltInAuthenticator({
    anonymous: o.anonymousAuth,
    clientCertificates: new ClientCertificateVerifier(clientCA),
    requestHeader: {
      verifier: new ClientCertificateVerifier(requestHeaderCA),
      allowedNames: o.requestheaderAllowedNames,
      usernameHeaders: o.requestheaderUsernameHeaders,
      groupHeaders: o.requestheaderGroupHeaders,
      extraHeaderPrefixes: o.requestheaderExtraHeadersPrefix,
    },
    tokens,
    serviceAccountTokens: serviceAccounts.authenticator,
  });

  const policy = new PolicyStore();
  const rbac = new RBACAuthorizer(policy);
  const authorization = newAuthorizationFromOptions(o.authorization, {
    rbac: () => ({ authorizer: rbac, ruleResolver: rbac }),
    logger: consoleLogger,
  });
  return {
    authenticator,
    certificates,
    trustedCAs: () => ({ clientCA: clientCA.currentCABundleContent(), requestHeaderCA: requestHeaderCA.currentCABundleContent() }),
    authorizer: authorization.authorizer,
    rest: {
      authorizer: authorization.authorizer,
      ruleResolver: authorization.ruleResolver,
      policyRuleResolver: rbac.policyRuleResolver(),
      tokenAuthenticator: tokenReviewAuthenticator(tokens, serviceAccounts.authenticator, o.serviceAccounts.apiAudiences),
      serviceAccountTokens: serviceAccounts.issuer,
    },
    policy,
    openIDRoutes: serviceAccounts.discoveryRoutes,
  };
}

/**
 * The files of --tls-cert-file/--tls-private-key-file, --client-ca-file and
 * --requestheader-client-ca-file, followed as kube-apiserver follows them (dynamiccertificates):
 * a valid change reaches new TLS handshakes, the client-certificate and front-proxy
 * authenticators, and the listeners (the ConfigMap publishing the CAs). What the flags do not
 * name is the control plane's own PKI in <data-dir>/pki, read once.
 */
export class ControlPlaneCertificates {
  readonly clientCA: CAContentProvider;
  readonly requestHeaderCA: CAContentProvider;
  readonly serving: CertKeyContentProvider;
  private readonly tlsController: DynamicServingCertificateController;
  private readonly runners: ControllerRunner[] = [];

  constructor(o: CompletedServerRunOptions, pki: PKI, opts: { resyncMs?: number } = {}) {
    const file = opts.resyncMs !== undefined ? { resyncMs: opts.resyncMs } : {};
    const ca = (flag: string, purpose: string, path: string | undefined, own: string): CAContentProvider => {
      if (path === undefined) return new StaticCAContent(flag, own);
      // The start fails naming the flag, as before any reload.
      new CABundle(readFlagFile(flag, path), `--${flag} ${path}`);
      return this.run(new DynamicFileCAContent(purpose, path, file));
    };
    this.clientCA = ca('client-ca-file', 'client-ca-bundle', o.clientCAFile, pki.caCertPEM);
    this.requestHeaderCA = ca('requestheader-client-ca-file', 'request-header', o.requestheaderClientCAFile, pki.frontProxyCACertPEM);
    // prepareDataDir has read and checked the given pair already (the start's error names the flags).
    this.serving =
      o.tlsCertFile !== undefined && o.tlsPrivateKeyFile !== undefined
        ? this.run(new DynamicCertKeyPairContent('serving-cert', o.tlsCertFile, o.tlsPrivateKeyFile, file))
        : new StaticCertKeyContent('serving-cert', pki.servingCertPEM, pki.servingKeyPEM);
    this.tlsController = new DynamicServingCertificateController({ serving: this.serving, clientCA: new UnionCAContent(this.clientCA, this.requestHeaderCA) });
  }

  /** The TLS server's credentials now: its pair, and every CA a client certificate may come from. */
  tls(): TLSContent {
    return this.tlsController.tls();
  }

  /** Tells `listener` when either CA bundle changes. */
  addCAListener(listener: Listener): void {
    this.clientCA.addListener(listener);
    this.requestHeaderCA.addListener(listener);
  }

  /** Follows the files, and keeps `target`'s TLS credentials theirs. */
  start(target: SecureContextTarget): void {
    this.tlsController.start(target);
    for (const r of this.runners) r.start();
  }

  async stop(): Promise<void> {
    this.tlsController.stop();
    await Promise.all(this.runners.map((r) => r.stop()));
  }

  private run<T extends ControllerRunner>(runner: T): T {
    this.runners.push(runner);
    return runner;
  }
}

/**
 * The bearer-token authenticators as TokenReview asks them (kube's token authenticator union
 * with the authenticated-group adder): static tokens are audience-agnostic (kube's
 * WrapAudienceAgnosticToken: valid for the audiences asked that are the API's own), then
 * service-account JWTs. A token neither knows is not authenticated, without an error.
 */
function tokenReviewAuthenticator(tokens: StaticTokens, serviceAccounts: TokenAuthenticator, apiAudiences: readonly string[]): TokenAuthenticator {
  return {
    implicitAudiences: apiAudiences,
    async authenticateToken(token, audiences) {
      const user = tokens.get(token);
      if (user !== undefined) {
        const valid = audiences.length === 0 ? apiAudiences : audiences.filter((a) => apiAudiences.includes(a));
        return valid.length === 0 ? undefined : { user: withAuthenticatedGroup(user), audiences: valid };
      }
      const resp = await serviceAccounts.authenticateToken(token, audiences);
      return resp === undefined ? undefined : { ...resp, user: withAuthenticatedGroup(resp.user) };
    },
  };
}

/** Service accounts and the objects tokens are bound to, read through the served storages (none: not found). */
function storageTokenGetter(resources: ResourceRegistry): ServiceAccountTokenGetter {
  const identity = async (resource: string, namespace: string, name: string) => {
    const r = resources.get({ group: '', resource });
    if (r === undefined) return undefined;
    try {
      const obj = await r.rest.main.get(systemContext(namespace, { signal: AbortSignal.timeout(10_000) }), name, { resourceVersion: '' });
      const meta = obj.metadata ?? {};
      return { uid: meta.uid ?? '', ...(typeof meta.deletionTimestamp === 'string' ? { deletionTimestamp: meta.deletionTimestamp } : {}) };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  };
  return {
    getServiceAccount: (namespace, name) => identity('serviceaccounts', namespace, name),
    getBoundObject: (kind, namespace, name) => identity(kind === 'Pod' ? 'pods' : kind === 'Secret' ? 'secrets' : 'nodes', namespace, name),
  };
}
