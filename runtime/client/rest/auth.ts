import { readFileSync } from 'node:fs';
import { ExecAuthenticator } from '../exec/authenticator.js';
import type { ClientCertificate, ExecCredentials } from '../exec/credential.js';
import type { Clock, CompletedRESTConfig } from './config.js';
import { RESTConfigError } from './config.js';

/** Half the kubelet's refresh margin for projected tokens, as client-go's cached file token source. */
export const TOKEN_FILE_PERIOD_MS = 60_000;

/**
 * A bearer token read from a file and re-read once its period has passed, so a rotated service
 * account token is picked up without a restart. While the file is unreadable or empty the last
 * good token (or the static fallback) stays in use.
 */
export class FileTokenSource {
  private token: string | undefined;
  private readAt = -Infinity;

  constructor(
    private readonly path: string,
    private readonly clock: Clock,
    private readonly fallback?: string,
  ) {}

  /** The current token; undefined only when the file was never readable and there is no fallback. */
  current(): string | undefined {
    const now = this.clock.now();
    if (now - this.readAt >= TOKEN_FILE_PERIOD_MS) {
      this.readAt = now;
      const read = readToken(this.path);
      if (read !== undefined) this.token = read;
    }
    return this.token ?? this.fallback;
  }
}

function readToken(path: string): string | undefined {
  try {
    const t = readFileSync(path, 'utf8').trim();
    return t === '' ? undefined : t;
  } catch {
    return undefined;
  }
}

/** What one attempt of a request authenticates with. */
export interface AttemptCredentials {
  /** The Authorization header, if any. */
  readonly authorization: string | undefined;
  /** A client certificate for this attempt's connection, replacing the configured one (an exec plugin's). */
  readonly cert: ClientCertificate | undefined;
  /** The plugin answer these came from, handed back on a 401. */
  readonly exec?: ExecCredentials;
}

/** The credentials of each attempt, and what a 401 answer to them means. */
export interface Authorizer {
  credentials(signal: AbortSignal): Promise<AttemptCredentials>;
  /** The server answered 401 to an attempt sent with `used`. */
  unauthorized(used: AttemptCredentials): void;
}

/**
 * The authorizer of a configuration, in client-go's precedence: a token file (with the token
 * as its fallback), a token, basic auth; an exec plugin only when none of those nor a client
 * certificate is configured (kubectl --token over a kubeconfig's plugin).
 */
export function newAuthorizer(auth: CompletedRESTConfig['auth'], config: Pick<CompletedRESTConfig, 'clock' | 'tls' | 'execCluster' | 'execPlugin'>): Authorizer {
  const header = staticHeader(auth, config.clock);
  const exec = auth.execProvider;
  if (header !== undefined || exec === undefined || config.tls.cert !== undefined) {
    const none: AttemptCredentials = { authorization: undefined, cert: undefined };
    return {
      credentials: () => {
        const authorization = header?.();
        return Promise.resolve(authorization === undefined ? none : { authorization, cert: undefined });
      },
      unauthorized: () => {},
    };
  }
  let plugin: ExecAuthenticator;
  try {
    plugin = new ExecAuthenticator(exec, config.execCluster, () => config.clock.now(), config.execPlugin);
  } catch (e) {
    throw new RESTConfigError((e as Error).message, { cause: e });
  }
  return {
    credentials: async (signal) => {
      let creds: ExecCredentials;
      try {
        creds = await abortable(plugin.credentials(), signal);
      } catch (e) {
        if (signal.aborted) throw e;
        throw new Error(`getting credentials: ${(e as Error).message}`, { cause: e });
      }
      return { authorization: creds.token === undefined ? undefined : `Bearer ${creds.token}`, cert: creds.cert, exec: creds };
    },
    unauthorized: (used) => {
      if (used.exec !== undefined) plugin.unauthorized(used.exec);
    },
  };
}

/** The Authorization header of the static settings, or undefined when they name none. */
function staticHeader(auth: CompletedRESTConfig['auth'], clock: Clock): (() => string | undefined) | undefined {
  const file = auth.bearerTokenFile ?? '';
  const token = auth.bearerToken ?? '';
  if (file !== '') {
    const source = new FileTokenSource(file, clock, token === '' ? undefined : token);
    if (source.current() === undefined) throw new RESTConfigError(`unable to read a token from ${file}`);
    return () => {
      const t = source.current();
      return t === undefined ? undefined : `Bearer ${t}`;
    };
  }
  if (token !== '') return () => `Bearer ${token}`;
  const username = auth.username ?? '';
  const password = auth.password ?? '';
  if (username !== '' || password !== '') {
    const basic = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
    return () => basic;
  }
  return undefined;
}

/** p, or the signal's reason when it aborts first; p goes on (a plugin run other requests share). */
function abortable<V>(p: Promise<V>, signal: AbortSignal): Promise<V> {
  if (signal.aborted) return Promise.reject(signal.reason as unknown);
  return new Promise<V>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as unknown);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
