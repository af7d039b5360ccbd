// Port of structured-merge-diff typed/remove_test.go, TestReversibleExtract and TestExtractWithKeys.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Set } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { Parser } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import type { Value } from '../../../runtime/apimachinery/structuredmerge/value/index.js';
import { valueEquals, valueToString } from '../../../runtime/apimachinery/structuredmerge/value/index.js';
import { _KBF, _NS, _P } from '../fixture/index.js';
import { associativeAndAtomicSchema, nestedTypesSchema } from './schemas.js';

interface ReversibleExtractTestCase {
  readonly name: string;
  readonly rootTypeName: string;
  readonly schema: string;
  readonly pairs: ReadonlyArray<readonly [object: string, pso: string]>;
}

const reversibleExtractCases: ReversibleExtractTestCase[] = [
  {
    name: 'nested types',
    rootTypeName: 'type',
    schema: nestedTypesSchema,
    pairs: [
      [`{"listOfLists": [{"name": "a", "value": ["b", "c"]}, {"name": "d"}]}`, `{"listOfLists": [{"name": "f", "value": ["j", "k"]},]}`],
      [`{"listOfLists": [{"name": "a", "value": ["b", "c"]}, {"name": "d"}]}`, `{"listOfLists": [{"name": "a", "value": ["j", "k"]},]}`],
      [`{"listOfLists": [{"name": "a", "value": ["b", "c"]}, {"name": "d"}]}`, `{"listOfLists": [{"name": "a", "value": null},]}`],
      [`{"listOfMaps": [{"name": "a", "value": {"b":"x", "c":"y"}}, {"name": "d", "value": {"e":"z"}}]}`, `{"listOfMaps": [{"name": "f", "value": {"q":"p"}}]}`],
      [`{"listOfMaps": [{"name": "a", "value": {"b":"x", "c":"y"}}, {"name": "d", "value": {"e":"z"}}]}`, `{"listOfMaps": [{"name": "a", "value": {"f":"p"}}]}`],
      [`{"listOfMaps": [{"name": "a", "value": {"b":"x", "c":"y"}}, {"name": "d", "value": {"e":"z"}}]}`, `{"listOfMaps": [{"name": "a", "value": {"b":"p"}}]}`],
      [`{"listOfMaps": [{"name": "a", "value": {"b":"x", "c":"y"}}, {"name": "d", "value": {"e":"z"}}]}`, `{"listOfMaps": [{"name": "a", "value": null}]}`],
      [`{"mapOfLists": {"b":["a","c"], "d":["e", "f"]}}`, `{"mapOfLists": {"x":["y","z"]}}`],
      [`{"mapOfLists": {"b":["a","c"], "d":["e", "f"]}}`, `{"mapOfLists": {"b":["y","z"]}}`],
      [`{"mapOfLists": {"b":["a","c"], "d":["e", "f"]}}`, `{"mapOfLists": {"b":null}}`],
      [`{"mapOfMaps": {"b":{"a":"x","c":"z"}, "d":{"e":"y", "f":"w"}}}`, `{"mapOfMaps": {"i":{"j":"k"}}}`],
      [`{"mapOfMaps": {"b":{"a":"x","c":"z"}, "d":{"e":"y", "f":"w"}}}`, `{"mapOfMaps": {"b":{"j":"k"}}}`],
      [`{"mapOfMaps": {"b":{"a":"x","c":"z"}, "d":{"e":"y", "f":"w"}}}`, `{"mapOfMaps": {"b":{"a":"k"}}}`],
      [`{"mapOfMaps": {"b":{"a":"x","c":"z"}, "d":{"e":"y", "f":"w"}}}`, `{"mapOfMaps": {"b": null}}`],
      [`{"listOfMaps": [{"name": "a", "value": {"b":"x", "c":"y"}}, {"name": "d", "value": {"e":"z"}}]}`, `{"mapOfLists": {"b":["y","z"]}}`],
      [`{"mapOfMapsRecursive": {"a":{"b":{"c":null}, "d":{"e":{"f":null}, "g":null}}}}`, `{"mapOfMapsRecursive": {"a":{"d":{"e":{"f":{"q":null}, "p":null}}}}}`],
      [`{"mapOfMapsRecursive": {"a":{"b":{"c":{"d":{"e":{"f":null}}, "g":{"h":null}, "i":null}}}}}`, `{"mapOfMapsRecursive": {"a":{"b":{"c":null}}}}`],
    ],
  },
];

// Applying a partially specified object (PSO) to an object, then extracting the PSO's leaves, gives back the PSO.
describe('TestReversibleExtract', () => {
  for (const tt of reversibleExtractCases) {
    describe(tt.name, () => {
      const pt = Parser.fromYAML(tt.schema).type(tt.rootTypeName);
      tt.pairs.forEach(([object, psoYAML], i) => {
        test(`${tt.name}-valid-${i}`, () => {
          const initial = pt.fromYAML(object);
          const pso = pt.fromYAML(psoYAML);
          const merged = initial.merge(pso);
          // Extracting a path takes everything below it: only the leaves are extracted.
          const extracted = merged.extractItems(pso.toFieldSet().leaves());
          assert.ok(valueEquals(pso.value, extracted.value), `ExtractItems not reversible expected\n${valueToString(pso.value)}\nbut got\n${valueToString(extracted.value)}`);
        });
      });
    });
  }
});

interface ExtractWithKeysTestCase {
  readonly name: string;
  readonly rootTypeName: string;
  readonly schema: string;
  // wantOutput: YAML of the type, or (`value`) a value the type cannot parse.
  readonly triplets: ReadonlyArray<{ readonly object: string; readonly set: Set; readonly wantOutput: string | { readonly value: Value } }>;
}

const item = _KBF('key', 'nginx', 'id', 1);

const extractWithKeysCases: ExtractWithKeysTestCase[] = [
  {
    name: 'associativeAndAtomicSchema',
    rootTypeName: 'myRoot',
    schema: associativeAndAtomicSchema,
    triplets: [
      { object: `{"list":[{"key":"nginx","id":1,"nv":2}]}`, set: _NS(_P('list', item, 'key'), _P('list', item, 'id')), wantOutput: `{"list":[{"key":"nginx","id":1}]}` },
      { object: `{"list":[{"key":"nginx","id":1,"nv":2}]}`, set: _NS(_P('list', item, 'nv')), wantOutput: `{"list":[{"key":"nginx","id":1, "nv":2}]}` },
      { object: `{"list":[{"key":"nginx","id":1,"nv":2}]}`, set: _NS(_P('list', item, 'nv'), _P('list', item, 'id')), wantOutput: `{"list":[{"key":"nginx","id":1, "nv":2}]}` },
      { object: `{"list":[{"key":"nginx","id":1,"nv":2}]}`, set: _NS(_P('list', item, 'value')), wantOutput: { value: { list: [null] } } },
      {
        object: `{"atomicElementList":[{"id":"test-123","data":"value","extra":"field"}]}`,
        set: _NS(_P('atomicElementList', _KBF('id', 'test-123'))),
        wantOutput: `{"atomicElementList":[{"id":"test-123","data":"value","extra":"field"}]}`,
      },
    ],
  },
];

// Extracting with appendKeyFields also extracts the key fields of the listed items.
describe('TestExtractWithKeys', () => {
  for (const tt of extractWithKeysCases) {
    describe(tt.name, () => {
      const pt = Parser.fromYAML(tt.schema).type(tt.rootTypeName);
      tt.triplets.forEach((triplet, i) => {
        test(`${tt.name}-valid-${i}`, () => {
          const got = pt.fromYAML(triplet.object).extractItems(triplet.set, { appendKeyFields: true }).value;
          const want = typeof triplet.wantOutput === 'string' ? pt.fromYAML(triplet.wantOutput).value : triplet.wantOutput.value;
          assert.ok(valueEquals(got, want), `ExtractItems expected\n${valueToString(want)}\nbut got\n${valueToString(got)}`);
        });
      });
    });
  }
});
