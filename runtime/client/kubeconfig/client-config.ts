import { accessSync, constants } from 'node:fs';
import type { RESTConfig } from '../rest/config.js';
import { authProviderError, checkExec } from './exec.js';
import { KubeconfigError, type AuthInfo, type Cluster, type Kubeconfig } from './types.js';

/** A server, an identity and a default namespace: what clients need to start (clientcmd.ClientConfig). */
export interface ClientConfig {
  readonly rest: RESTConfig;
  /** The context's namespace; "default" when it names none. */
  readonly namespace: string;
  /** The context used; empty for the in-cluster configuration. */
  readonly context: string;
}

/**
 * The configuration of one context: `context` when given, else current-context. Checks what
 * clientcmd's validation checks for the chosen context only (a broken entry elsewhere in the
 * file does not matter): the cluster has a server, referenced files are readable, a client
 * certificate has its key, at most one of token and basic auth, no CA with insecure.
 */
export function clientConfigFor(kc: Kubeconfig, context?: string): ClientConfig {
  const where = kc.files.join(':');
  const name = context !== undefined && context !== '' ? context : kc.currentContext;
  if (name === undefined) {
    throw new KubeconfigError(where, 'current-context', 'no context is selected: set current-context or choose a context');
  }
  const ctx = kc.contexts.get(name);
  if (ctx === undefined) throw new KubeconfigError(where, 'contexts', `context ${JSON.stringify(name)} not found`);
  const at = (field: string): string => `${ctx.origin.field}.${field}`;
  if (ctx.cluster === '') throw new KubeconfigError(ctx.origin.file, at('cluster'), `context ${JSON.stringify(name)} names no cluster`);
  const cluster = kc.clusters.get(ctx.cluster);
  if (cluster === undefined) throw new KubeconfigError(ctx.origin.file, at('cluster'), `cluster ${JSON.stringify(ctx.cluster)} was not found for context ${JSON.stringify(name)}`);
  let user: AuthInfo | undefined;
  if (ctx.user !== '') {
    user = kc.users.get(ctx.user);
    if (user === undefined) throw new KubeconfigError(ctx.origin.file, at('user'), `user ${JSON.stringify(ctx.user)} was not found for context ${JSON.stringify(name)}`);
  }
  checkCluster(cluster);
  const auth = user === undefined ? {} : userAuth(ctx.user, user, cluster);
  return { rest: { host: cluster.server, ...auth, ...mergeTLS(cluster, user) }, namespace: ctx.namespace ?? 'default', context: name };
}

function checkCluster(c: Cluster): void {
  const field = (f: string): string => `${c.origin.field}.${f}`;
  if (c.server === '') throw new KubeconfigError(c.origin.file, field('server'), 'no server defined');
  const url = URL.parse(c.server.includes('://') ? c.server : `https://${c.server}`);
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new KubeconfigError(c.origin.file, field('server'), `${JSON.stringify(c.server)} is not an http or https URL`);
  }
  if (c.insecureSkipTLSVerify && (c.certificateAuthority !== undefined || c.certificateAuthorityData !== undefined)) {
    throw new KubeconfigError(c.origin.file, field('insecure-skip-tls-verify'), 'specifying a root certificates file with the insecure flag is not allowed');
  }
  if (c.certificateAuthorityData === undefined && c.certificateAuthority !== undefined) readable(c.certificateAuthority, c.origin.file, field('certificate-authority'));
}

/** The TLS settings of the cluster and of the user's client certificate, data over files. */
function mergeTLS(c: Cluster, u: AuthInfo | undefined): Pick<RESTConfig, 'tls'> {
  return {
    tls: {
      insecure: c.insecureSkipTLSVerify,
      ...(c.tlsServerName !== undefined ? { serverName: c.tlsServerName } : {}),
      ...(c.certificateAuthorityData !== undefined ? { caData: c.certificateAuthorityData } : c.certificateAuthority !== undefined ? { caFile: c.certificateAuthority } : {}),
      ...(u?.clientCertificateData !== undefined ? { certData: u.clientCertificateData } : u?.clientCertificate !== undefined ? { certFile: u.clientCertificate } : {}),
      ...(u?.clientKeyData !== undefined ? { keyData: u.clientKeyData } : u?.clientKey !== undefined ? { keyFile: u.clientKey } : {}),
    },
  };
}

function userAuth(name: string, u: AuthInfo, cluster: Cluster): Pick<RESTConfig, 'bearerToken' | 'bearerTokenFile' | 'username' | 'password' | 'execProvider'> {
  const field = (f: string): string => `${u.origin.field}.${f}`;
  if (u.authProvider !== undefined) throw authProviderError(name, u);
  const exec = u.exec === undefined ? undefined : checkExec(name, u, u.exec, cluster);
  const hasCert = u.clientCertificate !== undefined || u.clientCertificateData !== undefined;
  const hasKey = u.clientKey !== undefined || u.clientKeyData !== undefined;
  if (hasCert && !hasKey) throw new KubeconfigError(u.origin.file, field('client-key'), 'client-key-data or client-key must be specified to use the clientCert authentication method');
  if (hasKey && !hasCert) throw new KubeconfigError(u.origin.file, field('client-certificate'), 'client-certificate-data or client-certificate must be specified with a client key');
  if (u.clientCertificateData === undefined && u.clientCertificate !== undefined) readable(u.clientCertificate, u.origin.file, field('client-certificate'));
  if (u.clientKeyData === undefined && u.clientKey !== undefined) readable(u.clientKey, u.origin.file, field('client-key'));
  const basic = u.username !== undefined || u.password !== undefined;
  if (u.token !== undefined && basic) throw new KubeconfigError(u.origin.file, u.origin.field, 'more than one authentication method found; found [token basicAuth], only one is allowed');
  if (u.tokenFile !== undefined && u.token === undefined) readable(u.tokenFile, u.origin.file, field('tokenFile'));
  return {
    ...(u.token !== undefined ? { bearerToken: u.token } : {}),
    ...(u.tokenFile !== undefined ? { bearerTokenFile: u.tokenFile } : {}),
    ...(u.username !== undefined ? { username: u.username } : {}),
    ...(u.password !== undefined ? { password: u.password } : {}),
    ...(exec !== undefined ? { execProvider: exec } : {}),
  };
}

function readable(path: string, file: string, field: string): void {
  try {
    accessSync(path, constants.R_OK);
  } catch (e) {
    throw new KubeconfigError(file, field, `unable to read ${path}: ${(e as Error).message}`, { cause: e });
  }
}
