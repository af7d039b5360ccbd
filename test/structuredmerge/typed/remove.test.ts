// Port of structured-merge-diff typed/remove_test.go (TestRemove): removing and extracting a field set.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Set } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { Parser } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import { valueEquals, valueToString } from '../../../runtime/apimachinery/structuredmerge/value/index.js';
import { _KBF, _NS, _P, _V } from '../fixture/index.js';
import { associativeAndAtomicSchema, nestedTypesSchema, simplePairSchema, structGrabBagSchema } from './schemas.js';

interface RemoveTestCase {
  readonly name: string;
  readonly rootTypeName: string;
  readonly schema: string;
  // An output of `unparseable` is not checked.
  readonly quadruplets: ReadonlyArray<readonly [object: string, set: Set, removeOutput: string, extractOutput: string]>;
}

const removeCases: RemoveTestCase[] = [
  {
    name: 'simple pair',
    rootTypeName: 'stringPair',
    schema: simplePairSchema,
    quadruplets: [
      [`{"key":"foo"}`, _NS(_P('key')), ``, `{"key":"foo"}`],
      [`{"key":"foo"}`, _NS(), `{"key":"foo"}`, ``],
      [`{"key":"foo","value":true}`, _NS(_P('key')), `{"value":true}`, `{"key":"foo"}`],
      [`{"key":"foo","value":{"a": "b"}}`, _NS(_P('value')), `{"key":"foo"}`, `{"value":{"a": "b"}}`],
    ],
  },
  {
    name: 'struct grab bag',
    rootTypeName: 'myStruct',
    schema: structGrabBagSchema,
    quadruplets: [
      [`{"setBool":[false]}`, _NS(_P('setBool', _V(false))), `{"setBool":null}`, `{"setBool":[false]}`],
      [`{"setBool":[false]}`, _NS(_P('setBool', _V(true))), `{"setBool":[false]}`, `{"setBool":null}`],
      [`{"setBool":[true,false]}`, _NS(_P('setBool', _V(true))), `{"setBool":[false]}`, `{"setBool":[true]}`],
      [`{"setBool":[true,false]}`, _NS(_P('setBool')), ``, `{"setBool":null}`],
      [`{"setNumeric":[1,2,3,4.5]}`, _NS(_P('setNumeric', _V(1)), _P('setNumeric', _V(4.5))), `{"setNumeric":[2,3]}`, `{"setNumeric":[1,4.5]}`],
      [`{"setStr":["a","b","c"]}`, _NS(_P('setStr', _V('a'))), `{"setStr":["b","c"]}`, `{"setStr":["a"]}`],
    ],
  },
  {
    name: 'associative and atomic',
    rootTypeName: 'myRoot',
    schema: associativeAndAtomicSchema,
    quadruplets: [
      [
        `{"list":[{"key":"a","id":1},{"key":"a","id":2},{"key":"b","id":1}]}`,
        _NS(_P('list', _KBF('key', 'a', 'id', 1), 'key'), _P('list', _KBF('key', 'a', 'id', 1), 'id')),
        `unparseable`,
        `{"list":[{"key":"a","id":1}]}`,
      ],
      [`{"list":[{"key":"a","id":1},{"key":"a","id":2},{"key":"b","id":1}]}`, _NS(_P('list', _KBF('key', 'a', 'id', 1))), `{"list":[{"key":"a","id":2},{"key":"b","id":1}]}`, `unparseable`],
      [`{"atomicList":["a", "a", "a"]}`, _NS(_P('atomicList')), ``, `{"atomicList":["a", "a", "a"]}`],
      [`{"atomicMap":{"a": "c", "b": "d"}}`, _NS(_P('atomicMap')), ``, `{"atomicMap":{"a": "c", "b": "d"}}`],
    ],
  },
  {
    name: 'nested types',
    rootTypeName: 'type',
    schema: nestedTypesSchema,
    quadruplets: [
      [
        `{"listOfLists": [{"name": "a", "value": ["b", "c"]}, {"name": "d"}]}`,
        _NS(
          _P('listOfLists', _KBF('name', 'a'), 'name'),
          _P('listOfLists', _KBF('name', 'a'), 'value', _V('b')),
          _P('listOfLists', _KBF('name', 'a'), 'value', _V('c')),
          _P('listOfLists', _KBF('name', 'd'), 'name'),
        ),
        `unparseable`,
        `{"listOfLists": [{"name": "a", "value": ["b", "c"]}, {"name": "d"}]}`,
      ],
      [`{"listOfLists": [{"name": "a", "value": ["b", "c"]}, {"name": "d"}]}`, _NS(_P('listOfLists')), ``, `{"listOfLists": null}`],
      [`{"listOfLists": [{"name": "a", "value": ["b", "c"]}, {"name": "d"}]}`, _NS(_P('listOfLists', _KBF('name', 'd'), 'name')), `unparseable`, `{"listOfLists": [{"name": "d"}]}`],
      [`{"listOfLists": [{"name": "a", "value": ["b", "c"]}, {"name": "d"}]}`, _NS(_P('listOfLists', _KBF('name', 'd'))), `{"listOfLists": [{"name": "a", "value": ["b", "c"]}]}`, `unparseable`],
      [`{"listOfLists": [{"name": "a", "value": ["b", "c"]}, {"name": "d"}]}`, _NS(_P('listOfLists', _KBF('name', 'a'), 'name')), `unparseable`, `{"listOfLists": [{"name": "a"}]}`],
      [`{"listOfLists": [{"name": "a", "value": ["b", "c"]}, {"name": "d"}]}`, _NS(_P('listOfLists', _KBF('name', 'a'))), `{"listOfLists": [{"name": "d"}]}`, `unparseable`],
      [
        `{"listOfLists": [{"name": "a", "value": ["b", "c"]}, {"name": "d"}]}`,
        _NS(_P('listOfLists', _KBF('name', 'a'), 'value', _V('b'))),
        `{"listOfLists": [{"name":"a", "value": ["c"]}, {"name": "d"}]}`,
        `unparseable`,
      ],
      [
        `{"listOfLists": [{"name": "a", "value": ["b", "c"]}, {"name": "d"}]}`,
        _NS(_P('listOfLists', _KBF('name', 'a'), 'name'), _P('listOfLists', _KBF('name', 'a'), 'value', _V('b'))),
        `unparseable`,
        `{"listOfLists": [{"name": "a", "value": ["b"]}]}`,
      ],
      [
        `{"listOfLists": [{"name": "a", "value": ["b", "c"]}, {"name": "d"}]}`,
        _NS(_P('listOfLists', _KBF('name', 'x'))),
        `{"listOfLists": [{"name": "a", "value": ["b", "c"]}, {"name": "d"}]}`,
        `{"listOfLists":null}`,
      ],
      [
        `{"listOfLists": [{"name": "a", "value": ["b", "c"]}, {"name": "d"}]}`,
        _NS(_P('listOfLists', _KBF('name', 'a'), 'value', _V('x'))),
        `{"listOfLists": [{"name":"a", "value": ["b","c"]}, {"name": "d"}]}`,
        `unparseable`,
      ],
      [
        `{"listOfLists": [{"name": "a", "value": ["b", "c"]}, {"name": "d"}]}`,
        _NS(_P('listOfLists', _KBF('name', 'a'), 'name'), _P('listOfLists', _KBF('name', 'a'), 'value', _V('x'))),
        `unparseable`,
        `unparseable`,
      ],
      [`{"listOfLists": [{"name": "a", "value": ["b", "c"]}, {"name": "d"}]}`, _NS(_P(_V('b'))), `{"listOfLists": [{"name": "a", "value": ["b", "c"]}, {"name": "d"}]}`, ``],
      [
        `{"listOfMaps": [{"name": "a", "value": {"b":"x", "c":"y"}}, {"name": "d", "value": {"e":"z"}}]}`,
        _NS(
          _P('listOfMaps', _KBF('name', 'a'), 'name'),
          _P('listOfMaps', _KBF('name', 'a'), 'value', 'b'),
          _P('listOfMaps', _KBF('name', 'a'), 'value', 'c'),
          _P('listOfMaps', _KBF('name', 'd'), 'name'),
          _P('listOfMaps', _KBF('name', 'd'), 'value', 'e'),
        ),
        `unparseable`,
        `{"listOfMaps": [{"name": "a", "value": {"b":"x", "c":"y"}}, {"name": "d", "value": {"e":"z"}}]}`,
      ],
      [`{"listOfMaps": [{"name": "a", "value": {"b":"x", "c":"y"}}, {"name": "d", "value": {"e":"z"}}]}`, _NS(_P('listOfMaps')), ``, `{"listOfMaps"}`],
      [
        `{"listOfMaps": [{"name": "a", "value": {"b":"x", "c":"y"}}, {"name": "d", "value": {"e":"z"}}]}`,
        _NS(_P('listOfMaps', _KBF('name', 'a'), 'name')),
        `unparseable`,
        `{"listOfMaps": [{"name": "a"}]}`,
      ],
      [
        `{"listOfMaps": [{"name": "a", "value": {"b":"x", "c":"y"}}, {"name": "d", "value": {"e":"z"}}]}`,
        _NS(_P('listOfMaps', _KBF('name', 'a'))),
        `{"listOfMaps": [{"name": "d", "value": {"e":"z"}}]}`,
        `unparseable`,
      ],
      [
        `{"listOfMaps": [{"name": "a", "value": {"b":"x", "c":"y"}}, {"name": "d", "value": {"e":"z"}}]}`,
        _NS(_P('listOfMaps', _KBF('name', 'a'), 'value', 'b')),
        `{"listOfMaps": [{"name": "a", "value": {"c":"y"}}, {"name": "d", "value": {"e":"z"}}]}`,
        `unparseable`,
      ],
      [
        `{"listOfMaps": [{"name": "a", "value": {"b":"x", "c":"y"}}, {"name": "d", "value": {"e":"z"}}]}`,
        _NS(_P('listOfMaps', _KBF('name', 'a'), 'name'), _P('listOfMaps', _KBF('name', 'a'), 'value', 'b')),
        `unparseable`,
        `{"listOfMaps": [{"name": "a", "value": {"b":"x"}}]}`,
      ],
      [
        `{"listOfMaps": [{"name": "a", "value": {"b":"x", "c":"y"}}, {"name": "d", "value": {"e":"z"}}]}`,
        _NS(_P('listOfMaps', _KBF('name', 'q'), 'name')),
        `{"listOfMaps": [{"name": "a", "value": {"b":"x", "c":"y"}}, {"name": "d", "value": {"e":"z"}}]}`,
        `{"listOfMaps":null}`,
      ],
      [
        `{"listOfMaps": [{"name": "a", "value": {"b":"x", "c":"y"}}, {"name": "d", "value": {"e":"z"}}]}`,
        _NS(_P('listOfMaps', _KBF('name', 'a'), 'value', 'q')),
        `{"listOfMaps": [{"name": "a", "value": {"b":"x", "c":"y"}}, {"name": "d", "value": {"e":"z"}}]}`,
        `unparseable`,
      ],
      [
        `{"listOfMaps": [{"name": "a", "value": {"b":"x", "c":"y"}}, {"name": "d", "value": {"e":"z"}}]}`,
        _NS(_P('listOfMaps', _KBF('name', 'a'), 'name'), _P('listOfMaps', _KBF('name', 'a'), 'value', 'q')),
        `unparseable`,
        `{"listOfMaps": [{"name":"a", "value": null}]}`,
      ],
      [
        `{"mapOfLists": {"b":["a","c"], "d":["e", "f"]}}`,
        _NS(_P('mapOfLists', 'b', _V('a')), _P('mapOfLists', 'b', _V('c')), _P('mapOfLists', 'd', _V('e')), _P('mapOfLists', 'd', _V('f'))),
        `unparseable`,
        `{"mapOfLists": {"b":["a","c"], "d":["e", "f"]}}`,
      ],
      [`{"mapOfLists": {"b":["a","c"], "d":["e", "f"]}}`, _NS(_P('mapOfLists')), ``, `{"mapOfLists":null}`],
      [`{"mapOfLists": {"b":["a","c"], "d":["e", "f"]}}`, _NS(_P('mapOfLists', 'b')), `{"mapOfLists": {"d":["e", "f"]}}`, `{"mapOfLists": {"b":null}}`],
      [`{"mapOfLists": {"b":["a","c"], "d":["e", "f"]}}`, _NS(_P('mapOfLists', 'b', _V('a'))), `{"mapOfLists":{"b":["c"],"d":["e", "f"]}}`, `{"mapOfLists":{"b":["a"]}}`],
      [`{"mapOfLists": {"b":["a","c"], "d":["e", "f"]}}`, _NS(_P('mapOfLists', 'q')), `{"mapOfLists": {"b":["a","c"], "d":["e", "f"]}}`, `{"mapOfLists":null}`],
      [`{"mapOfLists": {"b":["a","c"], "d":["e", "f"]}}`, _NS(_P('mapOfLists', 'b', _V('q'))), `{"mapOfLists": {"b":["a","c"], "d":["e", "f"]}}`, `{"mapOfLists":{"b":null}}`],
      [`{"mapOfLists": {"b":null, "d":["e", "f"]}}`, _NS(_P('mapOfLists', 'b')), `{"mapOfLists": {"d":["e", "f"]}}`, `{"mapOfLists":{"b":null}}`],
      [`{"mapOfLists": {"b":["a","c"], "d":["e", "f"]}}`, _NS(_P(_V('a'))), `{"mapOfLists": {"b":["a","c"], "d":["e", "f"]}}`, ``],
      [
        `{"mapOfMaps": {"b":{"a":"x","c":"z"}, "d":{"e":"y", "f":"w"}}}`,
        _NS(_P('mapOfMaps', 'b', 'a'), _P('mapOfMaps', 'b', 'c'), _P('mapOfMaps', 'd', 'e'), _P('mapOfMaps', 'd', 'f')),
        `unparseable`,
        `{"mapOfMaps": {"b":{"a":"x","c":"z"}, "d":{"e":"y", "f":"w"}}}`,
      ],
      [`{"mapOfMaps": {"b":{"a":"x","c":"z"}, "d":{"e":"y", "f":"w"}}}`, _NS(_P('mapOfMaps')), ``, `{"mapOfMaps":null}`],
      [`{"mapOfMaps": {"b":{"a":"x","c":"z"}, "d":{"e":"y", "f":"w"}}}`, _NS(_P('mapOfMaps', 'b')), `{"mapOfMaps": {"d":{"e":"y", "f":"w"}}}`, `{"mapOfMaps": {"b":null}}`],
      [`{"mapOfMaps": {"b":{"a":"x","c":"z"}, "d":{"e":"y", "f":"w"}}}`, _NS(_P('mapOfMaps', 'b', 'a')), `{"mapOfMaps": {"b":{"c":"z"},"d":{"e":"y", "f":"w"}}}`, `{"mapOfMaps": {"b":{"a":"x"}}}`],
      [`{"mapOfMaps": {"b":{"a":"x","c":"z"}, "d":{"e":"y", "f":"w"}}}`, _NS(_P('mapOfMaps', 'q')), `{"mapOfMaps": {"b":{"a":"x","c":"z"}, "d":{"e":"y", "f":"w"}}}`, `{"mapOfMaps": null}`],
      [`{"mapOfMaps": {"b":{"a":"x","c":"z"}, "d":{"e":"y", "f":"w"}}}`, _NS(_P('mapOfMaps', 'b', 'q')), `{"mapOfMaps": {"b":{"a":"x","c":"z"}, "d":{"e":"y", "f":"w"}}}`, `{"mapOfMaps": {"b":null}}`],
      [`{"mapOfMaps": {"b":null, "d":{"e":"y", "f":"w"}}}`, _NS(_P('mapOfMaps', 'b')), `{"mapOfMaps": {"d":{"e":"y", "f":"w"}}}`, `{"mapOfMaps": {"b":null}}`],
      [`{"mapOfMaps": {"b":{"a":"x","c":"z"}, "d":{"e":"y", "f":"w"}}}`, _NS(_P('a')), `{"mapOfMaps": {"b":{"a":"x","c":"z"}, "d":{"e":"y", "f":"w"}}}`, ``],
      [`{"mapOfMapsRecursive": {"a":{"b":{"c":null}}}}`, _NS(_P('mapOfMapsRecursive')), ``, `{"mapOfMapsRecursive":null}`],
      [`{"mapOfMapsRecursive": {"a":{"b":{"c":null}}}}`, _NS(_P('mapOfMapsRecursive', 'a')), `{"mapOfMapsRecursive"}`, `{"mapOfMapsRecursive": {"a":null}}`],
      [`{"mapOfMapsRecursive": {"a":{"b":{"c":null}}}}`, _NS(_P('mapOfMapsRecursive', 'a', 'b')), `{"mapOfMapsRecursive":{"a":null}}`, `{"mapOfMapsRecursive": {"a":{"b":null}}}`],
      [`{"mapOfMapsRecursive": {"a":{"b":{"c":null}}}}`, _NS(_P('mapOfMapsRecursive', 'a', 'b', 'c')), `{"mapOfMapsRecursive":{"a":{"b":null}}}`, `{"mapOfMapsRecursive": {"a":{"b":{"c":null}}}}`],
      [`{"listOfLists": []}`, _NS(_P('listOfLists')), ``, `{"listOfLists": []}`],
      [`{"listOfLists": null}`, _NS(_P('listOfLists')), ``, `{"listOfLists": null}`],
      [`{"mapOfMaps": {}}`, _NS(_P('mapOfMaps')), ``, `{"mapOfMaps": {}}`],
      [`{"mapOfMaps": null}`, _NS(_P('mapOfMaps')), ``, `{"mapOfMaps": null}`],
    ],
  },
];

describe('TestRemove', () => {
  for (const tt of removeCases) {
    describe(tt.name, () => {
      const pt = Parser.fromYAML(tt.schema).type(tt.rootTypeName);
      tt.quadruplets.forEach(([object, set, removeOutput, extractOutput], i) => {
        test(`${tt.name}-valid-${i}`, () => {
          const tv = pt.fromYAML(object);
          if (removeOutput !== 'unparseable') {
            const want = pt.fromYAML(removeOutput).value;
            const got = tv.removeItems(set).value;
            assert.ok(valueEquals(got, want), `RemoveItems expected\n${valueToString(want)}\nbut got\n${valueToString(got)}`);
          }
          if (extractOutput !== 'unparseable') {
            const want = pt.fromYAML(extractOutput).value;
            const got = tv.extractItems(set).value;
            assert.ok(valueEquals(got, want), `ExtractItems expected\n${valueToString(want)}\nbut got\n${valueToString(got)}`);
          }
        });
      });
    });
  }
});
