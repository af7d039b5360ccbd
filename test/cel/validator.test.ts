import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JSONSchemaProps } from '../../apis/apiextensions/v1/schema.js';
import { validateCELRules } from '../../runtime/apimachinery/cel/index.js';
import flunderV1alpha1 from '../../generated/schemas/wardle/v1alpha1/flunder.json' with { type: 'json' };
import flunderV1beta1 from '../../generated/schemas/wardle/v1beta1/flunder.json' with { type: 'json' };
import { int, messages, object, str, validator } from './helpers.js';
import { formatFieldError } from '../../runtime/apimachinery/validation/field.js';

describe('CEL rules at every node that declares them', () => {
  test('the wardle rules word for word (both versions)', () => {
    const both = { apiVersion: 'wardle.example.com/v1beta1', kind: 'Flunder', metadata: { name: 'both' }, spec: { flunderReference: 'a', fischerReference: 'b' } };
    assert.deepEqual(messages(flunderV1beta1 as JSONSchemaProps, both, undefined, { isResourceRoot: true }), [
      'spec: Invalid value: "object": flunderReference and fischerReference are mutually exclusive',
    ]);
    const typeOnly = { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'x' }, spec: { referenceType: 'Fischer' } };
    assert.deepEqual(messages(flunderV1alpha1 as JSONSchemaProps, typeOnly, undefined, { isResourceRoot: true }), ['spec.reference: Required value: reference is required when referenceType is set']);
    assert.deepEqual(messages(flunderV1alpha1 as JSONSchemaProps, { ...typeOnly, spec: { referenceType: 'Fischer', reference: 'f' } }, undefined, { isResourceRoot: true }), []);
  });

  test('a rule at the resource root reads metadata.name', () => {
    // A Namespace schema carrying the rule (the real one leaves names to the strategy, whose message is kube's).
    const namespaceSchema: JSONSchemaProps = {
      type: 'object',
      properties: { metadata: { type: 'object' } },
      'x-kubernetes-validations': [
        {
          rule: "!has(self.metadata.name) || (size(self.metadata.name) <= 63 && self.metadata.name.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'))",
          message: "a namespace name must be a lowercase RFC 1123 label: at most 63 characters of a-z, 0-9 and '-', starting and ending with a letter or digit",
          fieldPath: '.metadata.name',
        },
      ],
    };
    const ns = (name: string): unknown => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    assert.deepEqual(messages(namespaceSchema, ns('good-name'), undefined, { isResourceRoot: true }), []);
    assert.deepEqual(messages(namespaceSchema, ns('Bad_Name'), undefined, { isResourceRoot: true }), [
      'metadata.name: Invalid value: "object": a namespace name must be a lowercase RFC 1123 label: at most 63 characters of a-z, 0-9 and \'-\', starting and ending with a letter or digit',
    ]);
    assert.deepEqual(messages(namespaceSchema, { apiVersion: 'v1', kind: 'Namespace', metadata: {} }, undefined, { isResourceRoot: true }), []);
  });

  test('a root rule without fieldPath reports on <nil>; no message means "failed rule"', () => {
    const schema = object({ a: int }, [{ rule: 'self.a > 1' }]);
    assert.deepEqual(messages(schema, { a: 1 }), ['<nil>: Invalid value: "object": failed rule: self.a > 1']);
  });

  test('rules run for every list item and every map value, at their paths', () => {
    const item = { ...int, 'x-kubernetes-validations': [{ rule: 'self < 10', message: 'too big' }] };
    const schema = object({
      list: { type: 'array', items: item },
      map: { type: 'object', additionalProperties: item },
      objects: { type: 'array', items: object({ n: item }) },
    });
    assert.deepEqual(messages(schema, { list: [1, 20, 30], map: { a: 5, 'b.c': 11 }, objects: [{ n: 1 }, { n: 12 }] }), [
      'list[1]: Invalid value: "integer": too big',
      'list[2]: Invalid value: "integer": too big',
      'map[b.c]: Invalid value: "integer": too big',
      'objects[1].n: Invalid value: "integer": too big',
    ]);
  });

  test('self is typed from the schema: ints, doubles, int-or-string, maps, lists, sets', () => {
    const schema = object(
      {
        i: int,
        d: { type: 'number' },
        ios: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-validations': [{ rule: "type(self) == int ? self < 5 : self.endsWith('%')", message: 'bad int-or-string' }] },
        m: { type: 'object', additionalProperties: str },
        s: { type: 'array', items: str, 'x-kubernetes-list-type': 'set' },
      },
      [
        { rule: 'self.i + 1 == 3 && self.d * 2.0 == 3.0', message: 'numbers' },
        { rule: "self.m['k'] == 'v' && 'k' in self.m && size(self.m) == 1", message: 'map' },
        { rule: "self.s == ['b', 'a'] && size(self.s) == 2", message: 'set equality ignores order' },
      ],
    );
    assert.deepEqual(messages(schema, { i: 2, d: 1.5, ios: 3, m: { k: 'v' }, s: ['a', 'b'] }), []);
    assert.deepEqual(messages(schema, { i: 2, d: 1.5, ios: '50%', m: { k: 'v' }, s: ['a', 'b'] }), []);
    assert.deepEqual(messages(schema, { i: 2, d: 1.5, ios: 7, m: { k: 'v' }, s: ['a', 'b'] }), ['ios: Invalid value: "": bad int-or-string']);
  });

  test('null fields count as absent; null values are not validated', () => {
    const schema = object({ a: { ...str, nullable: true, 'x-kubernetes-validations': [{ rule: 'false' }] } }, [{ rule: '!has(self.a)', message: 'a set' }]);
    assert.deepEqual(messages(schema, { a: null }), []);
  });

  test('escaped property names: keywords, dashes, dots', () => {
    const schema = object({ namespace: str, 'x-y': str, 'a.b': str }, [{ rule: "self.__namespace__ == 'ns' && self.x__dash__y == 'd' && self.a__dot__b == 'p'", message: 'escaped' }]);
    assert.deepEqual(messages(schema, { namespace: 'ns', 'x-y': 'd', 'a.b': 'p' }), []);
    assert.deepEqual(messages(schema, { namespace: 'other', 'x-y': 'd', 'a.b': 'p' }), ['<nil>: Invalid value: "object": escaped']);
  });

  test('an embedded resource exposes apiVersion, kind and metadata.name', () => {
    const schema = object({
      template: {
        type: 'object',
        'x-kubernetes-embedded-resource': true,
        'x-kubernetes-preserve-unknown-fields': true,
        'x-kubernetes-validations': [{ rule: "self.kind == 'Pod' && self.metadata.name.startsWith('p')", message: 'pods only' }],
      },
    });
    assert.deepEqual(messages(schema, { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p1' }, spec: { x: 1 } } }), []);
    assert.deepEqual(messages(schema, { template: { apiVersion: 'v1', kind: 'Job', metadata: { name: 'p1' } } }), ['template: Invalid value: "object": pods only']);
  });
});

describe('messages, field paths and reasons', () => {
  const at = (rule: Record<string, unknown>): string[] =>
    messages(object({ a: object({ b: str }), m: { type: 'object', additionalProperties: str } }, [{ rule: 'false', ...rule }]), { a: { b: 'x' }, m: {} });

  test('reasons pick the cause type; Duplicate shows the type only', () => {
    assert.deepEqual(at({ message: 'm' }), ['<nil>: Invalid value: "object": m']);
    assert.deepEqual(at({ message: 'm', reason: 'FieldValueForbidden' }), ['<nil>: Forbidden: m']);
    assert.deepEqual(at({ message: 'm', reason: 'FieldValueRequired' }), ['<nil>: Required value: m']);
    assert.deepEqual(at({ message: 'm', reason: 'FieldValueDuplicate' }), ['<nil>: Duplicate value: "object"']);
  });

  test('fieldPath is appended to the node path; invalid paths are ignored', () => {
    assert.deepEqual(at({ message: 'm', fieldPath: '.a.b' }), ['a.b: Invalid value: "object": m']);
    assert.deepEqual(at({ message: 'm', fieldPath: ".a['b']" }), ['a.b: Invalid value: "object": m']);
    assert.deepEqual(at({ message: 'm', fieldPath: ".m['x.y']" }), ['m[x.y]: Invalid value: "object": m']);
    assert.deepEqual(at({ message: 'm', fieldPath: '.nope' }), ['<nil>: Invalid value: "object": m']);
    const nested = object({ spec: object({ reference: str }, [{ rule: 'false', message: 'r', fieldPath: '.reference', reason: 'FieldValueRequired' }]) });
    assert.deepEqual(messages(nested, { spec: {} }), ['spec.reference: Required value: r']);
  });

  test('messageExpression, falling back to message when it fails or is empty', () => {
    assert.deepEqual(at({ messageExpression: "'b is ' + self.a.b" }), ['<nil>: Invalid value: "object": b is x']);
    assert.deepEqual(at({ message: 'static', messageExpression: "self.m['missing']" }), ['<nil>: Invalid value: "object": static']);
    assert.deepEqual(at({ message: 'static', messageExpression: "'  '" }), ['<nil>: Invalid value: "object": static']);
    assert.deepEqual(at({ messageExpression: "'  '" }), ['<nil>: Invalid value: "object": failed rule: false']);
  });

  test('evaluation errors as kube words them', () => {
    const schema = object({ m: { type: 'object', additionalProperties: str }, l: { type: 'array', items: int }, ios: { 'x-kubernetes-int-or-string': true } }, [
      { rule: "self.m['k'] == 'v'" },
      { rule: 'self.l[3] == 1' },
      { rule: 'self.ios > 1', message: 'ios too small' },
      { rule: '1 / (size(self.l) - 2) == 1' },
    ]);
    assert.deepEqual(messages(schema, { m: {}, l: [1, 2], ios: 'x' }), [
      "<nil>: Invalid value: \"object\": no such key: k evaluating rule: self.m['k'] == 'v'",
      '<nil>: Invalid value: "object": index out of bounds: 3 evaluating rule: self.l[3] == 1',
      '<nil>: Invalid value: "object": \'no such overload\': call arguments did not match a supported operator, function or macro signature for rule: ios too small',
      '<nil>: Invalid value: "object": division by zero evaluating rule: 1 / (size(self.l) - 2) == 1',
    ]);
  });

  test('a rule that does not compile is reported at request time', () => {
    const schema = object({ a: int }, [{ rule: 'self.nope == 1' }, { rule: 'self.a' }, { rule: 'true' }]);
    const errs = messages(schema, { a: 1 });
    assert.equal(errs.length, 2);
    assert.match(errs[0]!, /^<nil>: Invalid value: "object": rule compile error: compilation failed: /);
    assert.equal(errs[1], '<nil>: Invalid value: "object": rule compile error: cel expression must evaluate to a bool');
  });

  test("schema errors that block rules yield kube's single notice", () => {
    const schema = flunderV1alpha1 as JSONSchemaProps;
    const obj = { spec: { referenceType: 'Fischer' } };
    assert.deepEqual(validateCELRules(schema, obj, undefined, [{ type: 'FieldValueNotSupported', field: 'spec.referenceType', badValue: 'x', detail: '' }]).map(formatFieldError), [
      '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
    assert.equal(validateCELRules(schema, obj, undefined, [{ type: 'FieldValueInvalid', field: 'spec.reference', badValue: 'x', detail: '' }]).length, 1);
    assert.deepEqual(validateCELRules({ type: 'object', properties: { a: str } }, {}, undefined, []), []);
  });
});

describe('transition rules', () => {
  const immutable = { rule: 'self == oldSelf', message: 'is immutable' };

  test('run only on update, where the old value correlates by property name', () => {
    const schema = object({ spec: object({ a: { ...str, 'x-kubernetes-validations': [immutable] }, b: str }) });
    assert.deepEqual(messages(schema, { spec: { a: 'x' } }), []);
    assert.deepEqual(messages(schema, { spec: { a: 'x' } }, { spec: {} }), []);
    assert.deepEqual(messages(schema, { spec: { a: 'x' } }, { spec: { a: 'x' } }), []);
    assert.deepEqual(messages(schema, { spec: { a: 'y' } }, { spec: { a: 'x' } }), ['spec.a: Invalid value: "string": is immutable']);
  });

  test('objects compare by fields, including fields rules cannot see', () => {
    const schema = object({ spec: { ...object({ a: str }), 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-validations': [immutable] } });
    assert.deepEqual(messages(schema, { spec: { a: 'x', extra: [1, { b: 2 }] } }, { spec: { a: 'x', extra: [1, { b: 2 }] } }), []);
    assert.deepEqual(messages(schema, { spec: { a: 'x', extra: [1, { b: 3 }] } }, { spec: { a: 'x', extra: [1, { b: 2 }] } }), ['spec: Invalid value: "object": is immutable']);
  });

  test('list-type=map items correlate by their keys; atomic and set lists never', () => {
    const item = { ...object({ name: str, value: int }, [{ rule: 'self.value >= oldSelf.value', message: 'may not decrease' }]), required: ['name'] };
    const schema = object({
      keyed: { type: 'array', items: item, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] },
      atomic: { type: 'array', items: item },
    });
    const old = {
      keyed: [
        { name: 'a', value: 5 },
        { name: 'b', value: 5 },
      ],
      atomic: [{ name: 'a', value: 5 }],
    };
    assert.deepEqual(
      messages(
        schema,
        {
          keyed: [
            { name: 'b', value: 4 },
            { name: 'a', value: 6 },
            { name: 'c', value: 0 },
          ],
          atomic: [{ name: 'a', value: 1 }],
        },
        old,
      ),
      ['keyed[0]: Invalid value: "object": may not decrease'],
    );
  });

  test('list types: map lists compare and merge by key, sets compare and join as sets', () => {
    const conditions: JSONSchemaProps = {
      type: 'array',
      items: { ...object({ type: str, status: str }), required: ['type'] },
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['type'],
    };
    const tags: JSONSchemaProps = { type: 'array', items: str, 'x-kubernetes-list-type': 'set' };
    const schema = object({ conditions: { ...conditions, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'conditions are immutable' }] }, tags }, [
      { rule: "(oldSelf.conditions + self.conditions).map(c, c.type + '=' + c.status) == ['A=True', 'B=False', 'C=True']", message: 'merge by key' },
      { rule: "self.tags + ['y', 'z'] == ['z', 'y', 'x'] && self.tags == oldSelf.tags", message: 'set union and equality' },
    ]);
    const old = {
      conditions: [
        { type: 'A', status: 'True' },
        { type: 'B', status: 'True' },
      ],
      tags: ['x'],
    };
    assert.deepEqual(
      messages(
        schema,
        {
          conditions: [
            { type: 'C', status: 'True' },
            { type: 'B', status: 'False' },
          ],
          tags: ['x'],
        },
        old,
      ),
      ['conditions: Invalid value: "array": conditions are immutable'],
    );
    assert.deepEqual(
      messages(
        schema,
        {
          conditions: [
            { type: 'B', status: 'True' },
            { type: 'A', status: 'True' },
          ],
          tags: ['x'],
        },
        old,
      ),
      ['<nil>: Invalid value: "object": merge by key'],
    );
    assert.deepEqual(
      messages(
        schema,
        {
          conditions: [
            { type: 'B', status: 'True' },
            { type: 'A', status: 'True' },
          ],
          tags: ['x', 'x2'],
        },
        old,
      ),
      ['<nil>: Invalid value: "object": merge by key', '<nil>: Invalid value: "object": set union and equality'],
    );
  });

  test('map values correlate by key', () => {
    const schema = object({ m: { type: 'object', additionalProperties: { ...int, 'x-kubernetes-validations': [{ rule: 'self >= oldSelf', message: 'may not decrease' }] } } });
    assert.deepEqual(messages(schema, { m: { a: 1, b: 9 } }, { m: { a: 2, c: 10 } }), ['m[a]: Invalid value: "integer": may not decrease']);
  });

  test('optionalOldSelf rules also run on create, with oldSelf none', () => {
    const schema = object({
      a: { ...str, 'x-kubernetes-validations': [{ rule: "oldSelf.hasValue() ? self == oldSelf.value() : self == 'initial'", optionalOldSelf: true, message: 'starts as initial, then immutable' }] },
    });
    assert.deepEqual(messages(schema, { a: 'initial' }), []);
    assert.deepEqual(messages(schema, { a: 'other' }), ['a: Invalid value: "string": starts as initial, then immutable']);
    assert.deepEqual(messages(schema, { a: 'other' }, { a: 'other' }), []);
    assert.deepEqual(messages(schema, { a: 'changed' }, { a: 'other' }), ['a: Invalid value: "string": starts as initial, then immutable']);
    const described = object({
      a: {
        ...str,
        'x-kubernetes-validations': [
          { rule: 'oldSelf.hasValue() && self == oldSelf.value()', optionalOldSelf: true, messageExpression: "oldSelf.hasValue() ? 'was ' + oldSelf.value() : 'new value'" },
        ],
      },
    });
    assert.deepEqual(messages(described, { a: 'x' }), ['a: Invalid value: "string": new value']);
    assert.deepEqual(messages(described, { a: 'x' }, { a: 'y' }), ['a: Invalid value: "string": was y']);
  });

  test('ratcheting: an unchanged value that fails a non-transition rule only warns', () => {
    const schema = object({
      a: { ...int, 'x-kubernetes-validations': [{ rule: 'self < 5', message: 'too big' }] },
      b: { ...int, 'x-kubernetes-validations': [{ rule: 'self < 5', message: 'too big' }] },
    });
    const warnings: string[] = [];
    const opts = { ratcheting: true, warn: (w: string) => warnings.push(w) };
    assert.deepEqual(messages(schema, { a: 9, b: 9 }, { a: 9, b: 1 }, opts), ['b: Invalid value: "integer": too big']);
    assert.deepEqual(warnings, ['a: Invalid value: "integer": too big']);
    assert.deepEqual(messages(schema, { a: 9, b: 9 }, { a: 9, b: 1 }), ['a: Invalid value: "integer": too big', 'b: Invalid value: "integer": too big']);
  });
});

describe('compiled once per schema', () => {
  test('hasRules and repeated validation reuse the compiled tree', () => {
    const schema = object({ a: int }, [{ rule: 'self.a > 0' }]);
    assert.equal(validator.hasRules(schema, false), true);
    assert.equal(validator.hasRules(object({ a: int }), false), false);
    for (let i = 0; i < 3; i++) assert.equal(messages(schema, { a: i }).length, i === 0 ? 1 : 0);
  });
});

describe('numbers Go decodes as float64 (UnstructuredToVal, v0.32.9 pkg/cel/common/values.go)', () => {
  const F = Symbol.for('k8s.io/float64-literal-keys');
  const marked = <T extends object>(o: T, ...keys: string[]): T => Object.defineProperty(o, F, { value: new Set(keys) });
  const schema = object({ replicas: int, min: int, ratio: { type: 'number' }, l: { type: 'array', items: { ...int, 'x-kubernetes-validations': [{ rule: 'self >= 0' }] } } }, [
    { rule: 'self.min <= self.replicas', message: 'min must not exceed replicas' },
    { rule: 'has(self.ratio) ? self.ratio > 0.0 : true' },
  ]);
  test('an integer field holding a float64 (1.0) fails the rules reading it; a number field takes it', () => {
    assert.deepEqual(messages(schema, marked({ replicas: 1, min: 0, ratio: 1 }, 'replicas', 'ratio')), [
      '<nil>: Invalid value: "object": invalid data, expected int, got float64 evaluating rule: min must not exceed replicas',
    ]);
    assert.deepEqual(messages(schema, { replicas: 1, min: 0, ratio: 1 }), []);
  });
  test('a float64 self at an integer node (a list item 2.0) fails its rules', () => {
    assert.deepEqual(messages(schema, { replicas: 1, min: 0, l: marked([1, 2], '1') }), ['l[1]: Invalid value: "integer": invalid data, expected int, got float64 evaluating rule: self >= 0']);
  });
});
