// Port of structured-merge-diff typed/deduced_test.go: the deduced type, for objects without a schema.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Set } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { deducedParseableType as pt } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import { valueEquals, valueToString } from '../../../runtime/apimachinery/structuredmerge/value/index.js';
import { _NS, _P } from '../fixture/index.js';
import type { SymdiffQuint } from './symdiff.js';

describe('TestValidateDeducedType', () => {
  const tests = [`{"a": null}`, `{"a": ["a", "b"]}`, `{"a": {"b": [], "c": 2, "d": {"f": "string"}}}`];
  tests.forEach((object, i) => {
    test(`test ${i}`, () => {
      pt.fromYAML(object).validate();
    });
  });
});

describe('TestMergeDeduced', () => {
  const triplets: ReadonlyArray<readonly [lhs: string, rhs: string, out: string]> = [
    [`{"key":"foo","value":{}}`, `{"key":"foo","value":1}`, `{"key":"foo","value":1}`],
    [`{"key":"foo","value":1}`, `{"key":"foo","value":{}}`, `{"key":"foo","value":{}}`],
    [`{"key":"foo","value":null}`, `{"key":"foo","value":{}}`, `{"key":"foo","value":{}}`],
    [`{"key":"foo"}`, `{"value":true}`, `{"key":"foo","value":true}`],
    [`{}`, `{"inner":{}}`, `{"inner":{}}`],
    [`{}`, `{"inner":null}`, `{"inner":null}`],
    [`{"inner":null}`, `{"inner":{}}`, `{"inner":{}}`],
    [`{"inner":{}}`, `{"inner":null}`, `{"inner":null}`],
    [`{"inner":{}}`, `{"inner":{}}`, `{"inner":{}}`],
    [`{}`, `{"inner":{}}`, `{"inner":{}}`],
    [`{"inner":null}`, `{"inner":{}}`, `{"inner":{}}`],
    [`{"inner":{}}`, `{"inner":null}`, `{"inner":null}`],
    [`{}`, `{"inner":[]}`, `{"inner":[]}`],
    [`{"inner":null}`, `{"inner":[]}`, `{"inner":[]}`],
    [`{"inner":[]}`, `{"inner":null}`, `{"inner":null}`],
    [`{"inner":[]}`, `{"inner":[]}`, `{"inner":[]}`],
    [`{"numeric":1}`, `{"numeric":3.14159}`, `{"numeric":3.14159}`],
    [`{"numeric":3.14159}`, `{"numeric":1}`, `{"numeric":1}`],
    [`{"string":"aoeu"}`, `{"bool":true}`, `{"string":"aoeu","bool":true}`],
    [`{"atomic":["a","b","c"]}`, `{"atomic":["a","b"]}`, `{"atomic":["a","b"]}`],
    [`{"atomic":["a","b"]}`, `{"atomic":["a","b","c"]}`, `{"atomic":["a","b","c"]}`],
    [`{"atomic":["a","b","c"]}`, `{"atomic":[]}`, `{"atomic":[]}`],
    [`{"atomic":[]}`, `{"atomic":["a","b","c"]}`, `{"atomic":["a","b","c"]}`],
    [`{"":[true]}`, `{"setBool":[false]}`, `{"":[true],"setBool":[false]}`],
    [`{"atomic":[1,2,3.14159]}`, `{"atomic":[1,2,3]}`, `{"atomic":[1,2,3]}`],
    [`{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}`, `{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}`, `{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}`],
    [`{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}`, `{"list":[{"key":"a","id":2,"value":{"a":"a"}}]}`, `{"list":[{"key":"a","id":2,"value":{"a":"a"}}]}`],
    [`{"list":[{"key":"a","id":1},{"key":"b","id":1}]}`, `{"list":[{"key":"a","id":1},{"key":"a","id":2}]}`, `{"list":[{"key":"a","id":1},{"key":"a","id":2}]}`],
    [`{"atomicList":["a","a","a"]}`, `{"atomicList":null}`, `{"atomicList":null}`],
    [`{"atomicList":["a","b","c"]}`, `{"atomicList":[]}`, `{"atomicList":[]}`],
    [`{"atomicList":["a","a","a"]}`, `{"atomicList":["a","a"]}`, `{"atomicList":["a","a"]}`],
    [`{"a":1,"b":[null],"c":{"id":2,"list":["value"]}}`, `{"a":2,"b":["value"],"c":{"name":"my_name"}}`, `{"a":2,"b":["value"],"c":{"id":2,"list":["value"],"name":"my_name"}}`],
  ];
  triplets.forEach(([lhsYAML, rhsYAML, outYAML], i) => {
    test(`triplet-${i}`, () => {
      const got = pt.fromYAML(lhsYAML).merge(pt.fromYAML(rhsYAML)).value;
      const want = pt.fromYAML(outYAML).value;
      assert.ok(valueEquals(got, want), `Expected\n${valueToString(want)}\nbut got\n${valueToString(got)}`);
    });
  });
});

describe('TestToSetDeduced', () => {
  const tests: ReadonlyArray<readonly [object: string, set: Set]> = [
    [`{"key":"foo","value":1}`, _NS(_P('key'), _P('value'))],
    [`{"key":"foo","value":{"a": "b"}}`, _NS(_P('key'), _P('value'), _P('value', 'a'))],
    [`{"key":"foo","value":null}`, _NS(_P('key'), _P('value'))],
    [`{"key":"foo"}`, _NS(_P('key'))],
    [`{"key":"foo","value":true}`, _NS(_P('key'), _P('value'))],
    [`{"numeric":1}`, _NS(_P('numeric'))],
    [`{"numeric":3.14159}`, _NS(_P('numeric'))],
    [`{"string":"aoeu"}`, _NS(_P('string'))],
    [`{"bool":true}`, _NS(_P('bool'))],
    [`{"bool":false}`, _NS(_P('bool'))],
    [`{"list":["a","b","c"]}`, _NS(_P('list'))],
    [`{"color":{}}`, _NS(_P('color'))],
    [`{"color":null}`, _NS(_P('color'))],
    [`{"color":{"R":255,"G":0,"B":0}}`, _NS(_P('color'), _P('color', 'R'), _P('color', 'G'), _P('color', 'B'))],
    [`{"arbitraryWavelengthColor":null}`, _NS(_P('arbitraryWavelengthColor'))],
    [`{"arbitraryWavelengthColor":{"IR":255}}`, _NS(_P('arbitraryWavelengthColor'), _P('arbitraryWavelengthColor', 'IR'))],
    [`{"args":[]}`, _NS(_P('args'))],
    [`{"args":null}`, _NS(_P('args'))],
    [`{"args":[null]}`, _NS(_P('args'))],
    [`{"args":[{"key":"a","value":"b"},{"key":"c","value":"d"}]}`, _NS(_P('args'))],
    [`{"atomicList":["a","a","a"]}`, _NS(_P('atomicList'))],
  ];
  tests.forEach(([object, want], i) => {
    test(`${i}`, () => {
      const fs = pt.fromYAML(object).toFieldSet();
      assert.ok(fs.equals(want), `wanted\n${want.toString()}\ngot\n${fs.toString()}`);
    });
  });
});

describe('TestSymdiffDeduced', () => {
  const quints: readonly SymdiffQuint[] = [
    {
      lhs: `{"key":"foo","value":1}`,
      rhs: `{"key":"foo","value":1}`,
      removed: _NS(),
      modified: _NS(),
      added: _NS(),
    },
    {
      lhs: `{"key":"foo","value":{}}`,
      rhs: `{"key":"foo","value":1}`,
      removed: _NS(),
      modified: _NS(_P('value')),
      added: _NS(),
    },
    {
      lhs: `{"key":"foo","value":1}`,
      rhs: `{"key":"foo","value":{}}`,
      removed: _NS(),
      modified: _NS(_P('value')),
      added: _NS(),
    },
    {
      lhs: `{"key":"foo","value":1}`,
      rhs: `{"key":"foo","value":{"deep":{"nested":1}}}`,
      removed: _NS(),
      modified: _NS(_P('value')),
      added: _NS(_P('value', 'deep'), _P('value', 'deep', 'nested')),
    },
    {
      lhs: `{"key":"foo","value":null}`,
      rhs: `{"key":"foo","value":{}}`,
      removed: _NS(),
      modified: _NS(_P('value')),
      added: _NS(),
    },
    {
      lhs: `{"key":"foo"}`,
      rhs: `{"value":true}`,
      removed: _NS(_P('key')),
      modified: _NS(),
      added: _NS(_P('value')),
    },
    {
      lhs: `{"key":"foot"}`,
      rhs: `{"key":"foo","value":true}`,
      removed: _NS(),
      modified: _NS(_P('key')),
      added: _NS(_P('value')),
    },
    {
      lhs: `{}`,
      rhs: `{"inner":{}}`,
      removed: _NS(),
      modified: _NS(),
      added: _NS(_P('inner')),
    },
    {
      lhs: `{}`,
      rhs: `{"inner":null}`,
      removed: _NS(),
      modified: _NS(),
      added: _NS(_P('inner')),
    },
    {
      lhs: `{"inner":null}`,
      rhs: `{"inner":{}}`,
      removed: _NS(),
      modified: _NS(_P('inner')),
      added: _NS(),
    },
    {
      lhs: `{"inner":{}}`,
      rhs: `{"inner":null}`,
      removed: _NS(),
      modified: _NS(_P('inner')),
      added: _NS(),
    },
    {
      lhs: `{"inner":{}}`,
      rhs: `{"inner":{}}`,
      removed: _NS(),
      modified: _NS(),
      added: _NS(),
    },
    {
      lhs: `{}`,
      rhs: `{"inner":[]}`,
      removed: _NS(),
      modified: _NS(),
      added: _NS(_P('inner')),
    },
    {
      lhs: `{}`,
      rhs: `{"inner":null}`,
      removed: _NS(),
      modified: _NS(),
      added: _NS(_P('inner')),
    },
    {
      lhs: `{"inner":null}`,
      rhs: `{"inner":[]}`,
      removed: _NS(),
      modified: _NS(_P('inner')),
      added: _NS(),
    },
    {
      lhs: `{"inner":[]}`,
      rhs: `{"inner":null}`,
      removed: _NS(),
      modified: _NS(_P('inner')),
      added: _NS(),
    },
    {
      lhs: `{"inner":[]}`,
      rhs: `{"inner":[]}`,
      removed: _NS(),
      modified: _NS(),
      added: _NS(),
    },
    {
      lhs: `{"a":{},"b":{}}`,
      rhs: `{"a":{},"b":{}}`,
      removed: _NS(),
      modified: _NS(),
      added: _NS(),
    },
    {
      lhs: `{"a":{}}`,
      rhs: `{"b":{}}`,
      removed: _NS(_P('a')),
      modified: _NS(),
      added: _NS(_P('b')),
    },
    {
      lhs: `{"a":{"b":{"c":{}}}}`,
      rhs: `{"a":{"b":{}}}`,
      removed: _NS(_P('a', 'b', 'c')),
      modified: _NS(),
      added: _NS(),
    },
    {
      lhs: `{"a":{"b":{"c":[true]}}}`,
      rhs: `{"a":{"b":[false]}}`,
      removed: _NS(_P('a', 'b', 'c')),
      modified: _NS(_P('a', 'b')),
      added: _NS(),
    },
    {
      lhs: `{"a":{}}`,
      rhs: `{"a":{"b":"true"}}`,
      removed: _NS(),
      modified: _NS(),
      added: _NS(_P('a', 'b')),
    },
    {
      lhs: `{"numeric":1}`,
      rhs: `{"numeric":3.14159}`,
      removed: _NS(),
      modified: _NS(_P('numeric')),
      added: _NS(),
    },
    {
      lhs: `{"numeric":3.14159}`,
      rhs: `{"numeric":1}`,
      removed: _NS(),
      modified: _NS(_P('numeric')),
      added: _NS(),
    },
    {
      lhs: `{"string":"aoeu"}`,
      rhs: `{"bool":true}`,
      removed: _NS(_P('string')),
      modified: _NS(),
      added: _NS(_P('bool')),
    },
    {
      lhs: `{"list":["a","b"]}`,
      rhs: `{"list":["a","b","c"]}`,
      removed: _NS(),
      modified: _NS(_P('list')),
      added: _NS(),
    },
    {
      lhs: `{}`,
      rhs: `{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}`,
      removed: _NS(),
      modified: _NS(),
      added: _NS(_P('list')),
    },
    {
      lhs: `{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}`,
      rhs: `{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}`,
      removed: _NS(),
      modified: _NS(),
      added: _NS(),
    },
    {
      lhs: `{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}`,
      rhs: `{"list":[{"key":"a","id":1,"value":{"a":"b"}}]}`,
      removed: _NS(),
      modified: _NS(_P('list')),
      added: _NS(),
    },
    {
      lhs: `{"atomicList":["a","a","a"]}`,
      rhs: `{"atomicList":null}`,
      removed: _NS(),
      modified: _NS(_P('atomicList')),
      added: _NS(),
    },
    {
      lhs: `{"atomicList":["a","a","a"]}`,
      rhs: `{"atomicList":["a","a"]}`,
      removed: _NS(),
      modified: _NS(_P('atomicList')),
      added: _NS(),
    },
  ];
  quints.forEach((quint, i) => {
    test(`${i}`, () => {
      const lhs = pt.fromYAML(quint.lhs);
      const rhs = pt.fromYAML(quint.rhs);
      const got = lhs.compare(rhs);
      assert.ok(got.added.equals(quint.added), `expected added:\n${quint.added.toString()}\ngot:\n${got.added.toString()}`);
      assert.ok(got.modified.equals(quint.modified), `expected modified:\n${quint.modified.toString()}\ngot:\n${got.modified.toString()}`);
      assert.ok(got.removed.equals(quint.removed), `expected removed:\n${quint.removed.toString()}\ngot:\n${got.removed.toString()}`);
      const reverse = rhs.compare(lhs);
      assert.ok(reverse.modified.equals(got.modified) && reverse.removed.equals(got.added) && reverse.added.equals(got.removed), 'the reverse comparison swaps added and removed');
    });
  });
});
