/**
 * sigs.k8s.io/structured-merge-diff fieldpath/set_test.go:
 * TestEnsureNamedFieldsAreMembers (through the typed port's Parser and
 * toFieldSet, as SMD's test does) and TestFilterByPattern.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { keyByFields, makePrefixMatcher, matchAnyPathElement, newIncludeMatcherFilter, type Filter, type Set } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { Parser } from '../../../runtime/apimachinery/structuredmerge/typed/parser.js';
import { _NS, _P, _V } from './helpers.js';

const eq = (got: Set, want: Set): void => assert.ok(got.equals(want), `expected:\n${want.toString()}\ngot:\n${got.toString()}`);

const nestedSchema = (): Parser =>
  Parser.fromYAML(`types:
- name: type
  map:
    elementType:
      namedType: type
    fields:
      - name: keyAStr
        type:
          scalar: string
      - name: keyBInt
        type:
          scalar: numeric
      - name: named
        type:
          namedType: type
      - name: list
        type:
          list:
            elementRelationship: associative
            keys: ["keyAStr", "keyBInt"]
            elementType:
              namedType: type
      - name: a
        type:
          namedType: type
      - name: value
        type:
          scalar: numeric
`);

const associativeListSchema = (): Parser =>
  Parser.fromYAML(`types:
- name: type
  map:
    fields:
      - name: values
        type:
          list:
            elementRelationship: associative
            keys: ["keyAStr", "keyBInt"]
            elementType:
              map:
                fields:
                  - name: keyAStr
                    type:
                      scalar: string
                  - name: keyBInt
                    type:
                      scalar: numeric
                  - name: value
                    type:
                      scalar: numeric
`);

// No keyBInt yet.
const oldAssociativeListSchema = (): Parser =>
  Parser.fromYAML(`types:
- name: type
  map:
    fields:
      - name: values
        type:
          list:
            elementRelationship: associative
            keys: ["keyAStr"]
            elementType:
              map:
                fields:
                  - name: keyAStr
                    type:
                      scalar: string
                  - name: value
                    type:
                      scalar: numeric
`);

describe('TestEnsureNamedFieldsAreMembers', () => {
  const l = keyByFields('keyAStr', 'a', 'keyBInt', 1);
  const a = keyByFields('keyAStr', 'a');
  const table: Array<{ schemaFn: () => Parser; newSchemaFn?: () => Parser; value: string; expectedBefore: Set; expectedAfter: Set }> = [
    {
      schemaFn: nestedSchema,
      value: '{"named": {"named": {"value": 0}}}',
      expectedBefore: _NS(_P('named', 'named', 'value')),
      expectedAfter: _NS(_P('named', 'named', 'value'), _P('named', 'named'), _P('named')),
    },
    {
      schemaFn: nestedSchema,
      value: '{"named": {"a": {"named": {"value": 42}}}, "a": {"named": {"value": 1}}}',
      expectedBefore: _NS(_P('named', 'a', 'named', 'value'), _P('a', 'named', 'value')),
      expectedAfter: _NS(_P('named', 'a', 'named', 'value'), _P('named', 'a', 'named'), _P('named', 'a'), _P('named'), _P('a', 'named', 'value'), _P('a', 'named'), _P('a')),
    },
    {
      schemaFn: nestedSchema,
      value: '{"named": {"list": [{"keyAStr": "a", "keyBInt": 1, "named": {"value": 0}}]}}',
      expectedBefore: _NS(_P('named', 'list', l, 'keyAStr'), _P('named', 'list', l, 'keyBInt'), _P('named', 'list', l, 'named', 'value'), _P('named', 'list', l)),
      expectedAfter: _NS(
        _P('named', 'list', l, 'keyAStr'),
        _P('named', 'list', l, 'keyBInt'),
        _P('named', 'list', l, 'named', 'value'),
        _P('named', 'list', l, 'named'),
        _P('named', 'list', l),
        _P('named', 'list'),
        _P('named'),
      ),
    },
    {
      // The value is read with the old schema (no keyBInt), then completed with the new one.
      schemaFn: oldAssociativeListSchema,
      newSchemaFn: associativeListSchema,
      value: '{"values": [{"keyAStr": "a", "value": 0}]}',
      expectedBefore: _NS(_P('values', a, 'keyAStr'), _P('values', a, 'value'), _P('values', a)),
      expectedAfter: _NS(_P('values', a, 'keyAStr'), _P('values', a, 'value'), _P('values', a), _P('values')),
    },
    {
      // The recent schema does not add the missing key.
      schemaFn: associativeListSchema,
      value: '{"values": [{"keyAStr": "a", "value": 1}]}',
      expectedBefore: _NS(_P('values', a, 'keyAStr'), _P('values', a, 'value'), _P('values', a)),
      expectedAfter: _NS(_P('values', a, 'keyAStr'), _P('values', a, 'value'), _P('values', a), _P('values')),
    },
  ];
  for (const tt of table) {
    test(tt.value, () => {
      const parser = tt.schemaFn();
      const set = parser.type('type').fromYAML(tt.value).toFieldSet();
      eq(set, tt.expectedBefore);
      const schema = (tt.newSchemaFn ?? tt.schemaFn)().schema;
      eq(set.ensureNamedFieldsAreMembers(schema, { namedType: 'type' }), tt.expectedAfter);
    });
  }
});

describe('TestFilterByPattern', () => {
  const resources = (): Filter => newIncludeMatcherFilter(makePrefixMatcher('spec', 'containers', matchAnyPathElement(), 'resources'));
  const res = (...rest: Array<string | number>) => _P('spec', 'containers', ...rest);
  const allResources = [
    _P('spec'),
    _P('spec', 'containers'),
    res(0),
    res(0, 'resources'),
    res(0, 'resources', 'limits'),
    res(0, 'resources', 'limits', 'cpu'),
    res(0, 'resources', 'requests'),
    res(0, 'resources', 'requests', 'cpu'),
    res(0, 'resources', 'claims'),
    res(0, 'resources', 'claims', 0),
    res(0, 'resources', 'claims', 0, 'name'),
    res(0, 'resources', 'claims', 0, 'request'),
    res(0, 'resources', 'claims', 1),
    res(0, 'resources', 'claims', 1, 'name'),
    res(0, 'resources', 'claims', 1, 'request'),
    res(1),
    res(1, 'resources'),
    res(1, 'resources', 'limits'),
    res(1, 'resources', 'limits', 'cpu'),
  ];
  const k12 = [
    { name: 'key1', value: 'value1' },
    { name: 'key2', value: 'value2' },
  ];
  const kXY = [
    { name: 'key1', value: 'valueX' },
    { name: 'key2', value: 'valueY' },
  ];
  const list = (n: number, f?: string) => (f === undefined ? _P('spec', 'list', n) : _P('spec', 'list', n, f));
  const testCases: Array<{ name: string; input: Set; expect: Set; filter: Filter }> = [
    { name: 'container resize fields: exact match', input: _NS(...allResources), filter: resources(), expect: _NS(...allResources) },
    { name: 'container resize fields: filter status and metadata', input: _NS(_P('spec'), _P('status'), _P('metadata')), filter: resources(), expect: _NS(_P('spec')) },
    {
      name: 'container resize fields: filter non-container spec fields',
      input: _NS(_P('spec'), _P('spec', 'volumes'), _P('spec', 'hostNetwork')),
      filter: resources(),
      expect: _NS(_P('spec')),
    },
    {
      name: 'container resize fields: filter non-resource container fields',
      input: _NS(_P('spec'), _P('spec', 'containers'), res(0), res(0, 'image'), res(0, 'workingDir'), res(0, 'resources')),
      filter: resources(),
      expect: _NS(_P('spec'), _P('spec', 'containers'), res(0), res(0, 'resources')),
    },
    {
      name: 'filter listMap key',
      input: _NS(_P('spec'), _P('spec', 'listMap', k12), _P('spec', 'listMap', k12, 'field'), _P('spec', 'listMap', kXY, 'field')),
      filter: newIncludeMatcherFilter(makePrefixMatcher('spec', 'listMap', k12)),
      expect: _NS(_P('spec'), _P('spec', 'listMap', k12), _P('spec', 'listMap', k12, 'field')),
    },
    {
      name: 'filter value',
      input: _NS(_P('spec'), _P('spec', 'set', _V('v1')), _P('spec', 'set', _V('v2'))),
      filter: newIncludeMatcherFilter(makePrefixMatcher('spec', 'set', _V('v1'))),
      expect: _NS(_P('spec'), _P('spec', 'set', _V('v1'))),
    },
    {
      name: 'filter by index',
      input: _NS(_P('spec'), _P('spec', 'list'), list(0), list(0, 'value'), list(1), list(1, 'value')),
      filter: newIncludeMatcherFilter(makePrefixMatcher('spec', 'list', 1, 'value')),
      expect: _NS(_P('spec'), _P('spec', 'list'), list(1), list(1, 'value')),
    },
    {
      name: 'multiple index matchers',
      input: _NS(_P('spec'), _P('spec', 'list'), list(0), list(0, 'value'), list(1), list(1, 'value'), list(2), list(2, 'value')),
      filter: newIncludeMatcherFilter(makePrefixMatcher('spec', 'list', 0, 'value'), makePrefixMatcher('spec', 'list', 1, 'value')),
      expect: _NS(_P('spec'), _P('spec', 'list'), list(0), list(0, 'value'), list(1), list(1, 'value')),
    },
    {
      name: 'multiple field matchers',
      input: _NS(_P('spec'), _P('spec', 'f1'), _P('spec', 'f1', 'f11'), _P('spec', 'f2'), _P('spec', 'f2', 'f21'), _P('spec', 'f3'), _P('spec', 'f3', 'f31')),
      filter: newIncludeMatcherFilter(makePrefixMatcher('spec', 'f1'), makePrefixMatcher('spec', 'f3')),
      expect: _NS(_P('spec'), _P('spec', 'f1'), _P('spec', 'f1', 'f11'), _P('spec', 'f3'), _P('spec', 'f3', 'f31')),
    },
    {
      name: 'wildcard takes precedence',
      input: _NS(_P('spec'), _P('spec', 'list'), list(0), list(0, 'f1'), list(0, 'f2'), list(1), list(1, 'f1'), list(1, 'f2'), list(2), list(2, 'f1'), list(2, 'f2')),
      filter: newIncludeMatcherFilter(
        makePrefixMatcher('spec', 'list', matchAnyPathElement(), 'f1'), // takes precedence
        makePrefixMatcher('spec', 'list', 1, 'f2'), // ignored
      ),
      expect: _NS(_P('spec'), _P('spec', 'list'), list(0), list(0, 'f1'), list(1), list(1, 'f1'), list(2), list(2, 'f1')),
    },
  ];
  for (const tc of testCases) test(tc.name, () => eq(tc.filter.filter(tc.input), tc.expect));

  test('a prefix matcher refuses an empty key', () => {
    assert.throws(() => makePrefixMatcher('spec', []), { message: 'associative list key type path elements must have at least one key (got zero)' });
  });
  test('merging matchers that share a path merges their children', () => {
    const f = newIncludeMatcherFilter(makePrefixMatcher('a', 'x'), makePrefixMatcher('b', 'y'), makePrefixMatcher('a', 'z'));
    eq(f.filter(_NS(_P('a', 'x'), _P('a', 'y'), _P('a', 'z'), _P('b', 'y'), _P('b', 'x'))), _NS(_P('a', 'x'), _P('a', 'z'), _P('b', 'y')));
  });
  test('no matcher includes everything', () => {
    const s = _NS(_P('a', 'b'), _P('c'));
    eq(newIncludeMatcherFilter().filter(s), s);
  });
});
