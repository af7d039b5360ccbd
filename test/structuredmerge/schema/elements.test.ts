// Port of structured-merge-diff schema/elements_test.go: named types, fields and Resolve.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Atom, List, MapType, StructField, TypeDef, TypeRef } from '../../../runtime/apimachinery/structuredmerge/schema/index.js';
import { atomEquals, findField, Schema, typeDefEquals } from '../../../runtime/apimachinery/structuredmerge/schema/index.js';

describe('TestFindNamedType', () => {
  const cases: ReadonlyArray<{ testName: string; defs: TypeDef[]; namedType: string; expect: TypeDef | undefined }> = [
    { testName: 'existing', defs: [{ name: 'a' }, { name: 'b' }], namedType: 'a', expect: { name: 'a' } },
    { testName: 'notExisting', defs: [{ name: 'a' }, { name: 'b' }], namedType: 'c', expect: undefined },
  ];
  for (const tt of cases) {
    test(tt.testName, () => {
      const td = new Schema({ types: tt.defs }).findNamedType(tt.namedType);
      if (tt.expect === undefined) assert.equal(td, undefined);
      else assert.ok(td !== undefined && typeDefEquals(td, tt.expect));
    });
  }
});

describe('TestFindField', () => {
  const fields: StructField[] = [
    { name: 'a', type: { namedType: 'a' } },
    { name: 'b', type: { namedType: 'b' } },
  ];
  test('existing', () => {
    assert.deepEqual(findField({ fields }, 'a'), { name: 'a', type: { namedType: 'a' } });
  });
  test('notExisting', () => {
    assert.equal(findField({ fields }, 'c'), undefined);
  });
  test('field names are data: __proto__ and constructor are found only when declared', () => {
    const m: MapType = { fields: [{ name: '__proto__', type: { scalar: 'string' } }] };
    assert.deepEqual(findField(m, '__proto__'), { name: '__proto__', type: { scalar: 'string' } });
    assert.equal(findField(m, 'constructor'), undefined);
    assert.equal(findField({}, '__proto__'), undefined);
    const s = new Schema({ types: [{ name: 'constructor', scalar: 'numeric' }] });
    assert.deepEqual(s.resolve({ namedType: 'constructor' }), { scalar: 'numeric' });
    assert.equal(s.resolve({ namedType: '__proto__' }), undefined);
    assert.equal(s.findNamedType('toString'), undefined);
  });
});

describe('TestResolve', () => {
  const a: Atom = { list: { elementType: {} } };
  const b: Atom = { scalar: 'numeric' };
  const emptyMap: MapType = {};
  const emptyList: List = { elementType: {} };
  const cases: ReadonlyArray<{ testName: string; defs?: TypeDef[]; typeRef: TypeRef; expect: Atom | undefined }> = [
    { testName: 'noNamedType', typeRef: a, expect: a },
    { testName: 'notExistingNamedType', typeRef: { namedType: 'not-existing' }, expect: undefined },
    { testName: 'existingNamedType', defs: [{ name: 'existing', ...a }], typeRef: { namedType: 'existing' }, expect: a },
    {
      testName: 'invalidRelationshipOnScalarType',
      defs: [{ name: 'existing', ...b }],
      typeRef: { namedType: 'existing', elementRelationship: 'separable' },
      expect: undefined,
    },
    {
      testName: 'mapElementRelationshipNamed',
      defs: [{ name: 'existing', map: emptyMap }],
      typeRef: { namedType: 'existing', elementRelationship: 'atomic' },
      expect: { map: { elementRelationship: 'atomic' } },
    },
    { testName: 'mapElementRelationshipInlined', typeRef: { map: emptyMap, elementRelationship: 'atomic' }, expect: { map: { elementRelationship: 'atomic' } } },
    {
      testName: 'listElementRelationshipInlined',
      typeRef: { list: emptyList, elementRelationship: 'atomic' },
      expect: { list: { elementType: {}, elementRelationship: 'atomic' } },
    },
  ];
  for (const tt of cases) {
    test(tt.testName, () => {
      const atom = new Schema({ types: tt.defs ?? [] }).resolve(tt.typeRef);
      if (tt.expect === undefined) assert.equal(atom, undefined);
      else assert.ok(atom !== undefined && atomEquals(atom, tt.expect), JSON.stringify(atom));
    });
  }

  test('an override does not change the type it overrides, and is resolved the same way again', () => {
    const def: TypeDef = { name: 'm', map: { fields: [{ name: 'x', type: { scalar: 'string' } }] } };
    const s = new Schema({ types: [def] });
    const tr: TypeRef = { namedType: 'm', elementRelationship: 'atomic' };
    const first = s.resolve(tr);
    assert.equal(first?.map?.elementRelationship, 'atomic');
    assert.equal(def.map?.elementRelationship, undefined);
    assert.equal(s.resolve(tr), first);
    assert.deepEqual(first?.map && findField(first.map, 'x'), { name: 'x', type: { scalar: 'string' } });
  });
});

describe('TestCopyInto', () => {
  // SMD copies a schema with its caches; here a schema over the same types resolves the same, before and after resolving.
  const a: Atom = { list: { elementType: {} } };
  const cases: ReadonlyArray<{ testName: string; defs?: TypeDef[]; typeRef: TypeRef }> = [
    { testName: 'noNamedType', typeRef: a },
    { testName: 'notExistingNamedType', typeRef: { namedType: 'not-existing' } },
    { testName: 'existingNamedType', defs: [{ name: 'existing', ...a }], typeRef: { namedType: 'existing' } },
  ];
  for (const tt of cases) {
    test(tt.testName, () => {
      const s = new Schema({ types: tt.defs ?? [] });
      assert.deepEqual(new Schema({ types: s.types }).resolve(tt.typeRef), s.resolve(tt.typeRef));
      assert.deepEqual(new Schema({ types: s.types }).resolve(tt.typeRef), s.resolve(tt.typeRef));
    });
  }
});
