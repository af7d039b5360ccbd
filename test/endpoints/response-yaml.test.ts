// YAML responses are read by Go clients (sigs.k8s.io/yaml over go-yaml v2, YAML 1.1 rules): a
// string such as `y`, `on` or `0x1F` must come back a string, so it is written quoted, as
// go-yaml's encoder quotes it for kube-apiserver.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'yaml';
import { YAML_SERIALIZER } from '../../runtime/endpoints/negotiation/negotiate.js';
import { encode } from '../../runtime/endpoints/handlers/response.js';

const AMBIGUOUS = ['y', 'n', 'Y', 'yes', 'no', 'on', 'Off', 'true', 'null', '~', '1.0', '012', '0x1F', '1_000', '1:20', '2001-12-14', '.inf', '<<', '1e3'];

test('a YAML response quotes every string YAML 1.1 or go-yaml v2 would read as another type', () => {
  const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { on: 'y' } }, data: Object.fromEntries(AMBIGUOUS.map((s, i) => [`k${i}`, s])) };
  const text = encode(YAML_SERIALIZER, object, false);
  for (const version of ['1.1', '1.2'] as const) assert.deepEqual(parse(text, { version }), object, `read back as YAML ${version}`);
  assert.match(text, /^ {4}"?on"?: "y"$/m);
});

test('number-like strings of a megabyte are encoded in linear time (no backtracking on underscores)', () => {
  // Quadratic before: 80 kB of `-___…1___…x` held the event loop for 3.5 s; a megabyte would
  // hold it for minutes. The bound is generous: linear work takes milliseconds.
  const n = 500_000;
  const hostile = ['-' + '_'.repeat(n) + '1' + '_'.repeat(n) + 'x', '1e' + '_'.repeat(2 * n) + 'x', '1' + '0'.repeat(n) + 'e' + '_'.repeat(n) + 'x'];
  const started = performance.now();
  const text = encode(YAML_SERIALIZER, { data: Object.fromEntries(hostile.map((s, i) => [`k${i}`, s])) }, false);
  assert.ok(performance.now() - started < 20_000, `took ${Math.round(performance.now() - started)} ms`);
  assert.deepEqual(parse(text, { version: '1.1' }), { data: Object.fromEntries(hostile.map((s, i) => [`k${i}`, s])) });
});

test("fieldsV1's member key `.` is written plain, as go-yaml writes it for kube-apiserver", () => {
  // Go, Python and JavaScript readers take `.` for a string (the `yaml` package's 1.1 mode alone
  // follows the 1.1 spec's float pattern to NaN, so the round trip is checked as YAML 1.2).
  const object = { metadata: { managedFields: [{ fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } } }] }, data: { a: '.', b: '-.', c: '.5' } };
  const text = encode(YAML_SERIALIZER, object, false);
  assert.match(text, /^ +\.: \{\}$/m);
  assert.match(text, /^ {2}a: \.$/m);
  assert.match(text, /^ {2}c: "\.5"$/m);
  assert.deepEqual(parse(text, { version: '1.2' }), object);
});
