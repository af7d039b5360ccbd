import { posix } from 'node:path';

/**
 * Continue tokens as k8s.io/apiserver/pkg/storage/continue.go: base64url (no padding) of
 * `{"v":"meta.k8s.io/v1","rv":<revision>,"start":"<key after the list prefix>"}`.
 * rv < 0 asks for a consistent read at the latest revision (the "inconsistent continuation"
 * handed out with a 410 after compaction).
 */
interface ContinueToken {
  v: string;
  rv: number;
  start: string;
}

export class InvalidContinueError extends Error {
  override readonly name = 'InvalidContinueError';
}

export function encodeContinue(key: string, keyPrefix: string, resourceVersion: number): string {
  if (keyPrefix === '' || !key.startsWith(keyPrefix)) {
    throw new InvalidContinueError('unable to encode next field: the key and key prefix do not match');
  }
  const start = key.slice(keyPrefix.length);
  const token: ContinueToken = { v: 'meta.k8s.io/v1', rv: resourceVersion, start };
  return Buffer.from(JSON.stringify(token)).toString('base64url');
}

/** Decodes a token into the absolute key to resume from and its revision. Throws InvalidContinueError. */
export function decodeContinue(continueValue: string, keyPrefix: string): { fromKey: string; rv: number } {
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]*$/.test(continueValue)) throw new Error('illegal base64 data');
    parsed = JSON.parse(Buffer.from(continueValue, 'base64url').toString('utf8'));
  } catch (e) {
    throw new InvalidContinueError(`continue key is not valid: ${(e as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null) throw new InvalidContinueError('continue key is not valid');
  const c = parsed as Partial<ContinueToken>;
  if (c.v !== 'meta.k8s.io/v1') {
    throw new InvalidContinueError(`continue key is not valid: server does not recognize this encoded version ${String(c.v)}`);
  }
  const rv = typeof c.rv === 'number' ? c.rv : 0;
  if (rv === 0) throw new InvalidContinueError('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  const start = typeof c.start === 'string' ? c.start : '';
  if (start.length === 0) throw new InvalidContinueError('continue key is not valid: encoded start key empty (version meta.k8s.io/v1)');
  // Defend against traversal: the cleaned key must equal the given one, so the resumed range
  // can never cover anything less specific than keyPrefix.
  const key = start.startsWith('/') ? start : `/${start}`;
  const cleaned = cleanPath(key);
  if (cleaned !== key) throw new InvalidContinueError(`continue key is not valid: ${start}`);
  return { fromKey: keyPrefix + cleaned.slice(1), rv };
}

// path.Clean semantics from Go: also strips a trailing slash, which posix.normalize keeps.
function cleanPath(p: string): string {
  const n = posix.normalize(p);
  return n.length > 1 && n.endsWith('/') ? n.slice(0, -1) : n;
}
