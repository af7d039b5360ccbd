import { Duration } from '@marcbachmann/cel-js/evaluator';
import { ownField } from '../serializer/jsonvalue.js';
import { isFloatLiteral, isGoFloat, unstructuredGoType } from '../validation/gofloat.js';
import { markMapList } from './listtypes.js';
import { INVALID_DATA, type DeclType, type ObjectDecl } from './model.js';

/**
 * Decoded JSON → CEL values, typed by a DeclType (UnstructuredToVal): integers become bigint,
 * numbers of `type: number` stay doubles, int-or-string values are an int or a string,
 * objects become instances of their type's class holding only the fields rules can read
 * (null fields count as absent), maps become Map, set lists Set, map lists arrays marked
 * with their keys (listtypes.ts). Strings with format byte,
 * date/date-time and duration become bytes, timestamps and durations. A scalar field of an
 * object that does not fit its schema (a float64 to Go, see gofloat.ts, in an integer field) is
 * InvalidData: reading it fails the rule with UnstructuredToVal's error (`invalid data, expected
 * int, got float64`). Other values that do not fit are passed through; the evaluator then
 * reports them as type errors.
 *
 * One converter serves one validation call: a decoded object is converted once however many
 * rule-bearing nodes above it read it.
 */
export class ValueConverter {
  /** Per DeclType, since a resource root and its embedded objects may be read through two. */
  private readonly memo = new WeakMap<DeclType, WeakMap<object, unknown>>();

  /** `float`: the value is a number Go's decoder made a float64 (its holder marks it, see gofloat.ts). */
  convert(value: unknown, decl: DeclType, float = false): unknown {
    if (value === null || value === undefined) return null;
    if (typeof value === 'object') {
      let byValue = this.memo.get(decl);
      if (byValue === undefined) this.memo.set(decl, (byValue = new WeakMap()));
      const hit = byValue.get(value);
      if (hit !== undefined) return hit;
      const out = this.convertComposite(value, decl);
      byValue.set(value, out);
      return out;
    }
    return convertScalar(value, decl, float);
  }

  /** A field of an object: a scalar that does not fit its schema is InvalidData (see the class). */
  private convertField(holder: object, property: string, value: unknown, decl: DeclType): unknown {
    const float = typeof value === 'number' && isFloatLiteral(holder, property);
    return invalidData(value, decl, float) ?? this.convert(value, decl, float);
  }

  private convertComposite(value: object, decl: DeclType): unknown {
    switch (decl.kind) {
      case 'object':
        return isPlainObject(value) ? this.convertObject(value, decl) : value;
      case 'map': {
        if (!isPlainObject(value)) return value;
        const out = new Map<string, unknown>();
        for (const [k, v] of Object.entries(value)) out.set(k, this.convert(v, decl.value));
        return out;
      }
      case 'list': {
        if (!Array.isArray(value)) return value;
        const items = value.map((v: unknown) => this.convert(v, decl.items));
        if (decl.listType === 'set') return new Set(items);
        if (decl.listType === 'map') return markMapList(items, decl.schema['x-kubernetes-list-map-keys'] ?? []);
        return items;
      }
      default:
        return value;
    }
  }

  private convertObject(value: Record<string, unknown>, decl: ObjectDecl): unknown {
    const out = new decl.ctor(value);
    for (const [escaped, field] of decl.fields) {
      const v = ownField(value, field.property);
      if (v !== null && v !== undefined) out.set(escaped, this.convertField(value, field.property, v, field.type));
    }
    return out;
  }
}

/**
 * A value UnstructuredToVal turns into an error (types.NewErr): reading it, as a field of an
 * object (CelObject.get) or as `self`, fails the rule with the message.
 */
export class InvalidData {
  readonly invalidData = INVALID_DATA;
  constructor(readonly message: string) {}
}

/** UnstructuredToVal's error for a non-null value its scalar schema (or int-or-string) does not take; undefined when it fits. */
export function invalidData(value: unknown, decl: DeclType, float = false): InvalidData | undefined {
  if (value === null || value === undefined) return undefined;
  const goInt = typeof value === 'number' && !float && !isGoFloat(value);
  if (decl.kind === 'dyn') {
    return typeof value === 'string' || goInt ? undefined : new InvalidData('invalid data, expected XIntOrString value to be either a string or integer');
  }
  if (decl.kind !== 'scalar') return undefined;
  const expected = (want: string): InvalidData => new InvalidData(`invalid data, expected ${want}, got ${unstructuredGoType(value, float)}`);
  switch (decl.scalar) {
    case 'int':
      return goInt ? undefined : expected('int');
    case 'double':
      return typeof value === 'number' ? undefined : expected('float');
    case 'bool':
      return typeof value === 'boolean' ? undefined : expected('bool');
    default:
      return typeof value === 'string' ? undefined : expected('string');
  }
}

function convertScalar(value: unknown, decl: DeclType, float = false): unknown {
  if (decl.kind === 'dyn') return typeof value === 'number' && Number.isInteger(value) && !float ? BigInt(value) : value;
  if (decl.kind !== 'scalar') return value;
  switch (decl.scalar) {
    case 'int':
      return typeof value === 'number' && Number.isInteger(value) && !float ? BigInt(value) : value;
    case 'string':
    case 'double':
    case 'bool':
      return value;
    case 'bytes':
      return typeof value === 'string' ? new Uint8Array(Buffer.from(value, 'base64')) : value;
    case 'timestamp': {
      if (typeof value !== 'string') return value;
      const d = new Date(value);
      return Number.isNaN(d.getTime()) ? value : d;
    }
    case 'duration': {
      if (typeof value !== 'string') return value;
      const ms = parseDurationMillis(value);
      return ms === undefined ? value : Duration.fromMilliseconds(ms);
    }
  }
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);
}

const DURATION_UNITS_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1e3,
  m: 60e3,
  h: 3600e3,
  d: 86400e3,
  w: 604800e3,
};

/** strfmt.ParseDuration: Go durations plus d and w units, optionally with spaces before the unit. */
function parseDurationMillis(input: string): number | undefined {
  let s = input.trim();
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') return undefined;
  let total = 0;
  const part = /^(\d+(?:\.\d*)?|\.\d+)\s*(ns|us|µs|μs|ms|s|m|h|d|w)/;
  while (s !== '') {
    const m = part.exec(s);
    if (m === null) return undefined;
    total += Number(m[1]) * DURATION_UNITS_MS[m[2]!]!;
    s = s.slice(m[0].length).trimStart();
  }
  return sign * total;
}
