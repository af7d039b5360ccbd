import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import type { ExecCluster } from '../exec/credential.js';
import type { ExecConfig, ExecPluginOptions } from '../exec/types.js';
import type { WarningHandler } from './warnings.js';

/** Where the server's trust and the client's certificate come from (rest.TLSClientConfig). */
export interface TLSClientConfig {
  /** Skips verification of the server certificate; not allowed together with a CA. */
  readonly insecure?: boolean;
  /** The name the server certificate is checked against (and sent as SNI) instead of the URL's host. */
  readonly serverName?: string;
  /** PEM of the CA bundle; takes precedence over caFile. */
  readonly caData?: string | Uint8Array;
  readonly caFile?: string;
  /** PEM of the client certificate; takes precedence over certFile. */
  readonly certData?: string | Uint8Array;
  readonly certFile?: string;
  /** PEM of the client key; takes precedence over keyFile. */
  readonly keyData?: string | Uint8Array;
  readonly keyFile?: string;
}

/** Time as the client sees it; tests inject one to observe waits without waiting. */
export interface Clock {
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Backoff between retries of connection failures (Retry-After answers wait what the server says). */
export interface BackoffOptions {
  /** First wait; doubles per attempt. Default 500 ms. */
  readonly initialMs?: number;
  /** Upper bound of one wait before jitter. Default 10 s. */
  readonly maxMs?: number;
  /** Each wait grows by up to this fraction, at random, so that clients do not retry in step. Default 0.5. */
  readonly jitter?: number;
}

/** How the client behaves, independent of which server it talks to. */
export interface RESTClientOptions {
  /** Default: `<program>/v<version> (<os>/<arch>) kube-ts/node-<node version>`, shaped like client-go's. */
  readonly userAgent?: string;
  /**
   * Deadline of one non-watch call, retries included, also sent as the `timeout` query
   * parameter so the server can stop early. Default: none. Watches never get one (their
   * length is `timeoutSeconds`, the server's to enforce).
   */
  readonly timeoutMs?: number;
  /** Receives each `Warning` header; default: logs each distinct message once per client. */
  readonly warningHandler?: WarningHandler;
  /** Retries after a 429/5xx with Retry-After, or a connection failure of a GET. Default 10. */
  readonly maxRetries?: number;
  readonly backoff?: BackoffOptions;
  /** Connections kept per host; default unbounded (every watch holds one). */
  readonly maxSockets?: number;
  /** The clock of retries, token file re-reads and exec credential expiry. */
  readonly clock?: Clock;
  /** How exec credential plugins are run (a timeout; tests: standard error, the terminal test). */
  readonly execPlugin?: ExecPluginOptions;
}

/** One server and one identity (rest.Config): what a kubeconfig context or the in-cluster convention yields. */
export interface RESTConfig extends RESTClientOptions {
  /**
   * The server's URL. Its path is a prefix of every request path (a server behind a path
   * proxy). Without a scheme, https when any TLS setting is present and http otherwise.
   */
  readonly host: string;
  readonly tls?: TLSClientConfig;
  readonly bearerToken?: string;
  /** Re-read every minute (rotated service account tokens); bearerToken is the fallback while it is unreadable. */
  readonly bearerTokenFile?: string;
  readonly username?: string;
  readonly password?: string;
  /**
   * A credential plugin (rest.Config.ExecProvider): run for a token or client certificate when
   * no token, token file, basic auth or client certificate is configured.
   */
  readonly execProvider?: ExecConfig;
}

declare const completed: unique symbol;

/** A RESTConfig with files read and defaults resolved; the only input HTTPRESTClient accepts. */
export interface CompletedRESTConfig {
  readonly [completed]: true;
  readonly baseURL: URL;
  readonly tls: {
    readonly ca?: string | Buffer;
    readonly cert?: string | Buffer;
    readonly key?: string | Buffer;
    readonly rejectUnauthorized: boolean;
    readonly servername?: string;
  };
  readonly auth: Pick<RESTConfig, 'bearerToken' | 'bearerTokenFile' | 'username' | 'password' | 'execProvider'>;
  /** spec.cluster of the exec plugin's request (rest.ConfigToExecCluster), sent when it asks for cluster info. */
  readonly execCluster: ExecCluster;
  readonly execPlugin: ExecPluginOptions;
  readonly userAgent: string;
  readonly timeoutMs: number | undefined;
  readonly warningHandler: WarningHandler | undefined;
  readonly maxRetries: number;
  readonly backoff: Required<BackoffOptions>;
  readonly maxSockets: number;
  readonly clock: Clock;
}

/** A configuration the client cannot be built from; the message names the setting. */
export class RESTConfigError extends Error {
  override readonly name = 'RESTConfigError';
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/**
 * Reads the CA, certificate and key files and resolves every default, so that a broken
 * configuration fails here, naming the setting, rather than on the first request.
 */
export function completeRESTConfig(c: RESTConfig, defaultUserAgent: string): CompletedRESTConfig {
  const tls = c.tls ?? {};
  const hasCA = tls.caData !== undefined || (tls.caFile ?? '') !== '';
  if (tls.insecure === true && hasCA) {
    throw new RESTConfigError('specifying a root certificates file with the insecure flag is not allowed');
  }
  const hasTLS = hasCA || tls.insecure === true || tls.certData !== undefined || (tls.certFile ?? '') !== '';
  const baseURL = parseHost(c.host, hasTLS);
  const ca = pem(tls.caData, tls.caFile, 'certificate authority');
  const cert = pem(tls.certData, tls.certFile, 'client certificate');
  const key = pem(tls.keyData, tls.keyFile, 'client key');
  if ((cert === undefined) !== (key === undefined)) {
    throw new RESTConfigError(cert === undefined ? 'a client key was given without a client certificate' : 'a client certificate was given without a client key');
  }
  if ((c.bearerToken ?? '') !== '' && ((c.username ?? '') !== '' || (c.password ?? '') !== '')) {
    throw new RESTConfigError('more than one authentication method found; found [token basicAuth], only one is allowed');
  }
  // Node checks the certificate against `servername` when given, else the URL's host. SNI may not carry an IP address.
  const serverName = tls.serverName !== undefined && tls.serverName !== '' ? tls.serverName : undefined;
  const host = baseURL.hostname.replace(/^\[|\]$/g, '');
  const servername = serverName ?? (isIP(host) === 0 ? host : undefined);
  const done: Omit<CompletedRESTConfig, typeof completed> = {
    baseURL,
    tls: {
      ...(ca !== undefined ? { ca } : {}),
      ...(cert !== undefined ? { cert } : {}),
      ...(key !== undefined ? { key } : {}),
      rejectUnauthorized: tls.insecure !== true,
      ...(servername !== undefined ? { servername } : {}),
    },
    auth: { bearerToken: c.bearerToken, bearerTokenFile: c.bearerTokenFile, username: c.username, password: c.password, execProvider: c.execProvider },
    execCluster: {
      server: c.host,
      ...(serverName !== undefined ? { tlsServerName: serverName } : {}),
      insecureSkipTLSVerify: tls.insecure === true,
      ...(ca !== undefined ? { certificateAuthorityData: ca } : {}),
      ...(c.execProvider?.config !== undefined ? { config: c.execProvider.config } : {}),
    },
    execPlugin: c.execPlugin ?? {},
    userAgent: c.userAgent ?? defaultUserAgent,
    timeoutMs: c.timeoutMs !== undefined && c.timeoutMs > 0 ? c.timeoutMs : undefined,
    warningHandler: c.warningHandler,
    maxRetries: Math.max(0, c.maxRetries ?? 10),
    backoff: { initialMs: c.backoff?.initialMs ?? 500, maxMs: c.backoff?.maxMs ?? 10_000, jitter: c.backoff?.jitter ?? 0.5 },
    maxSockets: c.maxSockets ?? Infinity,
    clock: c.clock ?? realClock,
  };
  return done as CompletedRESTConfig;
}

/** rest.DefaultServerURL: a host without a scheme is https when TLS is configured. */
function parseHost(host: string, hasTLS: boolean): URL {
  if (host === '') throw new RESTConfigError('host must be a URL or a host:port pair');
  const withScheme = host.includes('://') ? host : `${hasTLS ? 'https' : 'http'}://${host}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new RESTConfigError(`host ${JSON.stringify(host)} is not a valid URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new RESTConfigError(`host ${JSON.stringify(host)}: scheme must be http or https`);
  }
  if (url.search !== '' || url.hash !== '') throw new RESTConfigError(`host ${JSON.stringify(host)} may not have a query or fragment`);
  return url;
}

function pem(data: string | Uint8Array | undefined, file: string | undefined, what: string): string | Buffer | undefined {
  if (data !== undefined && data.length > 0) return typeof data === 'string' ? data : Buffer.from(data);
  if (file === undefined || file === '') return undefined;
  try {
    return readFileSync(file);
  } catch (e) {
    throw new RESTConfigError(`unable to read ${what} ${file}: ${(e as Error).message}`, { cause: e });
  }
}
