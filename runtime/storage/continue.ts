import { posix } from 'node:path';
import { scanJSON } from '../apimachinery/serializer/json-scan.js';

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
  let c: ContinueToken;
  try {
    c = unmarshalToken(decodeRawURLBase64(continueValue));
  } catch (e) {
    throw new InvalidContinueError(`continue key is not valid: ${(e as Error).message}`);
  }
  if (c.v !== 'meta.k8s.io/v1') throw new InvalidContinueError(`continue key is not valid: server does not recognize this encoded version ${c.v}`);
  if (c.rv === 0) throw new InvalidContinueError('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (c.start.length === 0) throw new InvalidContinueError('continue key is not valid: encoded start key empty (version meta.k8s.io/v1)');
  // Defend against traversal: the cleaned key must equal the given one, so the resumed range
  // can never cover anything less specific than keyPrefix.
  const key = c.start.startsWith('/') ? c.start : `/${c.start}`;
  const cleaned = cleanPath(key);
  if (cleaned !== key) throw new InvalidContinueError(`continue key is not valid: ${c.start}`);
  return { fromKey: keyPrefix + cleaned.slice(1), rv: c.rv };
}

/** base64.RawURLEncoding.DecodeString: Go's alphabet, no padding, CR and LF skipped, Go's error text. */
function decodeRawURLBase64(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  let symbols = 0;
  let last = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x0a || b === 0x0d) continue;
    const alphabet = (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || (b >= 0x30 && b <= 0x39) || b === 0x2d || b === 0x5f;
    if (!alphabet) throw new Error(`illegal base64 data at input byte ${i}`);
    symbols++;
    last = i;
  }
  // One symbol left over carries 6 bits, less than a byte.
  if (symbols % 4 === 1) throw new Error(`illegal base64 data at input byte ${last}`);
  return Buffer.from(bytes.toString('latin1').replace(/[\r\n]/g, ''), 'base64url');
}

const tokenFields: Record<string, 'string' | 'int64'> = { v: 'string', rv: 'int64', start: 'string', rc: 'int64' };

/**
 * json.Unmarshal into kube's continueToken: Go's syntax errors (scanJSON), case-insensitive field
 * names, the last duplicate winning, null leaving a field unset, and Go's type-mismatch texts.
 */
function unmarshalToken(data: Buffer): ContinueToken {
  scanJSON(data);
  const parsed: unknown = JSON.parse(data.toString('utf8'));
  const token: ContinueToken = { v: '', rv: 0, start: '' };
  if (parsed === null) return token;
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`json: cannot unmarshal ${goKind(parsed)} into Go value of type storage.continueToken`);
  let mismatch: string | undefined;
  for (const [name, value] of Object.entries(parsed)) {
    const field = Object.keys(tokenFields).find((f) => f === name.toLowerCase());
    if (field === undefined || value === null) continue;
    const type = tokenFields[field]!;
    const fits = type === 'string' ? typeof value === 'string' : typeof value === 'number' && Number.isInteger(value) && value >= -(2 ** 63) && value < 2 ** 63;
    if (!fits) {
      // An integer that does not fit is quoted with its literal; any number into a string is not.
      const what = typeof value === 'number' && type === 'int64' ? `number ${value}` : goKind(value);
      mismatch ??= `json: cannot unmarshal ${what} into Go struct field continueToken.${field} of type ${type}`;
      continue;
    }
    if (field === 'v') token.v = value as string;
    else if (field === 'rv') token.rv = value as number;
    else if (field === 'start') token.start = value as string;
  }
  // Go decodes the whole document and reports the first mismatch.
  if (mismatch !== undefined) throw new Error(mismatch);
  return token;
}

function goKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'object' ? 'object' : typeof value;
}

// path.Clean semantics from Go: also strips a trailing slash, which posix.normalize keeps.
function cleanPath(p: string): string {
  const n = posix.normalize(p);
  return n.length > 1 && n.endsWith('/') ? n.slice(0, -1) : n;
}
