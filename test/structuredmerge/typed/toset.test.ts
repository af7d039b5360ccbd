// Port of structured-merge-diff typed/toset_test.go: the field set of a value.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Set } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { Parser } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import { _KBF, _NS, _P, _V } from '../fixture/index.js';
import { associativeListSchema, simplePairSchema } from './schemas.js';

interface FieldsetTestCase {
  readonly name: string;
  readonly rootTypeName: string;
  readonly schema: string;
  readonly pairs: ReadonlyArray<readonly [object: string, set: Set]>;
}

const fieldsetCases: FieldsetTestCase[] = [
  {
    name: 'simple pair',
    rootTypeName: 'stringPair',
    schema: simplePairSchema,
    pairs: [
      [`{"key":"foo","value":1}`, _NS(_P('key'), _P('value'))],
      [`{"key":"foo","value":{"a": "b"}}`, _NS(_P('key'), _P('value'))],
      [`{"key":"foo","value":null}`, _NS(_P('key'), _P('value'))],
      [`{"key":"foo"}`, _NS(_P('key'))],
      [`{"key":"foo","value":true}`, _NS(_P('key'), _P('value'))],
    ],
  },
  {
    name: 'struct grab bag',
    rootTypeName: 'myStruct',
    schema: `types:
- name: myStruct
  map:
    fields:
    - name: numeric
      type:
        scalar: numeric
    - name: string
      type:
        scalar: string
    - name: bool
      type:
        scalar: boolean
    - name: setStr
      type:
        list:
          elementType:
            scalar: string
          elementRelationship: associative
    - name: setBool
      type:
        list:
          elementType:
            scalar: boolean
          elementRelationship: associative
    - name: setNumeric
      type:
        list:
          elementType:
            scalar: numeric
          elementRelationship: associative
    - name: color
      type:
        map:
          fields:
          - name: R
            type:
              scalar: numeric
          - name: G
            type:
              scalar: numeric
          - name: B
            type:
              scalar: numeric
          elementRelationship: atomic
    - name: arbitraryWavelengthColor
      type:
        map:
          elementType:
            scalar: numeric
          elementRelationship: atomic
    - name: args
      type:
        list:
          elementType:
            map:
              fields:
              - name: key
                type:
                  scalar: string
              - name: value
                type:
                  scalar: string
          elementRelationship: atomic
`,
    pairs: [
      [`{"numeric":1}`, _NS(_P('numeric'))],
      [`{"numeric":3.14159}`, _NS(_P('numeric'))],
      [`{"string":"aoeu"}`, _NS(_P('string'))],
      [`{"bool":true}`, _NS(_P('bool'))],
      [`{"bool":false}`, _NS(_P('bool'))],
      [`{"setStr":["a","b","c"]}`, _NS(_P('setStr', _V('a')), _P('setStr', _V('b')), _P('setStr', _V('c')))],
      [`{"setStr":["a","b","c","a","b","c","c"]}`, _NS(_P('setStr', _V('a')), _P('setStr', _V('b')), _P('setStr', _V('c')))],
      [`{"setBool":[true,false,true]}`, _NS(_P('setBool', _V(true)), _P('setBool', _V(false)))],
      [`{"setNumeric":[1,2,3,3.14159]}`, _NS(_P('setNumeric', _V(1)), _P('setNumeric', _V(2)), _P('setNumeric', _V(3)), _P('setNumeric', _V(3.14159)))],
      [`{"color":{}}`, _NS(_P('color'))],
      [`{"color":null}`, _NS(_P('color'))],
      [`{"color":{"R":255,"G":0,"B":0}}`, _NS(_P('color'))],
      [`{"arbitraryWavelengthColor":{}}`, _NS(_P('arbitraryWavelengthColor'))],
      [`{"arbitraryWavelengthColor":null}`, _NS(_P('arbitraryWavelengthColor'))],
      [`{"arbitraryWavelengthColor":{"IR":255}}`, _NS(_P('arbitraryWavelengthColor'))],
      [`{"args":[]}`, _NS(_P('args'))],
      [`{"args":null}`, _NS(_P('args'))],
      [`{"args":[null]}`, _NS(_P('args'))],
      [`{"args":[{"key":"a","value":"b"},{"key":"c","value":"d"}]}`, _NS(_P('args'))],
    ],
  },
  {
    name: 'associative list',
    rootTypeName: 'myRoot',
    schema: associativeListSchema,
    pairs: [
      [`{"list":[]}`, _NS()],
      [
        `{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}`,
        _NS(_P('list', _KBF('key', 'a', 'id', 1)), _P('list', _KBF('key', 'a', 'id', 1), 'key'), _P('list', _KBF('key', 'a', 'id', 1), 'id'), _P('list', _KBF('key', 'a', 'id', 1), 'value', 'a')),
      ],
      [
        `{"list":[{"key":"a","id":1},{"key":"a","id":2},{"key":"b","id":1}]}`,
        _NS(
          _P('list', _KBF('key', 'a', 'id', 1)),
          _P('list', _KBF('key', 'a', 'id', 2)),
          _P('list', _KBF('key', 'b', 'id', 1)),
          _P('list', _KBF('key', 'a', 'id', 1), 'key'),
          _P('list', _KBF('key', 'a', 'id', 1), 'id'),
          _P('list', _KBF('key', 'a', 'id', 2), 'key'),
          _P('list', _KBF('key', 'a', 'id', 2), 'id'),
          _P('list', _KBF('key', 'b', 'id', 1), 'key'),
          _P('list', _KBF('key', 'b', 'id', 1), 'id'),
        ),
      ],
      [
        `{"list":[{"key":"a","id":1,"nv":2},{"key":"a","id":2,"nv":3},{"key":"b","id":1},{"key":"a","id":2,"bv":true}]}`,
        _NS(
          _P('list', _KBF('key', 'a', 'id', 1)),
          _P('list', _KBF('key', 'a', 'id', 1), 'key'),
          _P('list', _KBF('key', 'a', 'id', 1), 'id'),
          _P('list', _KBF('key', 'a', 'id', 1), 'nv'),
          _P('list', _KBF('key', 'a', 'id', 2)),
          _P('list', _KBF('key', 'b', 'id', 1)),
          _P('list', _KBF('key', 'b', 'id', 1), 'key'),
          _P('list', _KBF('key', 'b', 'id', 1), 'id'),
        ),
      ],
      [`{"atomicList":["a","a","a"]}`, _NS(_P('atomicList'))],
    ],
  },
];

describe('TestToFieldSet', () => {
  for (const tt of fieldsetCases) {
    describe(tt.name, () => {
      const parser = Parser.fromYAML(tt.schema);
      tt.pairs.forEach(([object, want], i) => {
        test(`${tt.name}-${i}`, () => {
          const tv = parser.type(tt.rootTypeName).fromYAML(object, { allowDuplicates: true });
          const fs = tv.toFieldSet();
          assert.ok(fs.equals(want), `wanted\n${want.toString()}\ngot\n${fs.toString()}`);
        });
      });
    });
  }
});
