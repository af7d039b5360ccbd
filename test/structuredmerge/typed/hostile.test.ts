// Client data in typed operations: keys such as __proto__ are fields like any other, inputs are never
// modified, and values nested deeper than recursion can follow fail as errors, not crashes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_OBJECT_DEPTH } from '../../../runtime/apimachinery/serializer/json-scan.js';
import { deepCopyJSON, deepEqualJSON } from '../../../runtime/apimachinery/serializer/jsonvalue.js';
import { deducedParseableType, Parser, TypedValue, ValidationErrors } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import { _KBF, _NS, _P } from '../fixture/index.js';

const parser = Parser.fromYAML(`types:
- name: root
  map:
    fields:
    - name: __proto__
      type:
        map:
          fields:
          - name: a
            type: {scalar: numeric}
          - name: b
            type: {scalar: numeric}
    - name: list
      type:
        list:
          elementType:
            map:
              fields:
              - name: constructor
                type: {scalar: string}
              - name: v
                type: {scalar: string}
          elementRelationship: associative
          keys: [constructor]
    - name: labels
      type:
        map:
          elementType: {scalar: string}
`);
const root = parser.type('root');

/** JSON.parse makes __proto__ an own field, as request bodies are decoded. */
const parse = (json: string): unknown => JSON.parse(json);

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

describe('keys from input are data', () => {
  const live = root.fromUnstructured(parse('{"__proto__":{"a":1},"list":[{"constructor":"x","v":"1"}],"labels":{"__proto__":"p","constructor":"c"}}'));
  const config = root.fromUnstructured(parse('{"__proto__":{"b":2},"list":[{"constructor":"y"}],"labels":{"__proto__":"q"}}'));

  test('a declared __proto__ field merges field by field, into an own property of a plain object', () => {
    const merged = live.merge(config).value as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(merged), Object.prototype);
    assert.ok(Object.hasOwn(merged, '__proto__'));
    assert.deepEqual(Object.getOwnPropertyDescriptor(merged, '__proto__')?.value, { a: 1, b: 2 });
    assert.equal(JSON.stringify(merged), '{"__proto__":{"a":1,"b":2},"list":[{"constructor":"x","v":"1"},{"constructor":"y"}],"labels":{"__proto__":"q","constructor":"c"}}');
    assert.equal(({} as Record<string, unknown>).a, undefined, 'Object.prototype is untouched');
  });

  test('field sets and comparisons name __proto__ and constructor like other fields', () => {
    assert.ok(
      live
        .toFieldSet()
        .equals(
          _NS(
            _P('__proto__', 'a'),
            _P('list', _KBF('constructor', 'x')),
            _P('list', _KBF('constructor', 'x'), 'constructor'),
            _P('list', _KBF('constructor', 'x'), 'v'),
            _P('labels', '__proto__'),
            _P('labels', 'constructor'),
          ),
        ),
    );
    const c = live.compare(config);
    assert.ok(c.modified.equals(_NS(_P('labels', '__proto__'))));
    assert.ok(c.added.equals(_NS(_P('__proto__', 'b'), _P('list', _KBF('constructor', 'y')), _P('list', _KBF('constructor', 'y'), 'constructor'))));
    assert.ok(
      c.removed.equals(
        _NS(_P('__proto__', 'a'), _P('list', _KBF('constructor', 'x')), _P('list', _KBF('constructor', 'x'), 'constructor'), _P('list', _KBF('constructor', 'x'), 'v'), _P('labels', 'constructor')),
      ),
    );
  });

  test('removing and extracting __proto__ treat it as a field', () => {
    assert.equal(JSON.stringify(live.removeItems(_NS(_P('__proto__', 'a'), _P('labels', '__proto__'))).value), '{"__proto__":null,"list":[{"constructor":"x","v":"1"}],"labels":{"constructor":"c"}}');
    assert.equal(JSON.stringify(live.extractItems(_NS(_P('__proto__', 'a'), _P('labels', 'constructor'))).value), '{"__proto__":{"a":1},"labels":{"constructor":"c"}}');
  });

  test('an undeclared __proto__ or constructor is refused, not looked up on Object.prototype', () => {
    assert.throws(() => parser.type('root').fromUnstructured(parse('{"labels":{},"constructor":{}}')), { message: '.constructor: field not declared in schema' });
    assert.throws(() => parser.type('root').fromUnstructured(parse('{"list":[{"constructor":"x","__proto__":"p"}]}')), {
      message: '.list[constructor="x"].__proto__: field not declared in schema',
    });
  });

  test('the deduced type merges __proto__ key by key', () => {
    const a = deducedParseableType.fromUnstructured(parse('{"__proto__":{"x":1},"constructor":{"y":1}}'));
    const b = deducedParseableType.fromUnstructured(parse('{"__proto__":{"z":2}}'));
    assert.equal(JSON.stringify(a.merge(b).value), '{"__proto__":{"x":1,"z":2},"constructor":{"y":1}}');
    assert.ok(a.compare(b).removed.equals(_NS(_P('__proto__', 'x'), _P('constructor'), _P('constructor', 'y'))));
  });
});

describe('inputs are never modified', () => {
  test('merge, compare, toFieldSet, remove and extract leave frozen inputs as they were', () => {
    const lhsValue = deepFreeze(parse('{"list":[{"constructor":"a","v":"1"},{"constructor":"b"}],"labels":{"x":"1","y":"2"},"__proto__":{"a":1}}'));
    const rhsValue = deepFreeze(parse('{"list":[{"constructor":"b","v":"2"},{"constructor":"c"}],"labels":{"y":"3"}}'));
    const before = [deepCopyJSON(lhsValue), deepCopyJSON(rhsValue)];
    const lhs: TypedValue = root.fromUnstructured(lhsValue);
    const rhs: TypedValue = root.fromUnstructured(rhsValue);
    const merged = lhs.merge(rhs);
    lhs.compare(rhs);
    const set = rhs.toFieldSet();
    lhs.removeItems(set);
    lhs.extractItems(set, { appendKeyFields: true });
    merged.removeItems(set);
    assert.ok(deepEqualJSON(lhsValue, before[0]) && deepEqualJSON(rhsValue, before[1]));
    assert.notEqual(merged.value, lhsValue);
  });
});

describe('deep values', () => {
  const nest = (depth: number): unknown => {
    let v: unknown = 'leaf';
    for (let i = 0; i < depth; i++) v = { a: v };
    return v;
  };

  test(`values as deep as request bodies may nest (${MAX_OBJECT_DEPTH}) go through every operation`, () => {
    const deep = deducedParseableType.fromUnstructured(nest(MAX_OBJECT_DEPTH));
    const other = deducedParseableType.fromUnstructured(nest(MAX_OBJECT_DEPTH - 1));
    const set = deep.toFieldSet();
    // Every level is a key the deduced map does not declare: each is owned itself.
    assert.equal(set.size(), MAX_OBJECT_DEPTH);
    assert.ok(deep.merge(other).value !== undefined);
    assert.equal(deep.compare(other).isSame(), false);
    assert.equal(deep.removeItems(set).value, null);
    assert.ok(deepEqualJSON(deep.extractItems(set).value, deep.value));
  });

  test('a value nested deeper than recursion can follow fails with a ValidationErrors', () => {
    const tooDeep = nest(200_000);
    assert.throws(
      () => deducedParseableType.fromUnstructured(tooDeep),
      (err: unknown) => err instanceof ValidationErrors && err.message === 'value is nested too deeply to be processed',
    );
    const tv = deducedParseableType.fromUnstructured({});
    const unvalidated = TypedValue.asTypedUnvalidated(tooDeep, tv.schema, tv.typeRef);
    for (const op of [() => unvalidated.toFieldSet(), () => unvalidated.merge(tv), () => tv.compare(unvalidated), () => unvalidated.extractItems(_NS(_P('a')))]) {
      assert.throws(op, ValidationErrors);
    }
  });
});
