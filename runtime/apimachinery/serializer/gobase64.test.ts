import assert from 'node:assert/strict';
import { test } from 'node:test';
import { goStdBase64Error } from './gobase64.js';

test("Go's TestDecodeCorrupt (StdEncoding): the byte offset of the corruption, or none", () => {
  const cases: [string, number][] = [
    ['', -1],
    ['\n', -1],
    ['AAA=\n', -1],
    ['AAAA\n', -1],
    ['!!!!', 0],
    ['====', 0],
    ['x===', 1],
    ['=AAA', 0],
    ['A=AA', 1],
    ['AA=A', 2],
    ['AA==A', 4],
    ['AAA=AAAA', 4],
    ['AAAAA', 4],
    ['AAAAAA', 4],
    ['A=', 1],
    ['A==', 1],
    ['AA=', 3],
    ['AA==', -1],
    ['AAA=', -1],
    ['AAAA', -1],
    ['AAAAAA=', 7],
    ['YWJjZA=====', 8],
    ['A!\n', 1],
    ['A=\n', 1],
  ];
  for (const [input, offset] of cases) {
    assert.equal(goStdBase64Error(input), offset < 0 ? undefined : `illegal base64 data at input byte ${offset}`, JSON.stringify(input));
  }
});

test('offsets count bytes of the UTF-8 string; the URL alphabet is not the standard one', () => {
  assert.equal(goStdBase64Error('YQ==é'), 'illegal base64 data at input byte 4');
  assert.equal(goStdBase64Error('éYQ=='), 'illegal base64 data at input byte 0');
  assert.equal(goStdBase64Error('a-b_'), 'illegal base64 data at input byte 1');
  assert.equal(goStdBase64Error('a+b/'), undefined);
});
