import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newAlreadyExists, newConflict, newForbidden, newGenericServerResponse, newInvalid, newMethodNotSupported, newNotFound } from './catalog.js';

const gr = { group: 'widgets.example.org', resource: 'gadgets' };

test("names are quoted as Go's %q (strconv.Quote), not as JSON", () => {
  const name = 'a\x00b\x01\x7f\t"é\u{1F600}';
  const q = '"a\\x00b\\x01\\x7f\\t\\"é\u{1F600}"';
  assert.equal(newNotFound(gr, name).status.message, `gadgets.widgets.example.org ${q} not found`);
  assert.equal(newAlreadyExists(gr, name).status.message, `gadgets.widgets.example.org ${q} already exists`);
  assert.equal(newConflict(gr, name, 'x').status.message, `Operation cannot be fulfilled on gadgets.widgets.example.org ${q}: x`);
  assert.equal(newForbidden(gr, name, 'no').status.message, `gadgets.widgets.example.org ${q} is forbidden: no`);
  assert.equal(newInvalid({ group: 'widgets.example.org', kind: 'Gadget' }, name, []).status.message, `Gadget.widgets.example.org ${q} is invalid`);
  assert.equal(newMethodNotSupported(gr, 'create').status.message, 'create is not supported on resources of kind "gadgets.widgets.example.org"');
  assert.equal(newGenericServerResponse(502, 'bad\ngateway').status.message, 'an error on the server ("bad\\ngateway") has prevented the request from succeeding');
});

test('an Invalid without field errors says only "is invalid" and has no causes (NewInvalid with an empty list)', () => {
  const e = newInvalid({ group: 'widgets.example.org', kind: 'Gadget' }, 'x', []);
  assert.equal(e.status.message, 'Gadget.widgets.example.org "x" is invalid');
  assert.deepEqual(e.status.details, { name: 'x', group: 'widgets.example.org', kind: 'Gadget' });
});
