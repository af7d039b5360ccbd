import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { asFloat, asInt64, ERR_FORMAT_WRONG, ERR_NUMERIC, ERR_SUFFIX, parseQuantity } from '../../runtime/apimachinery/cel/library/quantity-parse.js';

const NANO = 1_000_000_000n;

describe('resource.ParseQuantity', () => {
  const values: ReadonlyArray<readonly [string, bigint]> = [
    ['0', 0n],
    ['1', NANO],
    ['-1', -NANO],
    ['+12', 12n * NANO],
    ['1.5', 1_500_000_000n],
    ['.5', 500_000_000n],
    ['5.', 5n * NANO],
    ['100m', 100_000_000n],
    ['1n', 1n],
    ['1u', 1000n],
    ['2k', 2000n * NANO],
    ['3M', 3_000_000n * NANO],
    ['1G', 1_000_000_000n * NANO],
    ['1E', 10n ** 18n * NANO],
    ['1Ki', 1024n * NANO],
    ['1.5Gi', 1_610_612_736n * NANO],
    ['12Mi', 12n * 1024n * 1024n * NANO],
    ['1e3', 1000n * NANO],
    ['1E-3', 1_000_000n],
    ['5e+2', 500n * NANO],
    // Below a nano-unit rounds up, away from zero.
    ['0.1n', 1n],
    ['-0.1n', -1n],
    ['1e-20', 1n],
    ['0.0000000001', 1n],
    // No digits is zero, as Go's parser has it.
    ['Mi', 0n],
    ['.', 0n],
    ['-', 0n],
    // Binary-SI values are capped at the int64 maximum.
    ['9999999999Ei', 9223372036854775807n * NANO],
  ];
  for (const [s, want] of values) test(`${JSON.stringify(s)} is ${want}n`, () => assert.equal(parseQuantity(s), want));

  const errors: ReadonlyArray<readonly [string, string]> = [
    ['', ERR_FORMAT_WRONG],
    ['10Mo', ERR_FORMAT_WRONG],
    ['1.2.3', ERR_FORMAT_WRONG],
    [' 1', ERR_FORMAT_WRONG],
    ['1,3G', ERR_FORMAT_WRONG],
    ['200K', ERR_SUFFIX],
    ['10Mm', ERR_SUFFIX],
    ['5e', ERR_SUFFIX],
    ['1ki', ERR_SUFFIX],
    ['1e99999', ERR_NUMERIC],
  ];
  for (const [s, want] of errors) test(`${JSON.stringify(s)} is refused`, () => assert.throws(() => parseQuantity(s), { message: want }));

  test('AsInt64 and AsApproximateFloat64', () => {
    assert.equal(asInt64(parseQuantity('50k')), 50000n);
    assert.equal(asInt64(parseQuantity('1.5')), undefined);
    assert.equal(asInt64(parseQuantity('9999999999999999999999999999999999999G')), undefined);
    assert.equal(asInt64(parseQuantity('9223372036854775807')), 9223372036854775807n);
    assert.equal(asFloat(parseQuantity('50.703k')), 50703);
    assert.equal(asFloat(parseQuantity('-2.5m')), -0.0025);
  });
});
