// Go's strconv.Atoi on a 64-bit platform (strconv's TestAtoi: the int64 cases of atoi64tests),
// with NumError's texts, and the Quote the texts use.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { atoi, atoi64, ERR_RANGE, ERR_SYNTAX, NumError, quote, quoteBytes } from './strconv.js';

const fails = (s: string, err: string, message: string): void =>
  assert.throws(
    () => atoi64(s),
    (e: unknown) => e instanceof NumError && e.func === 'Atoi' && e.num === s && e.err === err && e.message === message,
    s,
  );

describe('atoi64 (strconv.Atoi)', () => {
  it('parses an optional sign and decimal digits, leading zeros included, over all of int64', () => {
    const ok: ReadonlyArray<[string, bigint]> = [
      ['0', 0n],
      ['-0', 0n],
      ['+0', 0n],
      ['1', 1n],
      ['+12', 12n],
      ['-12', -12n],
      ['007', 7n],
      ['-007', -7n],
      ['12345', 12345n],
      ['012345', 12345n],
      ['98765432100', 98765432100n],
      ['9223372036854775807', 9223372036854775807n],
      ['-9223372036854775807', -9223372036854775807n],
      ['-9223372036854775808', -9223372036854775808n],
      // The slow path (19 characters or more) with leading zeros is still in range.
      ['00000000000000000000001', 1n],
    ];
    for (const [s, n] of ok) assert.equal(atoi64(s), n, s);
  });

  it("refuses what Go's Atoi refuses, with Go's NumError text", () => {
    fails('', ERR_SYNTAX, 'strconv.Atoi: parsing "": invalid syntax');
    fails('+', ERR_SYNTAX, 'strconv.Atoi: parsing "+": invalid syntax');
    fails('-', ERR_SYNTAX, 'strconv.Atoi: parsing "-": invalid syntax');
    fails('++1', ERR_SYNTAX, 'strconv.Atoi: parsing "++1": invalid syntax');
    fails('1_000', ERR_SYNTAX, 'strconv.Atoi: parsing "1_000": invalid syntax');
    fails(' 1', ERR_SYNTAX, 'strconv.Atoi: parsing " 1": invalid syntax');
    fails('1 ', ERR_SYNTAX, 'strconv.Atoi: parsing "1 ": invalid syntax');
    fails('0x10', ERR_SYNTAX, 'strconv.Atoi: parsing "0x10": invalid syntax');
    fails('1.5', ERR_SYNTAX, 'strconv.Atoi: parsing "1.5": invalid syntax');
    fails('１', ERR_SYNTAX, 'strconv.Atoi: parsing "１": invalid syntax');
    fails('9223372036854775808', ERR_RANGE, 'strconv.Atoi: parsing "9223372036854775808": value out of range');
    fails('-9223372036854775809', ERR_RANGE, 'strconv.Atoi: parsing "-9223372036854775809": value out of range');
    fails('18446744073709551616', ERR_RANGE, 'strconv.Atoi: parsing "18446744073709551616": value out of range');
    // Go's ParseUint reads left to right: an overflow is reported before a later bad character,
    // and a bad character before the overflow it would have reached.
    fails('99999999999999999999x', ERR_RANGE, 'strconv.Atoi: parsing "99999999999999999999x": value out of range');
    fails('x99999999999999999999', ERR_SYNTAX, 'strconv.Atoi: parsing "x99999999999999999999": invalid syntax');
    fails('922337203685477580x', ERR_SYNTAX, 'strconv.Atoi: parsing "922337203685477580x": invalid syntax');
    // The input is quoted as Go's %q.
    fails('\n\u00a0"', ERR_SYNTAX, 'strconv.Atoi: parsing "\\n\\u00a0\\"": invalid syntax');
  });
});

describe('atoi (as a JS number)', () => {
  it('is atoi64 within 2^53 - 1; beyond, a number would name another value, so out of range', () => {
    assert.equal(atoi('-12'), -12);
    assert.equal(atoi('9007199254740991'), Number.MAX_SAFE_INTEGER);
    assert.equal(atoi('-9007199254740991'), Number.MIN_SAFE_INTEGER);
    assert.throws(() => atoi('9007199254740992'), { message: 'strconv.Atoi: parsing "9007199254740992": value out of range' });
    assert.throws(() => atoi('x'), { message: 'strconv.Atoi: parsing "x": invalid syntax' });
  });
});

describe('quote (strconv.Quote)', () => {
  it('escapes quotes, backslashes and runes that are not printable', () => {
    assert.equal(quote('abc'), '"abc"');
    assert.equal(quote('a"b\\c'), '"a\\"b\\\\c"');
    assert.equal(quote('\x07\t\x00\u200b'), '"\\a\\t\\x00\\u200b"');
    assert.equal(quote('héllo ☺'), '"héllo ☺"');
  });
  it('prints every control byte as Go does: named escapes, else \\xNN; DEL too', () => {
    assert.equal(quote('a\x00b'), '"a\\x00b"');
    assert.equal(quote('a\x01b'), '"a\\x01b"');
    assert.equal(quote('\x07\b\f\n\r\t\v\x1b\x7f'), '"\\a\\b\\f\\n\\r\\t\\v\\x1b\\x7f"');
    // C1 controls, the BOM and non-ASCII spaces are not printable (\u), astral ones \U.
    assert.equal(quote('\u0085\ufeff\u00a0\u{e0001}\u{1f600}'), '"\\u0085\\ufeff\\u00a0\\U000e0001\u{1f600}"');
  });
  it('a lone surrogate is the U+FFFD Go decoded it to, printed as it is', () => {
    assert.equal(quote('a\ud800b'), '"a\ufffdb"');
  });
  it('quoteBytes prints each byte of invalid UTF-8 as \\xNN', () => {
    assert.equal(quoteBytes(Buffer.from([0x61, 0xff, 0xc3, 0xa9, 0xed, 0xa0, 0x80, 0xc3, 0x01])), '"a\\xffé\\xed\\xa0\\x80\\xc3\\x01"');
  });
});
