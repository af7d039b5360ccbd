import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import type { ClientConfig } from './client-config.js';

/** Where a pod finds its service account, relative to the filesystem root. */
const SERVICE_ACCOUNT_DIR = 'var/run/secrets/kubernetes.io/serviceaccount';

export interface InClusterOptions {
  /** Filesystem root the service account directory is under; default `/` (tests use a temp dir). */
  readonly root?: string;
  /** Environment read for KUBERNETES_SERVICE_HOST/PORT and POD_NAMESPACE; default process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Receives the complaint about an unreadable CA bundle; default console.warn. */
  readonly warn?: (message: string) => void;
}

/** Not running in a pod: the service environment variables are missing. */
export class NotInClusterError extends Error {
  override readonly name = 'NotInClusterError';

  constructor() {
    super('unable to load in-cluster configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined');
  }
}

/** True when the service environment is set and the token file exists (the fallback test of clientcmd). */
export function isInCluster(o: InClusterOptions = {}): boolean {
  const env = o.env ?? process.env;
  return (env['KUBERNETES_SERVICE_HOST'] ?? '') !== '' && (env['KUBERNETES_SERVICE_PORT'] ?? '') !== '' && existsSync(serviceAccountFile(o, 'token'));
}

/**
 * The configuration of a client running in a pod (rest.InClusterConfig): the API server's
 * service address from the environment, the service account token (re-read as it rotates) and
 * CA from the mounted secret. The namespace is POD_NAMESPACE, else the mounted namespace file,
 * else "default". A CA that cannot be read is reported and left out, as client-go does, so the
 * system's roots apply.
 */
export function inClusterConfig(o: InClusterOptions = {}): ClientConfig {
  const env = o.env ?? process.env;
  const host = env['KUBERNETES_SERVICE_HOST'] ?? '';
  const port = env['KUBERNETES_SERVICE_PORT'] ?? '';
  if (host === '' || port === '') throw new NotInClusterError();
  const tokenFile = serviceAccountFile(o, 'token');
  let token: string;
  try {
    token = readFileSync(tokenFile, 'utf8').trim();
  } catch (e) {
    throw new Error(`in-cluster configuration: unable to read the service account token: ${(e as Error).message}`, { cause: e });
  }
  const caFile = serviceAccountFile(o, 'ca.crt');
  let ca: string | undefined;
  try {
    ca = readFileSync(caFile, 'utf8');
    if (!ca.includes('-----BEGIN CERTIFICATE-----')) throw new Error('no PEM certificate found');
  } catch (e) {
    (o.warn ?? console.warn)(`Expected to load root CA config from ${caFile}, but got err: ${(e as Error).message}`);
    ca = undefined;
  }
  const hostPort = isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
  return {
    rest: {
      host: `https://${hostPort}`,
      ...(ca !== undefined ? { tls: { caFile } } : {}),
      ...(token !== '' ? { bearerToken: token } : {}),
      bearerTokenFile: tokenFile,
    },
    namespace: inClusterNamespace(o),
    context: '',
  };
}

function inClusterNamespace(o: InClusterOptions): string {
  const fromEnv = (o.env ?? process.env)['POD_NAMESPACE'];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  try {
    const ns = readFileSync(serviceAccountFile(o, 'namespace'), 'utf8').trim();
    if (ns !== '') return ns;
  } catch {
    // no namespace file: the default namespace
  }
  return 'default';
}

function serviceAccountFile(o: InClusterOptions, name: string): string {
  return join(o.root ?? '/', SERVICE_ACCOUNT_DIR, name);
}
