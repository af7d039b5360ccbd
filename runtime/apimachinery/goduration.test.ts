// Ports the cases of Go's time.TestParseDuration (and TestParseDurationErrors) that kube's durations meet.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseGoDuration } from './goduration.js';

describe('parseGoDuration', () => {
  const ok: ReadonlyArray<[string, number]> = [
    ['0', 0],
    ['32s', 32_000],
    ['1m30s', 90_000],
    ['1.5h', 5_400_000],
    ['500ms', 500],
    ['-2s', -2_000],
    ['+5s', 5_000],
    ['1h2m3s4ms', 3_723_004],
    ['100us', 0.1],
    ['100µs', 0.1],
    ['2000ns', 0.002],
    ['.5s', 500],
    ['1.s', 1_000],
  ];
  for (const [input, ms] of ok) {
    it(`parses ${input}`, () => assert.ok(Math.abs(parseGoDuration(input) - ms) < 1e-9, `${parseGoDuration(input)} != ${ms}`));
  }

  const bad: ReadonlyArray<[string, string]> = [
    ['', 'time: invalid duration ""'],
    ['s', 'time: invalid duration "s"'],
    ['.s', 'time: invalid duration ".s"'],
    ['-', 'time: invalid duration "-"'],
    ['1', 'time: missing unit in duration "1"'],
    ['1m30', 'time: missing unit in duration "1m30"'],
    ['3d', 'time: unknown unit "d" in duration "3d"'],
    ['5 s', 'time: unknown unit " s" in duration "5 s"'],
    ['9999999999h', 'time: invalid duration "9999999999h"'],
  ];
  for (const [input, message] of bad) {
    it(`rejects ${JSON.stringify(input)}`, () => assert.throws(() => parseGoDuration(input), { message }));
  }
});
