/**
 * Scalar resolution as go-yaml v2 does it (the fork inside sigs.k8s.io/yaml v1.4.0, which
 * kube-apiserver 1.32 decodes YAML bodies with): YAML 1.1 rules for plain scalars, and the
 * checks of the standard explicit tags. Quoted and block scalars without a tag are strings.
 *
 * Plain scalars, by their first character:
 * - `y Y yes Yes YES true True TRUE on On ON` are true, `n N no No NO false False FALSE off Off
 *   OFF` false, `~ null Null NULL` and the empty scalar null, `.inf`/`+.inf`/`-.inf` and `.nan`
 *   (three spellings each) the floats, `<<` the merge key;
 * - a leading `.` is a float when Go's ParseFloat takes the whole text (`.5`, `.5e3`);
 * - a leading digit or sign: with `_` removed, an integer by Go's ParseInt with base 0
 *   (`0x1F`, `0o17`, `0b101`, `010` octal, signs allowed), else an unsigned 64-bit integer, else
 *   a float when it matches `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?` and is in
 *   range (`1e400` stays a string); timestamps are recognised but, decoded into interface{},
 *   go-yaml keeps their text;
 * - anything else is a string.
 */

/** go-yaml's tags, short form. */
export type GoTag = '!!str' | '!!int' | '!!float' | '!!bool' | '!!null' | '!!timestamp' | '!!merge';

export interface GoResolved {
  readonly tag: GoTag;
  /** The JSON value encoding/json makes of go-yaml's (a float's JSON is its number). */
  readonly value: string | number | boolean | null;
}

const LONG_PREFIX = 'tag:yaml.org,2002:';

/** The tags go-yaml resolves (resolvableTag); others leave a scalar's text as it is. */
const RESOLVABLE = new Set(['str', 'int', 'float', 'bool', 'null', 'timestamp']);

const WORDS = new Map<string, GoResolved>();
for (const [value, tag, words] of [
  [true, '!!bool', 'y Y yes Yes YES true True TRUE on On ON'],
  [false, '!!bool', 'n N no No NO false False FALSE off Off OFF'],
  [null, '!!null', '~ null Null NULL'],
  [Number.NaN, '!!float', '.nan .NaN .NAN'],
  [Number.POSITIVE_INFINITY, '!!float', '.inf .Inf .INF +.inf +.Inf +.INF'],
  [Number.NEGATIVE_INFINITY, '!!float', '-.inf -.Inf -.INF'],
  ['<<', '!!merge', '<<'],
] as const) {
  for (const w of words.split(' ')) WORDS.set(w, { tag, value });
}
WORDS.set('', { tag: '!!null', value: null });

/** First characters for which go-yaml looks further (its resolve table); others are strings. */
function hintOf(s: string): 'M' | '.' | 'D' | 'S' | undefined {
  if (s === '') return 'M';
  const c = s[0];
  if (c === '+' || c === '-') return 'S';
  if (c !== undefined && c >= '0' && c <= '9') return 'D';
  if (c === '.') return '.';
  if (c !== undefined && 'yYnNtTfFoO~<'.includes(c)) return 'M';
  return undefined;
}

const GO_INT = /^[+-]?(?:0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|0[0-7]*|[1-9][0-9]*)$/;
const GO_UINT = /^(?:0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|0[0-7]*|[1-9][0-9]*)$/;
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
/** What Go's ParseFloat takes of a text starting with `.`: digits (`_` between them), an optional exponent. */
const DOT_FLOAT = /^\.[0-9](?:_?[0-9])*(?:[eE][-+]?[0-9](?:_?[0-9])*)?$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** Go's ParseInt(s, 0, 64) / ParseUint(s, 0, 64) value, or undefined (syntax or range). */
function parseGoInt(s: string, unsigned: boolean): bigint | undefined {
  if (!(unsigned ? GO_UINT : GO_INT).test(s)) return undefined;
  const neg = s.startsWith('-');
  let body = s.replace(/^[+-]/, '');
  if (/^0[0-7]+$/.test(body)) body = `0o${body.slice(1)}`;
  const v = (neg ? -1n : 1n) * BigInt(body.replace(/^0([XBO])/, (_, p: string) => `0${p.toLowerCase()}`));
  if (unsigned) return v <= UINT64_MAX ? v : undefined;
  return v >= INT64_MIN && v <= INT64_MAX ? v : undefined;
}

/** A float in range, or undefined (go-yaml keeps the text when ParseFloat fails). */
function parseGoFloat(s: string): number | undefined {
  const f = Number(s);
  return Number.isFinite(f) ? f + 0 : undefined;
}

function isGoTimestamp(s: string): boolean {
  // parseTimestamp: four digits and a dash, then one of its layouts; only the outcome matters
  // (the value stays the text), so a loose check of the layouts' shapes is enough.
  return /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]| )[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]*)?(?:Z|[+-][0-9]{2}:[0-9]{2})?)?$/.test(s) && validTimestamp(s);
}

function validTimestamp(s: string): boolean {
  const m = /^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:[Tt ]([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2})(\.[0-9]*)?(Z|[+-][0-9]{2}:[0-9]{2})?)?$/.exec(s);
  if (m === null) return false;
  const [, y, mo, d, h, mi, sec, , zone] = m;
  // The T/t layouts need a zone, the space layout has none.
  if (h !== undefined && /[Tt]/.test(s) !== (zone !== undefined)) return false;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1) return false;
  const year = Number(y);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  if (day > days) return false;
  if (h !== undefined && (Number(h) > 23 || Number(mi) > 59 || Number(sec) > 59)) return false;
  return true;
}

/** The number for an integer go-yaml decoded (int, int64 or uint64): JSON has its digits; JavaScript the nearest double. */
function intValue(v: bigint): number {
  return Number(v) + 0;
}

/** go-yaml's resolve for an untagged plain scalar. */
export function resolvePlain(s: string): GoResolved {
  const hint = hintOf(s);
  if (hint === undefined) return { tag: '!!str', value: s };
  const word = WORDS.get(s);
  if (word !== undefined) return word;
  if (hint === '.') {
    const f = DOT_FLOAT.test(s) ? parseGoFloat(s.replace(/_/g, '')) : undefined;
    return f === undefined ? { tag: '!!str', value: s } : { tag: '!!float', value: f };
  }
  if (hint === 'D' || hint === 'S') {
    if (isGoTimestamp(s)) return { tag: '!!timestamp', value: s };
    const plain = s.replace(/_/g, '');
    const i = parseGoInt(plain, false) ?? parseGoInt(plain, true);
    if (i !== undefined) return { tag: '!!int', value: intValue(i) };
    if (YAML_STYLE_FLOAT.test(plain)) {
      const f = parseGoFloat(plain);
      if (f !== undefined) return { tag: '!!float', value: f };
    }
  }
  return { tag: '!!str', value: s };
}

/**
 * go-yaml's resolve for a scalar with the explicit tag `tag` (long or short form; quoted or
 * plain text `s`): undefined when go-yaml does not resolve that tag (the text stays a string;
 * `!!binary` is decoded elsewhere). Throws go-yaml's `cannot decode !!str \`x\` as a !!int`.
 */
export function resolveTagged(tag: string, s: string): GoResolved | undefined {
  const short = tag.startsWith(LONG_PREFIX) ? tag.slice(LONG_PREFIX.length) : tag.startsWith('!!') ? tag.slice(2) : undefined;
  if (short === undefined || !RESOLVABLE.has(short)) return undefined;
  const want = `!!${short}` as GoTag;
  if (want === '!!str') return { tag: '!!str', value: s };
  let got = resolvePlain(s);
  if (got.tag === '!!timestamp' && want !== '!!timestamp') {
    // Timestamps are only tried untagged or as !!timestamp; otherwise the text is a number or a string.
    const plain = s.replace(/_/g, '');
    const i = parseGoInt(plain, false) ?? parseGoInt(plain, true);
    got = i !== undefined ? { tag: '!!int', value: intValue(i) } : { tag: '!!str', value: s };
  }
  if (got.tag === want) return got;
  if (want === '!!float' && got.tag === '!!int') return { tag: '!!float', value: got.value };
  throw new GoDecodeError(`cannot decode ${got.tag} \`${s}\` as a ${want}`);
}

/** A decode failure worded as go-yaml's failf (the caller adds `yaml: `). */
export class GoDecodeError extends Error {
  override readonly name = 'GoDecodeError';
}

/**
 * A resolved map key as sigs.k8s.io/yaml turns it into a JSON object key: strings as they are,
 * integers in decimal, booleans `true`/`false`, floats with strconv.FormatFloat(f, 'g', -1, 32)
 * (`.inf`, `-.inf`, `.nan` for the special values). Undefined for keys it refuses (null, uint64).
 */
export function goKeyString(r: GoResolved): string | undefined {
  const v = r.value;
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v === null) return undefined;
  if (r.tag === '!!int') return Number.isSafeInteger(v) || Math.abs(v) < 2 ** 63 ? BigInt(v).toString() : undefined;
  if (Number.isNaN(v)) return '.nan';
  if (v === Number.POSITIVE_INFINITY) return '.inf';
  if (v === Number.NEGATIVE_INFINITY) return '-.inf';
  return formatFloat32G(v);
}

/** strconv.FormatFloat(f, 'g', -1, 32): the shortest digits that read back as the same float32. */
export function formatFloat32G(f: number): string {
  const f32 = Math.fround(f);
  if (f32 === 0) return Object.is(f32, -0) ? '-0' : '0';
  if (!Number.isFinite(f32)) return f32 > 0 ? '+Inf' : '-Inf';
  let exp = '';
  for (let p = 1; p <= 9; p++) {
    exp = f32.toExponential(p - 1);
    if (Math.fround(Number(exp)) === f32) break;
  }
  const [mant = '', e = '0'] = exp.split('e');
  const neg = mant.startsWith('-');
  const digits = mant.replace(/[-.]/g, '').replace(/0+$/, '') || '0';
  const x = Number(e);
  let out: string;
  if (x < -4 || x >= 6) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    out = `${m}e${x < 0 ? '-' : '+'}${String(Math.abs(x)).padStart(2, '0')}`;
  } else if (x < 0) {
    out = `0.${'0'.repeat(-x - 1)}${digits}`;
  } else if (digits.length <= x + 1) {
    out = digits + '0'.repeat(x + 1 - digits.length);
  } else {
    out = `${digits.slice(0, x + 1)}.${digits.slice(x + 1)}`;
  }
  return neg ? `-${out}` : out;
}
