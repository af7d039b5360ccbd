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
