/**
 * The parts of Go's strconv that kube's wording depends on: Atoi (with its NumError texts) and
 * Quote (`%q`). One port, so every caller parses and words alike.
 */

/** strconv.ErrSyntax's and strconv.ErrRange's texts. */
export const ERR_SYNTAX = 'invalid syntax';
export const ERR_RANGE = 'value out of range';

/** strconv.NumError: `strconv.<Func>: parsing "<Num, quoted>": <Err>`. */
export class NumError extends Error {
  override readonly name = 'NumError';

  constructor(
    readonly func: string,
    readonly num: string,
    readonly err: typeof ERR_SYNTAX | typeof ERR_RANGE,
  ) {
    super(`strconv.${func}: parsing ${quote(num)}: ${err}`);
  }
}

const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/**
 * strconv.Atoi on a 64-bit platform, exactly: an optional sign, then decimal digits only (base 10
 * takes no prefix and no underscores), within int64. Throws Go's NumError. As Go's ParseUint
 * reads left to right, an overflow of uint64 is reported before a later bad character
 * ("99999999999999999999x" is out of range), and a short string is only ever a syntax error.
 */
export function atoi64(s: string): bigint {
  const neg = s.startsWith('-');
  const digits = neg || s.startsWith('+') ? s.slice(1) : s;
  if (digits === '') throw new NumError('Atoi', s, ERR_SYNTAX);
  let n = 0n;
  for (let i = 0; i < digits.length; i++) {
    const c = digits.charCodeAt(i);
    if (c < 0x30 || c > 0x39) throw new NumError('Atoi', s, ERR_SYNTAX);
    n = n * 10n + BigInt(c - 0x30);
    if (n > UINT64_MAX) throw new NumError('Atoi', s, ERR_RANGE);
  }
  if (neg ? n > INT64_MAX + 1n : n > INT64_MAX) throw new NumError('Atoi', s, ERR_RANGE);
  return neg ? -n : n;
}

/**
 * Atoi for a caller that needs a JS number: Go's result and errors where it fits in one exactly
 * (|n| <= 2^53 - 1); beyond that a JS number would name another value, so it is refused as out of
 * range (Go, with int64, would take it).
 */
export function atoi(s: string): number {
  const n = atoi64(s);
  if (n > BigInt(Number.MAX_SAFE_INTEGER) || n < BigInt(Number.MIN_SAFE_INTEGER)) throw new NumError('Atoi', s, ERR_RANGE);
  return Number(n);
}

const NAMED_ESCAPES: Readonly<Record<string, string>> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

/** What strconv.Quote escapes: quotes, backslashes, and runes that are not printable (not letters, marks, numbers, punctuation, symbols or ASCII space). */
const NEEDS_QUOTING = /["\\]|[^\P{C}]|[^\P{Z} ]/u;
const QUOTED_RUNE = /["\\]|[^\P{C}]|[^\P{Z} ]/gu;

/**
 * Go's strconv.Quote (`%q`) of a string: \a \b \f \n \r \t \v, `\xNN` for the other ASCII
 * controls and DEL, `\uNNNN` / `\UNNNNNNNN` for other runes unicode.IsPrint refuses, printable
 * non-ASCII kept as it is. A JS string has no invalid UTF-8; its only stand-in, a lone surrogate,
 * comes from a JSON `\ud800` escape, which Go's decoder turns into U+FFFD (printable, so kept).
 */
export function quote(s: string): string {
  if (!NEEDS_QUOTING.test(s)) return `"${s}"`;
  return `"${s.replace(QUOTED_RUNE, quoteRune)}"`;
}

function quoteRune(r: string): string {
  const named = NAMED_ESCAPES[r];
  if (named !== undefined) return named;
  const cp = r.codePointAt(0) ?? 0xfffd;
  if (cp >= 0xd800 && cp <= 0xdfff) return '\ufffd';
  if (cp < 0x80) return `\\x${hex2(cp)}`;
  if (cp < 0x10000) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\U${cp.toString(16).padStart(8, '0')}`;
}

function hex2(b: number): string {
  return b.toString(16).padStart(2, '0');
}

/**
 * strconv.Quote of raw bytes (a Go string that need not be UTF-8): each byte of an invalid
 * sequence is printed as `\xNN`, valid runes as quote prints them.
 */
export function quoteBytes(b: Uint8Array): string {
  let out = '"';
  let i = 0;
  while (i < b.length) {
    const [cp, size] = decodeRune(b, i);
    if (cp < 0) {
      out += `\\x${hex2(b[i] ?? 0)}`;
      i += 1;
      continue;
    }
    const r = String.fromCodePoint(cp);
    out += NEEDS_QUOTING.test(r) ? quoteRune(r) : r;
    i += size;
  }
  return `${out}"`;
}

/** utf8.DecodeRune: the rune at i and its length, or -1 for an invalid (or short, overlong, surrogate) sequence. */
function decodeRune(b: Uint8Array, i: number): [number, number] {
  const b0 = b[i] ?? 0;
  if (b0 < 0x80) return [b0, 1];
  const cont = (k: number): number => {
    const c = b[i + k];
    return c !== undefined && (c & 0xc0) === 0x80 ? c & 0x3f : -1;
  };
  if (b0 >= 0xc2 && b0 <= 0xdf) {
    const c1 = cont(1);
    return c1 < 0 ? [-1, 1] : [((b0 & 0x1f) << 6) | c1, 2];
  }
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const c1 = cont(1);
    const c2 = cont(2);
    if (c1 < 0 || c2 < 0) return [-1, 1];
    const cp = ((b0 & 0x0f) << 12) | (c1 << 6) | c2;
    if (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff)) return [-1, 1];
    return [cp, 3];
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const c1 = cont(1);
    const c2 = cont(2);
    const c3 = cont(3);
    if (c1 < 0 || c2 < 0 || c3 < 0) return [-1, 1];
    const cp = ((b0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3;
    if (cp < 0x10000 || cp > 0x10ffff) return [-1, 1];
    return [cp, 4];
  }
  return [-1, 1];
}
