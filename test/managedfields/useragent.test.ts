// managerOrUserAgent/prefixFromUserAgent of k8s.io/apiserver's handlers (create.go).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { managerOrUserAgent, prefixFromUserAgent } from '../../runtime/apimachinery/managedfields/index.js';

test('the fieldManager option wins over the User-Agent', () => {
  assert.equal(managerOrUserAgent('mine', 'kubectl/v1.32.0 (linux/amd64) kubernetes/abc'), 'mine');
  assert.equal(managerOrUserAgent('', 'kubectl/v1.32.0 (linux/amd64) kubernetes/abc'), 'kubectl');
  assert.equal(managerOrUserAgent('', ''), '');
});

test('prefixFromUserAgent drops unprintable characters and stops within 128 bytes', () => {
  assert.equal(prefixFromUserAgent('ku\u0000be\tctl/1'), 'kubectl');
  assert.equal(prefixFromUserAgent('a'.repeat(200)), 'a'.repeat(128));
  // A two-byte character that would end past byte 128 is left out entirely.
  assert.equal(prefixFromUserAgent(`${'a'.repeat(127)}é`), 'a'.repeat(127));
  assert.equal(prefixFromUserAgent('no-slash at all'), 'no-slash at all');
});
