import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sliceStringToBool } from './querybool.js';

test('only 0 and false (any case, as strings.EqualFold) are false; the first value counts', () => {
  for (const v of ['0', 'false', 'FALSE', 'False', 'fAlSe', 'falſe']) assert.equal(sliceStringToBool([v]), false, v);
  for (const v of ['', '1', 'true', 'no', 'n', 'f', 'off', 'bogus', ' false', 'false ', '00', 'ﬂase']) assert.equal(sliceStringToBool([v]), true, v);
  assert.equal(sliceStringToBool(['false', 'true']), false);
  assert.equal(sliceStringToBool(['true', 'false']), true);
  assert.equal(sliceStringToBool([]), undefined);
});
