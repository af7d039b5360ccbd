// Port of structured-merge-diff typed/symdiff_test.go, part 2: deduced and untyped maps, sets and associative lists.
import { _KBF, _NS, _P, _V } from '../fixture/index.js';
import type { SymdiffTestCase } from './symdiff.js';
import { runSymdiffCases } from './symdiff.js';
import { associativeListSchema, structGrabBagSchema } from './schemas.js';

// A few of SMD's documents end in a stray `}`, which go-yaml v2 ignores and a strict YAML reader does not: it is left out here.
const symdiffCases: SymdiffTestCase[] = [
  {
    name: 'untyped deduced',
    rootTypeName: '__untyped_deduced_',
    schema: `types:
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
- name: __untyped_deduced_
  scalar: untyped
  list:
    elementType:
      namedType: __untyped_atomic_
    elementRelationship: atomic
  map:
    elementType:
      namedType: __untyped_deduced_
    elementRelationship: separable
`,
    quints: [
      {
        lhs: `{"a":{}}`,
        rhs: `{"a":{"b":{}}}`,
        removed: _NS(),
        modified: _NS(),
        added: _NS(_P('a', 'b')),
      },
      {
        lhs: `{"a":null}`,
        rhs: `{"a":{"b":{}}}`,
        removed: _NS(),
        modified: _NS(),
        added: _NS(_P('a', 'b')),
      },
      {
        lhs: `{"a":{"b":{}}}`,
        rhs: `{"a":{}}`,
        removed: _NS(_P('a', 'b')),
        modified: _NS(),
        added: _NS(),
      },
      {
        lhs: `{"a":{"b":{}}}`,
        rhs: `{"a":null}`,
        removed: _NS(_P('a', 'b')),
        modified: _NS(),
        added: _NS(),
      },
      {
        lhs: `{"a":[]}`,
        rhs: `{"a":["b"]}`,
        removed: _NS(),
        modified: _NS(_P('a')),
        added: _NS(),
      },
      {
        lhs: `{"a":null}`,
        rhs: `{"a":["b"]}`,
        removed: _NS(),
        modified: _NS(_P('a')),
        added: _NS(),
      },
      {
        lhs: `{"a":["b"]}`,
        rhs: `{"a":[]}`,
        removed: _NS(),
        modified: _NS(_P('a')),
        added: _NS(),
      },
      {
        lhs: `{"a":["b"]}`,
        rhs: `{"a":null}`,
        removed: _NS(),
        modified: _NS(_P('a')),
        added: _NS(),
      },
      {
        lhs: `{"a":null}`,
        rhs: `{"a":"b"}`,
        removed: _NS(),
        modified: _NS(_P('a')),
        added: _NS(),
      },
      {
        lhs: `{"a":"b"}`,
        rhs: `{"a":null}`,
        removed: _NS(),
        modified: _NS(_P('a')),
        added: _NS(),
      },
      {
        lhs: `{"a":{"b":{}}}`,
        rhs: `{"a":["b"]}`,
        removed: _NS(_P('a', 'b')),
        modified: _NS(_P('a')),
        added: _NS(),
      },
      {
        lhs: `{"a":["b"]}`,
        rhs: `{"a":{"b":{}}}`,
        removed: _NS(),
        modified: _NS(_P('a')),
        added: _NS(_P('a', 'b')),
      },
      {
        lhs: `{"a":{"b":{}}}`,
        rhs: `{"a":"b"}`,
        removed: _NS(_P('a', 'b')),
        modified: _NS(_P('a')),
        added: _NS(),
      },
      {
        lhs: `{"a":"b"}`,
        rhs: `{"a":{"b":{}}}`,
        removed: _NS(),
        modified: _NS(_P('a')),
        added: _NS(_P('a', 'b')),
      },
      {
        lhs: `{"a":["b"]}`,
        rhs: `{"a":"b"}`,
        removed: _NS(),
        modified: _NS(_P('a')),
        added: _NS(),
      },
      {
        lhs: `{"a":"b"}`,
        rhs: `{"a":["b"]}`,
        removed: _NS(),
        modified: _NS(_P('a')),
        added: _NS(),
      },
    ],
  },
  {
    name: 'untyped separable',
    rootTypeName: '__untyped_separable_',
    schema: `types:
- name: __untyped_separable_
  scalar: untyped
  list:
    elementType:
      namedType: __untyped_separable_
    elementRelationship: associative
  map:
    elementType:
      namedType: __untyped_separable_
    elementRelationship: separable
`,
    quints: [
      {
        lhs: `{"a":{}}`,
        rhs: `{"a":{"b":{}}}`,
        removed: _NS(),
        modified: _NS(),
        added: _NS(_P('a', 'b')),
      },
      {
        lhs: `{"a":null}`,
        rhs: `{"a":{"b":{}}}`,
        removed: _NS(),
        modified: _NS(),
        added: _NS(_P('a', 'b')),
      },
      {
        lhs: `{"a":{"b":{}}}`,
        rhs: `{"a":{}}`,
        removed: _NS(_P('a', 'b')),
        modified: _NS(),
        added: _NS(),
      },
      {
        lhs: `{"a":{"b":{}}}`,
        rhs: `{"a":null}`,
        removed: _NS(_P('a', 'b')),
        modified: _NS(),
        added: _NS(),
      },
      {
        lhs: `{"a":[]}`,
        rhs: `{"a":["b"]}`,
        removed: _NS(),
        modified: _NS(),
        added: _NS(_P('a', _V('b'))),
      },
      {
        lhs: `{"a":null}`,
        rhs: `{"a":["b"]}`,
        removed: _NS(),

        modified: _NS(_P('a')),
        added: _NS(_P('a', _V('b'))),
      },
      {
        lhs: `{"a":["b"]}`,
        rhs: `{"a":[]}`,
        removed: _NS(_P('a', _V('b'))),
        modified: _NS(),
        added: _NS(),
      },
      {
        lhs: `{"a":["b"]}`,
        rhs: `{"a":null}`,
        removed: _NS(_P('a', _V('b'))),

        modified: _NS(_P('a')),
        added: _NS(),
      },
      {
        lhs: `{"a":null}`,
        rhs: `{"a":"b"}`,
        removed: _NS(),
        modified: _NS(_P('a')),
        added: _NS(),
      },
      {
        lhs: `{"a":"b"}`,
        rhs: `{"a":null}`,
        removed: _NS(),
        modified: _NS(_P('a')),
        added: _NS(),
      },
      {
        lhs: `{"a":{"b":{}}}`,
        rhs: `{"a":["b"]}`,
        removed: _NS(_P('a', 'b')),
        modified: _NS(),
        added: _NS(_P('a', _V('b'))),
      },
      {
        lhs: `{"a":["b"]}`,
        rhs: `{"a":{"b":{}}}`,
        removed: _NS(_P('a', _V('b'))),
        modified: _NS(),
        added: _NS(_P('a', 'b')),
      },
      {
        lhs: `{"a":{"b":{}}}`,
        rhs: `{"a":"b"}`,
        removed: _NS(_P('a', 'b')),
        modified: _NS(_P('a')),
        added: _NS(),
      },
      {
        lhs: `{"a":"b"}`,
        rhs: `{"a":{"b":{}}}`,
        removed: _NS(),
        modified: _NS(_P('a')),
        added: _NS(_P('a', 'b')),
      },
      {
        lhs: `{"a":["b"]}`,
        rhs: `{"a":"b"}`,
        removed: _NS(_P('a', _V('b'))),
        modified: _NS(_P('a')),
        added: _NS(),
      },
      {
        lhs: `{"a":"b"}`,
        rhs: `{"a":["b"]}`,
        removed: _NS(),
        modified: _NS(_P('a')),
        added: _NS(_P('a', _V('b'))),
      },
    ],
  },
  {
    name: 'struct grab bag',
    rootTypeName: 'myStruct',
    schema: structGrabBagSchema,
    quints: [
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
        lhs: `{"setStr":["a","b"]}`,
        rhs: `{"setStr":["a","b","c"]}`,
        removed: _NS(),
        modified: _NS(),
        added: _NS(_P('setStr', _V('c'))),
      },
      {
        lhs: `{"setStr":["a"]}`,
        rhs: `{"setStr":["a","b","b"]}`,
        removed: _NS(),
        modified: _NS(),
        added: _NS(_P('setStr', _V('b'))),
      },
      {
        lhs: `{"setStr":["a","b"]}`,
        rhs: `{"setStr":["a","b","b"]}`,
        removed: _NS(_P('setStr', _V('b'))),
        modified: _NS(),
        added: _NS(_P('setStr', _V('b'))),
      },
      {
        lhs: `{"setStr":["b","b"]}`,
        rhs: `{"setStr":["a","b","b"]}`,
        removed: _NS(),
        modified: _NS(),
        added: _NS(_P('setStr', _V('a'))),
      },
      {
        lhs: `{"setStr":["a","b","c"]}`,
        rhs: `{"setStr":[]}`,
        removed: _NS(_P('setStr', _V('a')), _P('setStr', _V('b')), _P('setStr', _V('c'))),
        modified: _NS(),
        added: _NS(),
      },
      {
        lhs: `{"setBool":[true]}`,
        rhs: `{"setBool":[false]}`,
        removed: _NS(_P('setBool', _V(true))),
        modified: _NS(),
        added: _NS(_P('setBool', _V(false))),
      },
      {
        lhs: `{"setNumeric":[1,2,3.14159]}`,
        rhs: `{"setNumeric":[1,2,3]}`,
        removed: _NS(_P('setNumeric', _V(3.14159))),
        modified: _NS(),
        added: _NS(_P('setNumeric', _V(3))),
      },
      {
        lhs: `{"setStr":["a","b","b","c","a"]}`,
        rhs: `{"setStr":[]}`,
        removed: _NS(_P('setStr', _V('a')), _P('setStr', _V('b')), _P('setStr', _V('c'))),
        modified: _NS(),
        added: _NS(),
      },
      {
        lhs: `{"setBool":[true,true]}`,
        rhs: `{"setBool":[false]}`,
        removed: _NS(_P('setBool', _V(true))),
        modified: _NS(),
        added: _NS(_P('setBool', _V(false))),
      },
      {
        lhs: `{"setNumeric":[1,2,2,3.14159,1]}`,
        rhs: `{"setNumeric":[1,2,3]}`,
        removed: _NS(_P('setNumeric', _V(1)), _P('setNumeric', _V(2)), _P('setNumeric', _V(3.14159))),
        modified: _NS(),
        added: _NS(_P('setNumeric', _V(1)), _P('setNumeric', _V(2)), _P('setNumeric', _V(3))),
      },
    ],
  },
  {
    name: 'associative list',
    rootTypeName: 'myRoot',
    schema: associativeListSchema,
    quints: [
      {
        lhs: `{}`,
        rhs: `{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}`,
        removed: _NS(),
        modified: _NS(),
        added: _NS(
          _P('list'),
          _P('list', _KBF('key', 'a', 'id', 1)),
          _P('list', _KBF('key', 'a', 'id', 1), 'key'),
          _P('list', _KBF('key', 'a', 'id', 1), 'id'),
          _P('list', _KBF('key', 'a', 'id', 1), 'value'),
          _P('list', _KBF('key', 'a', 'id', 1), 'value', 'a'),
        ),
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
        modified: _NS(_P('list', _KBF('key', 'a', 'id', 1), 'value', 'a')),
        added: _NS(),
      },
      {
        lhs: `{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}`,
        rhs: `{"list":[{"key":"a","id":2,"value":{"a":"a"}}]}`,
        removed: _NS(
          _P('list', _KBF('key', 'a', 'id', 1)),
          _P('list', _KBF('key', 'a', 'id', 1), 'key'),
          _P('list', _KBF('key', 'a', 'id', 1), 'id'),
          _P('list', _KBF('key', 'a', 'id', 1), 'value'),
          _P('list', _KBF('key', 'a', 'id', 1), 'value', 'a'),
        ),
        modified: _NS(),
        added: _NS(
          _P('list', _KBF('key', 'a', 'id', 2)),
          _P('list', _KBF('key', 'a', 'id', 2), 'key'),
          _P('list', _KBF('key', 'a', 'id', 2), 'id'),
          _P('list', _KBF('key', 'a', 'id', 2), 'value'),
          _P('list', _KBF('key', 'a', 'id', 2), 'value', 'a'),
        ),
      },
      {
        lhs: `{"list":[{"key":"a","id":1},{"key":"b","id":1}]}`,
        rhs: `{"list":[{"key":"a","id":1},{"key":"a","id":2}]}`,
        removed: _NS(_P('list', _KBF('key', 'b', 'id', 1)), _P('list', _KBF('key', 'b', 'id', 1), 'key'), _P('list', _KBF('key', 'b', 'id', 1), 'id')),
        modified: _NS(),
        added: _NS(_P('list', _KBF('key', 'a', 'id', 2)), _P('list', _KBF('key', 'a', 'id', 2), 'key'), _P('list', _KBF('key', 'a', 'id', 2), 'id')),
      },
      {
        lhs: `{"atomicList":["a","a","a"]}`,
        rhs: `{"atomicList":null}`,
        removed: _NS(),
        modified: _NS(_P('atomicList')),
        added: _NS(),
      },
      {
        lhs: `{"atomicList":["a","b","c"]}`,
        rhs: `{"atomicList":[]}`,
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
      {
        lhs: `{"list":[{"key":"a","id":1,"nv":2},{"key":"b","id":1},{"key":"a","id":1,"bv":true}]}`,
        rhs: `{"list":[{"key":"a","id":1},{"key":"a","id":2}]}`,
        removed: _NS(_P('list', _KBF('key', 'b', 'id', 1)), _P('list', _KBF('key', 'b', 'id', 1), 'key'), _P('list', _KBF('key', 'b', 'id', 1), 'id'), _P('list', _KBF('key', 'a', 'id', 1))),
        modified: _NS(),
        added: _NS(
          _P('list', _KBF('key', 'a', 'id', 1)),
          _P('list', _KBF('key', 'a', 'id', 1), 'key'),
          _P('list', _KBF('key', 'a', 'id', 1), 'id'),
          _P('list', _KBF('key', 'a', 'id', 2)),
          _P('list', _KBF('key', 'a', 'id', 2), 'key'),
          _P('list', _KBF('key', 'a', 'id', 2), 'id'),
        ),
      },
      {
        lhs: `{"list":[{"key":"a","id":1},{"key":"b","id":1},{"key":"a","id":1,"bv":true}]}`,
        rhs: `{"list":[{"key":"a","id":1},{"key":"b","id":1},{"key":"a","id":1,"bv":true,"nv":1}]}`,
        removed: _NS(),
        modified: _NS(_P('list', _KBF('key', 'a', 'id', 1))),
        added: _NS(),
      },
      {
        lhs: `{"list":[{"key":"a","id":1},{"key":"b","id":1},{"key":"a","id":1,"bv":true}]}`,
        rhs: `{"list":[{"key":"a","id":1},{"key":"b","id":1},{"key":"a","id":1,"bv":true}]}`,
        removed: _NS(),
        modified: _NS(),
        added: _NS(),
      },
      {
        lhs: `{"list":[{"key":"a","id":1},{"key":"b","id":1},{"key":"a","id":1,"bv":true}]}`,
        rhs: `{"list":[{"key":"a","id":1},{"key":"b","id":1,"bv":true},{"key":"a","id":1,"bv":true}]}`,
        removed: _NS(),
        modified: _NS(),
        added: _NS(_P('list', _KBF('key', 'b', 'id', 1), 'bv')),
      },
      {
        lhs: `{"list":[{"key":"a","id":1},{"key":"b","id":1},{"key":"a","id":1,"bv":true}]}`,
        rhs: `{"list":[{"key":"a","id":1},{"key":"b","id":1},{"key":"a","id":1,"bv":true}],"atomicList":["unrelated"]}`,
        removed: _NS(),
        modified: _NS(),
        added: _NS(_P('atomicList')),
      },
    ],
  },
];

runSymdiffCases(symdiffCases);
