// Port of structured-merge-diff schema/equals_test.go (TestEquals): equality sees every field of every schema element.
// SMD fills random elements and checks Equals against reflect.DeepEqual; here random elements must equal
// themselves and their copies, and differ from a copy with any one field changed or removed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { deepCopyJSON } from '../../../runtime/apimachinery/serializer/jsonvalue.js';
import type { Atom, List, MapType, StructField, TypeDef, TypeRef, Union } from '../../../runtime/apimachinery/structuredmerge/schema/index.js';
import { atomEquals, listEquals, mapEquals, Schema, schemaEquals, structFieldEquals, typeDefEquals, typeRefEquals, unionEquals } from '../../../runtime/apimachinery/structuredmerge/schema/index.js';
import { Rand } from '../../fuzz/prng.js';

const SCALARS = ['numeric', 'string', 'boolean', 'untyped'] as const;
const RELATIONSHIPS = ['associative', 'atomic', 'separable'] as const;

/** Random schema elements, nested at most `depth` deep; optional booleans are only ever true (false equals absent). */
class Gen {
  constructor(private readonly r: Rand) {}

  name(): string {
    return this.r.str(1 + this.r.int(4));
  }

  /** One kind at most: atoms of several kinds compare by their first only (see the test below). */
  atom(depth: number): Atom {
    const kind = depth > 0 ? this.r.int(4) : this.r.int(2);
    if (kind === 1) return { scalar: this.r.pick(SCALARS) };
    if (kind === 2) return { list: this.list(depth - 1) };
    if (kind === 3) return { map: this.map(depth - 1) };
    return {};
  }

  typeRef(depth: number): TypeRef {
    if (depth === 0 || this.r.chance(0.3)) return { namedType: this.name() };
    return {
      ...this.atom(depth),
      ...(this.r.chance(0.3) ? { namedType: this.name() } : {}),
      ...(this.r.chance(0.3) ? { elementRelationship: this.r.pick(RELATIONSHIPS) } : {}),
      ...(this.r.chance(0.2) ? { nullable: true } : {}),
    };
  }

  list(depth: number): List {
    return {
      elementType: this.typeRef(depth),
      ...(this.r.chance(0.5) ? { elementRelationship: this.r.pick(RELATIONSHIPS) } : {}),
      ...(this.r.chance(0.5) ? { keys: this.some(() => this.name()) } : {}),
    };
  }

  map(depth: number): MapType {
    return {
      ...(this.r.chance(0.6) ? { fields: this.some(() => this.structField(depth)) } : {}),
      ...(this.r.chance(0.3) ? { unions: this.some(() => this.union()) } : {}),
      ...(this.r.chance(0.5) ? { elementType: this.typeRef(depth) } : {}),
      ...(this.r.chance(0.5) ? { elementRelationship: this.r.pick(RELATIONSHIPS) } : {}),
    };
  }

  structField(depth: number): StructField {
    return {
      name: this.name(),
      type: this.typeRef(depth),
      ...(this.r.chance(0.3) ? { default: this.r.chance(0.5) ? { [this.name()]: this.name() } : this.r.int(100) } : {}),
    };
  }

  union(): Union {
    return {
      ...(this.r.chance(0.5) ? { discriminator: this.name() } : {}),
      ...(this.r.chance(0.5) ? { deduceInvalidDiscriminator: true } : {}),
      fields: this.some(() => ({ fieldName: this.name(), discriminatorValue: this.name() })),
    };
  }

  typeDef(depth: number): TypeDef {
    return { name: this.name(), ...this.atom(depth) };
  }

  some<T>(f: () => T): T[] {
    return Array.from({ length: 1 + this.r.int(3) }, f);
  }
}

const REQUIRED = new Set(['name', 'type', 'elementType', 'fieldName', 'discriminatorValue']);

/**
 * A copy of `v` with one field changed, one list lengthened or one optional
 * non-empty part removed: never equal to `v`. Undefined when `v` has nothing to change.
 */
function mutate<T>(v: T, r: Rand): T | undefined {
  const copy = deepCopyJSON(v);
  const edits: Array<() => void> = [];
  const walk = (node: Record<string, unknown>): void => {
    for (const [k, x] of Object.entries(node)) {
      if (typeof x === 'string') {
        const choices = (SCALARS as readonly string[]).includes(x) ? SCALARS : (RELATIONSHIPS as readonly string[]).includes(x) ? RELATIONSHIPS : undefined;
        edits.push(() => (node[k] = choices ? choices[(choices.indexOf(x as never) + 1) % choices.length] : `${x}x`));
      } else if (typeof x === 'number') edits.push(() => (node[k] = x + 1));
      else if (typeof x === 'boolean') edits.push(() => (node[k] = !x));
      else if (Array.isArray(x)) {
        edits.push(() => x.push(deepCopyJSON(x[0])));
        for (const item of x)
          if (typeof item === 'object' && item !== null) walk(item as Record<string, unknown>);
          else if (typeof item === 'string') edits.push(() => (x[x.indexOf(item)] = `${item}x`));
      } else if (typeof x === 'object' && x !== null) {
        if (!REQUIRED.has(k) && Object.keys(x).length > 0) edits.push(() => delete node[k]);
        if (k === 'default') edits.push(() => (node[k] = { ...x, extra: 1 }));
        else walk(x as Record<string, unknown>);
      }
    }
  };
  walk(Array.isArray(copy) ? { items: copy } : (copy as Record<string, unknown>));
  if (edits.length === 0) return undefined;
  r.pick(edits)();
  return copy;
}

function check<T>(name: string, gen: (g: Gen) => T, eq: (a: T, b: T) => boolean): void {
  test(name, () => {
    const r = new Rand(0x5eed + name.length);
    const g = new Gen(r);
    for (let i = 0; i < 300; i++) {
      const x = gen(g);
      assert.ok(eq(x, x), `not equal to itself: ${JSON.stringify(x)}`);
      assert.ok(eq(x, deepCopyJSON(x)), `not equal to its copy: ${JSON.stringify(x)}`);
      const y = mutate(x, r);
      if (y !== undefined) assert.ok(!eq(x, y), `equal after a change:\n${JSON.stringify(x)}\n${JSON.stringify(y)}`);
    }
  });
}

describe('TestEquals', () => {
  check(
    'Schema',
    (g) => new Schema({ types: g.some(() => g.typeDef(3)) }).types,
    (a, b) => schemaEquals(new Schema({ types: a }), new Schema({ types: b })),
  );
  check('TypeDef', (g) => g.typeDef(4), typeDefEquals);
  check('TypeRef', (g) => g.typeRef(4), typeRefEquals);
  check('Atom', (g) => g.atom(4), atomEquals);
  check('Map', (g) => g.map(4), mapEquals);
  check('List', (g) => g.list(4), listEquals);
  check('StructField', (g) => g.structField(4), structFieldEquals);
  check('Union', (g) => g.union(), unionEquals);

  test('absent parts equal their zero values, as in Go', () => {
    assert.ok(mapEquals({}, { fields: [], unions: [], elementType: {} }));
    assert.ok(listEquals({ elementType: {} }, { elementType: {}, keys: [] }));
    assert.ok(typeRefEquals({ nullable: false }, {}));
    assert.ok(unionEquals({}, { deduceInvalidDiscriminator: false, fields: [] }));
    assert.ok(schemaEquals(new Schema({}), new Schema({ types: [] })));
  });

  test('an atom of several kinds compares by its first (scalar, then list, then map), as in SMD (Atom.Equals)', () => {
    const list = (k: string): List => ({ elementType: { scalar: 'string' }, keys: [k] });
    assert.ok(atomEquals({ scalar: 'untyped', list: list('a') }, { scalar: 'untyped', list: list('b') }));
    assert.ok(!atomEquals({ scalar: 'untyped', list: list('a') }, { scalar: 'untyped' }));
    assert.ok(!atomEquals({ list: list('a'), map: {} }, { list: list('b'), map: {} }));
  });
});
