// Port of structured-merge-diff typed/merge_test.go: merging a partial object into a value.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Parser } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import { valueEquals, valueToString } from '../../../runtime/apimachinery/structuredmerge/value/index.js';
import { associativeListSchema, nullEmptyListSchema, nullEmptyMapSchema, simplePairSchema, structGrabBagSchema } from './schemas.js';

interface MergeTestCase {
  readonly name: string;
  readonly rootTypeName: string;
  readonly schema: string;
  readonly triplets: ReadonlyArray<readonly [lhs: string, rhs: string, out: string]>;
}

const mergeCases: MergeTestCase[] = [
  {
    name: 'simple pair',
    rootTypeName: 'stringPair',
    schema: simplePairSchema,
    triplets: [
      [`{"key":"foo","value":{}}`, `{"key":"foo","value":1}`, `{"key":"foo","value":1}`],
      [`{"key":"foo","value":{}}`, `{"key":"foo","value":1}`, `{"key":"foo","value":1}`],
      [`{"key":"foo","value":1}`, `{"key":"foo","value":{}}`, `{"key":"foo","value":{}}`],
      [`{"key":"foo","value":null}`, `{"key":"foo","value":{}}`, `{"key":"foo","value":{}}`],
      [`{"key":"foo"}`, `{"value":true}`, `{"key":"foo","value":true}`],
    ],
  },
  {
    name: 'null/empty map',
    rootTypeName: 'nestedMap',
    schema: nullEmptyMapSchema,
    triplets: [
      [`{}`, `{"inner":{}}`, `{"inner":{}}`],
      [`{}`, `{"inner":null}`, `{"inner":null}`],
      [`{"inner":null}`, `{"inner":{}}`, `{"inner":{}}`],
      [`{"inner":{}}`, `{"inner":null}`, `{"inner":null}`],
      [`{"inner":{}}`, `{"inner":{}}`, `{"inner":{}}`],
    ],
  },
  {
    name: 'null/empty struct',
    rootTypeName: 'nestedStruct',
    schema: `types:
- name: nestedStruct
  map:
    fields:
    - name: inner
      type:
        map:
          fields:
          - name: value
            type:
              namedType: __untyped_atomic_
- name: __untyped_atomic_
  scalar: untyped
  list:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
  map:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
`,
    triplets: [
      [`{}`, `{"inner":{}}`, `{"inner":{}}`],
      [`{}`, `{"inner":null}`, `{"inner":null}`],
      [`{"inner":null}`, `{"inner":{}}`, `{"inner":{}}`],
      [`{"inner":{}}`, `{"inner":null}`, `{"inner":null}`],
      [`{"inner":{}}`, `{"inner":{}}`, `{"inner":{}}`],
    ],
  },
  {
    name: 'null/empty list',
    rootTypeName: 'nestedList',
    schema: nullEmptyListSchema,
    triplets: [
      [`{}`, `{"inner":[]}`, `{"inner":[]}`],
      [`{}`, `{"inner":null}`, `{"inner":null}`],
      [`{"inner":null}`, `{"inner":[]}`, `{"inner":[]}`],
      [`{"inner":[]}`, `{"inner":null}`, `{"inner":null}`],
      [`{"inner":[]}`, `{"inner":[]}`, `{"inner":[]}`],
    ],
  },
  {
    name: 'struct grab bag',
    rootTypeName: 'myStruct',
    schema: structGrabBagSchema,
    triplets: [
      [`{"numeric":1}`, `{"numeric":3.14159}`, `{"numeric":3.14159}`],
      [`{"numeric":3.14159}`, `{"numeric":1}`, `{"numeric":1}`],
      [`{"string":"aoeu"}`, `{"bool":true}`, `{"string":"aoeu","bool":true}`],
      [`{"setStr":["a","b","c"]}`, `{"setStr":["a","b"]}`, `{"setStr":["a","b","c"]}`],
      [`{"setStr":["a","b"]}`, `{"setStr":["a","b","c"]}`, `{"setStr":["a","b","c"]}`],
      [`{"setStr":["a","b","c"]}`, `{"setStr":[]}`, `{"setStr":["a","b","c"]}`],
      [`{"setStr":[]}`, `{"setStr":["a","b","c"]}`, `{"setStr":["a","b","c"]}`],
      [`{"setStr":["a","b"]}`, `{"setStr":["b","a"]}`, `{"setStr":["b","a"]}`],
      [`{"setStr":["a","b","c"]}`, `{"setStr":["d","e","f"]}`, `{"setStr":["a","b","c","d","e","f"]}`],
      [`{"setStr":["a","b","c"]}`, `{"setStr":["c","d","e","f"]}`, `{"setStr":["a","b","c","d","e","f"]}`],
      [`{"setStr":["a","b","c","g","f"]}`, `{"setStr":["c","d","e","f"]}`, `{"setStr":["a","b","c","g","d","e","f"]}`],
      [`{"setStr":["a","b","c"]}`, `{"setStr":["d","e","f","x","y","z"]}`, `{"setStr":["a","b","c","d","e","f","x","y","z"]}`],
      [`{"setStr":["c","d","e","f"]}`, `{"setStr":["a","c","e"]}`, `{"setStr":["a","c","d","e","f"]}`],
      [`{"setStr":["a","b","c","x","y","z"]}`, `{"setStr":["d","e","f"]}`, `{"setStr":["a","b","c","x","y","z","d","e","f"]}`],
      [`{"setStr":["a","b","c","x","y","z"]}`, `{"setStr":["d","e","f","x","y","z"]}`, `{"setStr":["a","b","c","d","e","f","x","y","z"]}`],
      [`{"setStr":["c","a","g","f"]}`, `{"setStr":["c","f","a","g"]}`, `{"setStr":["c","f","a","g"]}`],
      [`{"setStr":["a","b","c","d"]}`, `{"setStr":["d","e","f","a"]}`, `{"setStr":["b","c","d","e","f","a"]}`],
      [`{"setStr":["c","d","e","f","g","h","i","j"]}`, `{"setStr":["2","h","3","e","4","k","l"]}`, `{"setStr":["c","d","f","g","2","h","i","j","3","e","4","k","l"]}`],
      [`{"setStr":["a","b","c","d","e","f","g","h","i","j"]}`, `{"setStr":["1","b","2","h","3","e","4","k","l"]}`, `{"setStr":["a","1","b","c","d","f","g","2","h","i","j","3","e","4","k","l"]}`],
      [`{"setStr":["a","b","b"]}`, `{"setStr":["c"]}`, `{"setStr":["a","b","b","c"]}`],
      [`{"setStr":["a","b","b"]}`, `{"setStr":["b"]}`, `{"setStr":["a","b"]}`],
      [`{"setStr":["a","b","b"]}`, `{"setStr":["a"]}`, `{"setStr":["a","b","b"]}`],
      [`{"setStr":["a","b","c","d","e","c"]}`, `{"setStr":["1","b","2","e","d"]}`, `{"setStr":["a","1","b","c","2","e","c","d"]}`],
      [`{"setStr":["a","b","c","d","e","c"]}`, `{"setStr":["1","b","2","c","e","d"]}`, `{"setStr":["a","1","b","2","c","e","d"]}`],
      [`{"setStr":["a","a","b","b"]}`, `{"setStr":["b","c","d"]}`, `{"setStr":["a","a","b","c","d"]}`],
      [`{"setStr":["a","a","b","b"]}`, `{"setStr":[]}`, `{"setStr":["a","a","b","b"]}`],
      [`{"setBool":[true]}`, `{"setBool":[false]}`, `{"setBool":[true, false]}`],
      [`{"setNumeric":[1,2,3.14159]}`, `{"setNumeric":[1,2,3]}`, `{"setNumeric":[1,2,3.14159,3]}`],
      [`{"setStr":["c","a","g","f","c","a"]}`, `{"setStr":["c","f","a","g"]}`, `{"setStr":["c","f","a","g"]}`],
      [`{"setNumeric":[1,2,3.14159,1,2]}`, `{"setNumeric":[1,2,3]}`, `{"setNumeric":[1,2,3.14159,3]}`],
      [`{"setBool":[true,false,true]}`, `{"setBool":[false]}`, `{"setBool":[true,false,true]}`],
      [`{"setBool":[true,false,true]}`, `{"setBool":[true]}`, `{"setBool":[true, false]}`],
    ],
  },
  {
    name: 'associative list',
    rootTypeName: 'myRoot',
    schema: associativeListSchema,
    triplets: [
      [`{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}`, `{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}`, `{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}`],
      [`{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}`, `{"list":[{"key":"a","id":2,"value":{"a":"a"}}]}`, `{"list":[{"key":"a","id":1,"value":{"a":"a"}},{"key":"a","id":2,"value":{"a":"a"}}]}`],
      [`{"list":[{"key":"a","id":1},{"key":"b","id":1}]}`, `{"list":[{"key":"a","id":1},{"key":"a","id":2}]}`, `{"list":[{"key":"a","id":1},{"key":"b","id":1},{"key":"a","id":2}]}`],
      [`{"list":[{"key":"b","id":2}]}`, `{"list":[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]}`, `{"list":[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]}`],
      [
        `{"list":[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]}`,
        `{"list":[{"key":"c","id":3},{"key":"b","id":2}]}`,
        `{"list":[{"key":"a","id":1},{"key":"c","id":3},{"key":"b","id":2}]}`,
      ],
      [
        `{"list":[{"key":"a","id":1},{"key":"b","id":2},{"key":"c","id":3}]}`,
        `{"list":[{"key":"c","id":3},{"key":"a","id":1}]}`,
        `{"list":[{"key":"b","id":2},{"key":"c","id":3},{"key":"a","id":1}]}`,
      ],
      [`{"atomicList":["a","a","a"]}`, `{"atomicList":null}`, `{"atomicList":null}`],
      [`{"atomicList":["a","b","c"]}`, `{"atomicList":[]}`, `{"atomicList":[]}`],
      [`{"atomicList":["a","a","a"]}`, `{"atomicList":["a","a"]}`, `{"atomicList":["a","a"]}`],
      [
        `{"list":[{"key":"a","id":1,"bv":true},{"key":"b","id":2},{"key":"a","id":1,"bv":false,"nv":2}]}`,
        `{"list":[{"key":"a","id":1,"nv":3},{"key":"c","id":3},{"key":"b","id":2}]}`,
        `{"list":[{"key":"a","id":1,"nv":3},{"key":"c","id":3},{"key":"b","id":2}]}`,
      ],
      [`{"list":[{"key":"a","id":1,"nv":1},{"key":"a","id":1,"nv":2}]}`, `{"list":[]}`, `{"list":[{"key":"a","id":1,"nv":1},{"key":"a","id":1,"nv":2}]}`],
      [`{"list":[{"key":"a","id":1,"nv":1},{"key":"a","id":1,"nv":2}]}`, `{}`, `{"list":[{"key":"a","id":1,"nv":1},{"key":"a","id":1,"nv":2}]}`],
    ],
  },
];

describe('TestMerge', () => {
  for (const tt of mergeCases) {
    describe(tt.name, () => {
      const parser = Parser.fromYAML(tt.schema);
      tt.triplets.forEach(([lhsYAML, rhsYAML, outYAML], i) => {
        test(`${tt.name}-valid-${i}`, () => {
          const pt = parser.type(tt.rootTypeName);
          // The former object may have duplicates in sets.
          const lhs = pt.fromYAML(lhsYAML, { allowDuplicates: true });
          const rhs = pt.fromYAML(rhsYAML);
          const out = pt.fromYAML(outYAML, { allowDuplicates: true });
          const got = lhs.merge(rhs);
          assert.ok(valueEquals(got.value, out.value), `Expected\n${valueToString(out.value)}\nbut got\n${valueToString(got.value)}`);
        });
      });
    });
  }
});
