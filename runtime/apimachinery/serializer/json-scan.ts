/**
 * A JSON syntax checker with the behaviour of Go's encoding/json scanner as
 * kube-apiserver sees it (sigs.k8s.io/json): the same error texts
 * (`invalid character 'x' looking for beginning of value`, `unexpected end of
 * JSON input`), the same nesting limit (10000, `exceeded max depth`), and the
 * duplicate-field paths of the strict decoder (`metadata.name`,
 * `spec.ports[0].name`). It works on the bytes with an explicit stack, so no
 * input can exhaust the call stack; values are then built by JSON.parse.
 */

/** kube's limit (encoding/json maxNestingDepth): 10000 levels parse, 10001 fail. */
export const MAX_NESTING_DEPTH = 10000;

/**
 * The nesting an object body (or a patched object) may have here: deeper
 * values are refused with the scanner's `exceeded max depth`, as kube refuses
 * 10001 levels. Lower than kube's because V8's structuredClone and
 * JSON.stringify recurse on the native stack (they fail near 2000 and 4000
 * levels) and the request pipeline clones and encodes every object; no real
 * object nests anywhere near it. Patch documents keep MAX_NESTING_DEPTH:
 * their own processing is iterative or stack-guarded.
 */
export const MAX_OBJECT_DEPTH = 1000;

/** At most this many strict errors are kept, as sigs.k8s.io/json does. */
const MAX_STRICT_ERRORS = 100;

/** A syntax error worded as Go's json.SyntaxError; `offset` is the byte offset. */
export class JSONSyntaxError extends Error {
  override readonly name = 'JSONSyntaxError';
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

interface Frame {
  readonly isObject: boolean;
  /** The strict-decoder path of this container ('' at the root). */
  readonly path: string;
  readonly keys: Set<string> | undefined;
  /** The key whose value is being scanned (objects). */
  key: string;
  index: number;
}

const enum Next {
  Value,
  AfterValue,
}

/**
 * Checks `buf` is one JSON value and returns the paths of duplicated object
 * keys (deduplicated, first 100). Throws JSONSyntaxError on malformed input
 * or nesting deeper than `maxDepth`.
 */
export function scanJSON(buf: Uint8Array, maxDepth = MAX_NESTING_DEPTH): string[] {
  const s = new Scanner(buf, maxDepth);
  return s.run();
}

/**
 * scanJSON, also returning the first number literal outside float64's range (`1e400`): Go's
 * decoder fails that number where it decodes into interface{} or a float (`json: cannot
 * unmarshal number 1e400 into Go value of type float64`), JSON.parse makes it Infinity.
 */
export function scanJSONBody(buf: Uint8Array, maxDepth = MAX_NESTING_DEPTH): { duplicateFields: string[]; outOfRange: string | undefined; integralFloats: Array<Array<string | number>> } {
  const s = new Scanner(buf, maxDepth);
  const duplicateFields = s.run();
  return { duplicateFields, outOfRange: s.outOfRange, integralFloats: s.integralFloats };
}

/** At most this many integral floats are recorded (a body of nothing else stays cheap). */
const MAX_INTEGRAL_FLOATS = 1000;
const INT64_DIGITS = 19;

class Scanner {
  private pos = 0;
  private readonly stack: Frame[] = [];
  private readonly dups: string[] = [];
  private readonly seenDups = new Set<string>();
  /** The first number literal a float64 cannot hold. */
  outOfRange: string | undefined;
  /**
   * Where numbers Go decodes as float64 although JavaScript has an integer: an integral value
   * written with a fraction or exponent (`1.0`, `1e0`), or an integer beyond int64 (sigs.k8s.io/json
   * keeps int64 only for what ParseInt takes). Each a path of keys and indexes.
   */
  readonly integralFloats: Array<Array<string | number>> = [];

  constructor(
    private readonly buf: Uint8Array,
    private readonly maxDepth: number,
  ) {}

  run(): string[] {
    let next = Next.Value;
    for (;;) {
      this.skipSpace();
      if (next === Next.Value) {
        next = this.value();
        continue;
      }
      const top = this.stack[this.stack.length - 1];
      if (top === undefined) {
        if (this.pos < this.buf.length) this.fail(this.buf[this.pos] ?? 0, 'after top-level value');
        return this.dups;
      }
      if (this.pos >= this.buf.length) this.eof();
      const c = this.buf[this.pos] ?? 0;
      if (c === 0x2c /* , */) {
        this.pos++;
        top.index++;
        if (top.isObject) {
          this.skipSpace();
          this.objectKey(top);
        }
        next = Next.Value;
      } else if (c === (top.isObject ? 0x7d /* } */ : 0x5d) /* ] */) {
        this.pos++;
        this.stack.pop();
      } else {
        this.fail(c, top.isObject ? 'after object key:value pair' : 'after array element');
      }
    }
  }

  /**
   * Scans one value. A non-empty container pushes its frame and returns
   * Next.Value, leaving its first element to the loop: no recursion.
   */
  private value(): Next {
    if (this.pos >= this.buf.length) this.eof();
    const c = this.buf[this.pos] ?? 0;
    switch (c) {
      case 0x7b /* { */:
      case 0x5b /* [ */: {
        if (this.stack.length + 1 > this.maxDepth) this.fail(c, 'exceeded max depth');
        const isObject = c === 0x7b;
        const frame: Frame = { isObject, path: this.childPath(), keys: isObject ? new Set() : undefined, key: '', index: 0 };
        this.pos++;
        this.skipSpace();
        if (this.buf[this.pos] === (isObject ? 0x7d : 0x5d)) {
          this.pos++;
          return Next.AfterValue;
        }
        this.stack.push(frame);
        if (isObject) this.objectKey(frame);
        return Next.Value;
      }
      case 0x22 /* " */:
        this.string();
        return Next.AfterValue;
      case 0x74 /* t */:
        this.literal('true');
        return Next.AfterValue;
      case 0x66 /* f */:
        this.literal('false');
        return Next.AfterValue;
      case 0x6e /* n */:
        this.literal('null');
        return Next.AfterValue;
      default:
        if (c !== 0x2d /* - */ && !isDigit(c)) this.fail(c, 'looking for beginning of value');
        this.number();
        return Next.AfterValue;
    }
  }

  /** Reads `"key"` and `:`, recording a duplicate if the key was seen in this object. */
  private objectKey(frame: Frame): void {
    if (this.pos >= this.buf.length) this.eof();
    const c = this.buf[this.pos] ?? 0;
    if (c !== 0x22) this.fail(c, 'looking for beginning of object key string');
    const start = this.pos;
    const escaped = this.string();
    const key = escaped ? (JSON.parse(Buffer.from(this.buf.subarray(start, this.pos)).toString('utf8')) as string) : Buffer.from(this.buf.subarray(start + 1, this.pos - 1)).toString('utf8');
    if (frame.keys?.has(key)) this.duplicate(frame.path === '' ? key : `${frame.path}.${key}`);
    else frame.keys?.add(key);
    frame.key = key;
    this.skipSpace();
    if (this.pos >= this.buf.length) this.eof();
    const colon = this.buf[this.pos] ?? 0;
    if (colon !== 0x3a) this.fail(colon, 'after object key');
    this.pos++;
  }

  /** The strict-decoder path of the value about to be scanned. */
  private childPath(): string {
    const top = this.stack[this.stack.length - 1];
    if (top === undefined) return '';
    if (!top.isObject) return `${top.path}[${top.index}]`;
    return top.path === '' ? top.key : `${top.path}.${top.key}`;
  }

  private duplicate(path: string): void {
    if (this.dups.length >= MAX_STRICT_ERRORS || this.seenDups.has(path)) return;
    this.seenDups.add(path);
    this.dups.push(path);
  }

  /** Scans a string starting at the opening quote; returns whether it had escapes. */
  private string(): boolean {
    const buf = this.buf;
    let escaped = false;
    this.pos++;
    for (;;) {
      if (this.pos >= buf.length) this.eof();
      const c = buf[this.pos] ?? 0;
      if (c === 0x22) {
        this.pos++;
        return escaped;
      }
      if (c < 0x20) this.fail(c, 'in string literal');
      if (c === 0x5c /* \ */) {
        escaped = true;
        this.pos++;
        if (this.pos >= buf.length) this.eof();
        const e = buf[this.pos] ?? 0;
        if (e === 0x75 /* u */) {
          for (let i = 1; i <= 4; i++) {
            if (this.pos + i >= buf.length) {
              this.pos += i;
              this.eof();
            }
            const h = buf[this.pos + i] ?? 0;
            if (!isHex(h)) {
              this.pos += i;
              this.fail(h, 'in \\u hexadecimal character escape');
            }
          }
          this.pos += 4;
        } else if (!'"\\/bfnrt'.includes(String.fromCharCode(e))) {
          this.fail(e, 'in string escape code');
        }
      }
      this.pos++;
    }
  }

  /** Scans a number; at end of input Go feeds a space, so a cut-off number reports that space. */
  private number(): void {
    const buf = this.buf;
    const at = (): number => (this.pos < buf.length ? (buf[this.pos] ?? 0) : 0x20);
    const start = this.pos;
    if (at() === 0x2d) {
      this.pos++;
      if (!isDigit(at())) this.fail(at(), 'in numeric literal');
    }
    if (at() === 0x30) this.pos++;
    else while (isDigit(at())) this.pos++;
    let float = false;
    if (at() === 0x2e /* . */) {
      this.pos++;
      if (!isDigit(at())) this.fail(at(), 'after decimal point in numeric literal');
      while (isDigit(at())) this.pos++;
      float = true;
    }
    if (at() === 0x65 || at() === 0x45) {
      this.pos++;
      if (at() === 0x2b || at() === 0x2d) this.pos++;
      if (!isDigit(at())) this.fail(at(), 'in exponent of numeric literal');
      while (isDigit(at())) this.pos++;
      this.checkRange(start);
      float = true;
    } else if (this.pos - start > 308) {
      this.checkRange(start);
    }
    if (float || this.pos - start >= INT64_DIGITS) this.checkIntegral(start, float);
  }

  /** Records the literal's path when Go reads it as a float64 JavaScript cannot tell from an integer. */
  private checkIntegral(start: number, float: boolean): void {
    if (this.integralFloats.length >= MAX_INTEGRAL_FLOATS) return;
    const literal = Buffer.from(this.buf.buffer, this.buf.byteOffset + start, this.pos - start).toString('latin1');
    if (float) {
      if (!Number.isInteger(Number(literal))) return;
    } else {
      const v = BigInt(literal);
      if (v >= -(2n ** 63n) && v < 2n ** 63n) return;
    }
    this.integralFloats.push(this.stack.map((f) => (f.isObject ? f.key : f.index)));
  }

  /** Only literals with an exponent or over 308 characters can overflow a float64. */
  private checkRange(start: number): void {
    if (this.outOfRange !== undefined) return;
    const literal = Buffer.from(this.buf.buffer, this.buf.byteOffset + start, this.pos - start).toString('latin1');
    if (!Number.isFinite(Number(literal))) this.outOfRange = literal;
  }

  private literal(word: 'true' | 'false' | 'null'): void {
    for (let i = 1; i < word.length; i++) {
      const c = this.pos + i < this.buf.length ? (this.buf[this.pos + i] ?? 0) : 0x20;
      if (c !== word.charCodeAt(i)) {
        this.pos += i;
        this.fail(c, `in literal ${word} (expecting ${quoteChar(word.charCodeAt(i))})`);
      }
    }
    this.pos += word.length;
  }

  private skipSpace(): void {
    const buf = this.buf;
    while (this.pos < buf.length) {
      const c = buf[this.pos];
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return;
      this.pos++;
    }
  }

  private eof(): never {
    throw new JSONSyntaxError('unexpected end of JSON input', this.buf.length);
  }

  private fail(c: number, context: string): never {
    throw new JSONSyntaxError(`invalid character ${quoteChar(c)} ${context}`, this.pos);
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/** Go's quoteChar: a byte as a single-quoted Go rune literal (bytes ≥ 0x80 read as Latin-1). */
export function quoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return `'"'`;
  const named: Record<number, string> = { 0x07: '\\a', 0x08: '\\b', 0x0c: '\\f', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t', 0x0b: '\\v', 0x5c: '\\\\' };
  const n = named[c];
  if (n !== undefined) return `'${n}'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  if ((c >= 0x80 && c <= 0xa0) || c === 0xad) return `'\\u${c.toString(16).padStart(4, '0')}'`;
  return `'${String.fromCharCode(c)}'`;
}
