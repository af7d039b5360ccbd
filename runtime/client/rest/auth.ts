import { readFileSync } from 'node:fs';
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

/** Produces the Authorization header of each request, or nothing for an anonymous client. */
export type Authorizer = () => string | undefined;

export function newAuthorizer(auth: CompletedRESTConfig['auth'], clock: Clock): Authorizer {
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
  return () => undefined;
}
