// Port of structured-merge-diff typed/symdiff_test.go, part 1: pairs, maps and structs, null and empty.
import { _NS, _P } from '../fixture/index.js';
import type { SymdiffTestCase } from './symdiff.js';
import { runSymdiffCases } from './symdiff.js';
import { nullEmptyListSchema, nullEmptyMapSchema, simplePairSchema } from './schemas.js';

const symdiffCases: SymdiffTestCase[] = [
  {
    name: 'simple pair',
    rootTypeName: 'stringPair',
    schema: simplePairSchema,
    quints: [
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
        rhs: `{"key":"foo","value":{"doesn't matter":"what's here","or":{"how":"nested"}}}`,
        removed: _NS(),
        modified: _NS(_P('value')),
        added: _NS(),
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
    ],
  },
  {
    name: 'null/empty map',
    rootTypeName: 'nestedMap',
    schema: nullEmptyMapSchema,
    quints: [
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
`,
    quints: [
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
    ],
  },
  {
    name: 'null/empty list',
    rootTypeName: 'nestedList',
    schema: nullEmptyListSchema,
    quints: [
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
    ],
  },
  {
    name: 'map merge',
    rootTypeName: 'nestedMap',
    schema: `types:
- name: nestedMap
  map:
    elementType:
      namedType: nestedMap
`,
    quints: [
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
        lhs: `{"a":{}}`,
        rhs: `{"a":{"b":{}}}`,
        removed: _NS(),
        modified: _NS(),
        added: _NS(_P('a', 'b')),
      },
    ],
  },
];

runSymdiffCases(symdiffCases);
