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

/** Go's strconv.Quote (`%q`). */
export function quote(s: string): string {
  if (!NEEDS_QUOTING.test(s)) return `"${s}"`;
  return `"${s.replace(QUOTED_RUNE, quoteRune)}"`;
}

function quoteRune(r: string): string {
  const named = NAMED_ESCAPES[r];
  if (named !== undefined) return named;
  const cp = r.codePointAt(0) ?? 0xfffd;
  // A lone surrogate is not valid UTF-8; Go would print its bytes, JS has none: U+FFFD stands in.
  if (cp >= 0xd800 && cp <= 0xdfff) return '\\ufffd';
  if (cp < 0x80) return `\\x${cp.toString(16).padStart(2, '0')}`;
  if (cp < 0x10000) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\U${cp.toString(16).padStart(8, '0')}`;
}
