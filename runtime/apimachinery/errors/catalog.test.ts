import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newAlreadyExists, newConflict, newForbidden, newGenericServerResponse, newInvalid, newMethodNotSupported, newNotFound } from './catalog.js';

const gr = { group: 'stable.example.com', resource: 'crontabs' };

test("names are quoted as Go's %q (strconv.Quote), not as JSON", () => {
  const name = 'a\x00b\x01\x7f\t"é\u{1F600}';
  const q = '"a\\x00b\\x01\\x7f\\t\\"é\u{1F600}"';
  assert.equal(newNotFound(gr, name).status.message, `crontabs.stable.example.com ${q} not found`);
  assert.equal(newAlreadyExists(gr, name).status.message, `crontabs.stable.example.com ${q} already exists`);
  assert.equal(newConflict(gr, name, 'x').status.message, `Operation cannot be fulfilled on crontabs.stable.example.com ${q}: x`);
  assert.equal(newForbidden(gr, name, 'no').status.message, `crontabs.stable.example.com ${q} is forbidden: no`);
  assert.equal(newInvalid({ group: 'stable.example.com', kind: 'CronTab' }, name, []).status.message, `CronTab.stable.example.com ${q} is invalid`);
  assert.equal(newMethodNotSupported(gr, 'create').status.message, 'create is not supported on resources of kind "crontabs.stable.example.com"');
  assert.equal(newGenericServerResponse(502, 'bad\ngateway').status.message, 'an error on the server ("bad\\ngateway") has prevented the request from succeeding');
});

test('an Invalid without field errors says only "is invalid" and has no causes (NewInvalid with an empty list)', () => {
  const e = newInvalid({ group: 'stable.example.com', kind: 'CronTab' }, 'x', []);
  assert.equal(e.status.message, 'CronTab.stable.example.com "x" is invalid');
  assert.deepEqual(e.status.details, { name: 'x', group: 'stable.example.com', kind: 'CronTab' });
});
