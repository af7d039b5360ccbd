/** sigs.k8s.io/structured-merge-diff fieldpath/fromvalue_test.go. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { keyByFields, setFromValue, type Set } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { _NS, _P } from './helpers.js';

describe('TestFromValue', () => {
  const table: Array<{ objYAML: string; set: Set }> = [
    { objYAML: 'a: a', set: _NS(_P('a')) },
    { objYAML: '{"a": [{"a": null}]}', set: _NS(_P('a', 0, 'a')) },
    { objYAML: '{"a": [{"id": a}]}', set: _NS(_P('a', keyByFields('id', 'a'), 'id')) },
    { objYAML: '{"a": [{"name": a}]}', set: _NS(_P('a', keyByFields('name', 'a'), 'name')) },
    { objYAML: '{"a": [{"key": a}]}', set: _NS(_P('a', keyByFields('key', 'a'), 'key')) },
    {
      objYAML: '{"a": [{"name": "a", "key": "b"}]}',
      set: _NS(_P('a', keyByFields('key', 'b', 'name', 'a'), 'key'), _P('a', keyByFields('key', 'b', 'name', 'a'), 'name')),
    },
    { objYAML: '{"a": [5]}', set: _NS(_P('a', 0)) },
    { objYAML: '{"a": [5,4,3]}', set: _NS(_P('a', 0), _P('a', 1), _P('a', 2)) },
    { objYAML: '{"a": [[5]]}', set: _NS(_P('a', 0, 0)) },
    { objYAML: '{"a": 1, "b": true, "c": 1.5, "d": null}', set: _NS(_P('a'), _P('b'), _P('c'), _P('d')) },
  ];
  for (const tt of table) {
    test(tt.objYAML, () => {
      const got = setFromValue(parse(tt.objYAML));
      assert.ok(got.equals(tt.set), `wanted\n${tt.set.toString()}\nbut got\n${got.toString()}`);
    });
  }
});

describe('SetFromValue on hostile input', () => {
  test('__proto__ and constructor are field names, a key candidate is an own field only', () => {
    const got = setFromValue(JSON.parse('{"__proto__":{"constructor":1},"l":[{"x":1}]}'));
    assert.ok(got.equals(_NS(_P('__proto__', 'constructor'), _P('l', 0, 'x'))), got.toString());
  });
  test('a value nested deeper than the call stack is walked', () => {
    let v: unknown = 1;
    for (let i = 0; i < 20_000; i++) v = { a: v };
    assert.equal(setFromValue(v).size(), 1);
  });
});
