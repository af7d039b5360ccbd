// The wording of typed validation errors: kube returns these messages to clients (`failed to create typed
// patch object (…): .spec.x: expected string, got &value.valueUnstructured{Value:1}`), so they are SMD's.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Parser, TypedValue, ValidationErrors } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';

const parser = Parser.fromYAML(`types:
- name: root
  map:
    fields:
    - name: s
      type: {scalar: string}
    - name: "n" # quoted: go-yaml v2 (YAML 1.1) reads a plain n as false
      type: {scalar: numeric}
    - name: b
      type: {scalar: boolean}
    - name: u
      type: {scalar: untyped}
    - name: m
      type:
        map:
          elementType: {scalar: string}
    - name: l
      type:
        list:
          elementType: {scalar: string}
          elementRelationship: atomic
    - name: set
      type:
        list:
          elementType: {scalar: string}
          elementRelationship: associative
    - name: items
      type:
        list:
          elementType: {namedType: item}
          elementRelationship: associative
          keys: [name, port]
    - name: named
      type:
        list:
          elementType: {namedType: item}
          elementRelationship: associative
          keys: [name]
- name: item
  map:
    fields:
    - name: name
      type: {scalar: string}
    - name: port
      type: {scalar: numeric}
      default: 80
    - name: v
      type: {scalar: string}
`);
const root = parser.type('root');

function message(object: unknown): string {
  try {
    root.fromUnstructured(object);
  } catch (err) {
    assert.ok(err instanceof ValidationErrors);
    return err.message;
  }
  assert.fail(`no error for ${JSON.stringify(object)}`);
}

describe('typed validation messages', () => {
  const cases: ReadonlyArray<readonly [object: unknown, message: string]> = [
    [{ s: 1 }, '.s: expected string, got &value.valueUnstructured{Value:1}'],
    [{ s: [] }, '.s: expected string, got &value.valueUnstructured{Value:[]interface {}{}}'],
    [{ s: { a: 'x', b: [1.5, null] } }, '.s: expected string, got &value.valueUnstructured{Value:map[string]interface {}{"a":"x", "b":[]interface {}{1.5, interface {}(nil)}}}'],
    [{ n: 'x' }, '.n: expected numeric (int or float), got string'],
    [{ n: 1.5, b: 'yes' }, '.b: expected boolean, got &{yes}'],
    [{ u: { a: 1 } }, '.u: expected any scalar, got &{map[a:1]}'],
    [{ m: [1, 2] }, '.m: expected map, got &{[1 2]}'],
    [{ l: 'x' }, '.l: expected list, got &{x}'],
    [{ m: { k: true } }, '.m.k: expected string, got &value.valueUnstructured{Value:true}'],
    [{ x: 1 }, '.x: field not declared in schema'],
    [{ set: ['a', 'a'] }, '.set: duplicate entries for key [="a"]'],
    [{ set: ['a', null] }, ".set: element 1: associative list without keys has an element that's an explicit null"],
    [{ set: [{}] }, ".set: element 0: associative list without keys has an element that's a map type"],
    [{ set: [[]] }, '.set: element 0: not supported: associative list with lists as elements'],
    [{ named: [{ v: 'x' }] }, '.named: element 0: associative list with keys has an element that omits all key fields ["name"] (and doesn\'t have default values for any key fields)'],
    [{ items: [null] }, '.items: element 0: associative list with keys may not have a null element'],
    [{ items: ['a'] }, '.items: element 0: associative list with keys may not have non-map elements'],
    [{ items: [{ name: 'a' }, { name: 'a', port: 80 }] }, '.items: duplicate entries for key [name="a",port=80]'],
    [{ items: [{ name: 'a', v: 1 }] }, '.items[name="a",port=80].v: expected string, got &value.valueUnstructured{Value:1}'],
    [{ s: 1, n: 'x' }, 'errors:\n  .s: expected string, got &value.valueUnstructured{Value:1}\n  .n: expected numeric (int or float), got string'],
    ['x', 'expected map, got &{x}'],
  ];
  cases.forEach(([object, want], i) => {
    test(`case ${i}: ${want.split('\n')[0] ?? ''}`, () => {
      assert.equal(message(object), want);
    });
  });

  test('the errors are listed with their paths', () => {
    try {
      root.fromUnstructured({ s: 1, n: 'x' });
      assert.fail('no error');
    } catch (err) {
      assert.ok(err instanceof ValidationErrors);
      assert.deepEqual(
        err.errors.map((e) => e.path),
        ['.s', '.n'],
      );
    }
  });

  test('a missing key field takes its default from the schema, and an item may omit it', () => {
    const tv = root.fromUnstructured({ items: [{ name: 'a' }] });
    assert.equal(tv.toFieldSet().toString(), '.items[name="a",port=80]\n.items[name="a",port=80].name');
  });

  test('merge and compare name the side at fault when both sides are wrong', () => {
    const lhs = root.fromUnstructured({ s: 'x' });
    const bad = (v: unknown): TypedValue => TypedValue.asTypedUnvalidated(v, root.schema, root.typeRef);
    assert.throws(() => bad({ s: 1 }).merge(bad({ s: true })), {
      message: 'errors:\n  .s: lhs: expected string, got &value.valueUnstructured{Value:1}\n  .s: rhs: expected string, got &value.valueUnstructured{Value:true}',
    });
    assert.doesNotThrow(() => lhs.merge(bad({ s: 1 })));
  });

  test('a schema that is not a schema is refused with the reason', () => {
    assert.throws(() => Parser.fromYAML('types: {}'), /^Error: unable to validate schema: \.types: expected list, got &\{map\[\]\}$/);
    assert.throws(() => Parser.fromYAML('types:\n- name: a\n  bogus: 1\n'), { message: 'unable to validate schema: .types[name="a"].bogus: field not declared in schema' });
  });
});
