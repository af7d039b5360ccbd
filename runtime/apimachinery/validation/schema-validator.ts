import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { RE2JS } from 're2js';
import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import { childPath, type FieldError } from './field.js';

/**
 * ajv and ajv-formats (CommonJS packages), loaded when the first schema is compiled rather than
 * with this module: a server with no custom resources never compiles one, and the two hold about
 * 1 MiB of heap in every process from start to exit.
 */
function loadAjv(): { Ajv: typeof Ajv; addFormats: (ajv: Ajv) => void } {
  const require = createRequire(import.meta.url);
  return { Ajv: (require('ajv') as { Ajv: typeof Ajv }).Ajv, addFormats: require('ajv-formats') as (ajv: Ajv) => void };
}

/**
 * How many schemas one ajv instance compiles before a new one takes over. Every validator shares
 * one instance (making one, and compiling ajv's meta-schema that checks each schema, is most of
 * the cost of the first compile: a fresh start compiled it once per API group); an instance keeps
 * a value (a compiled pattern) per distinct pattern it has seen for its whole life, so under CRD
 * churn it is replaced now and then. Validators already compiled keep working.
 */
const COMPILES_PER_AJV = 1000;

/**
 * The shared ajv instances (see COMPILES_PER_AJV) and how many schemas each has compiled: one
 * that checks every schema against ajv's meta-schema first, and one for trusted schemas.
 */
const shared: { checked?: { ajv: Ajv; compiles: number }; trusted?: { ajv: Ajv; compiles: number } } = {};

/**
 * Compiles a schema on the shared ajv. The schema is then dropped from ajv's own cache: the
 * caller's cache (a WeakMap on its schema object) is what keeps the validator, so a CRD's
 * validators go with its handler, as when every validator had an instance of its own; one that
 * failed to compile leaves nothing behind.
 */
function compile(schema: JSONSchemaProps, trusted: boolean): ValidateFunction {
  const which = trusted ? 'trusted' : 'checked';
  let instance = shared[which];
  if (instance === undefined || instance.compiles >= COMPILES_PER_AJV) instance = shared[which] = { ajv: newAjv(!trusted), compiles: 0 };
  instance.compiles++;
  try {
    return instance.ajv.compile(schema);
  } finally {
    instance.ajv.removeSchema(schema);
  }
}

/**
 * Validates objects against a structural schema with ajv, reporting
 * Kubernetes field errors (`spec.replicas: Invalid value: -1: spec.replicas
 * in body should be greater than or equal to 0`). Patterns run on RE2, as
 * in the apiserver. Each schema object is compiled once and cached; every
 * validator compiles on one ajv instance, made on the first compile (see loadAjv).
 */
export class SchemaValidator {
  private readonly cache = new WeakMap<JSONSchemaProps, ValidateFunction>();
  private readonly trusted: boolean;

  /**
   * `trusted`: the schemas are codegen's (built-in kinds), checked against ajv's meta-schema by
   * the generator's tests, so compiling them skips that check and never compiles the
   * meta-schema (about 65 ms of every start). Schemas a client sent (CRDs) are always checked.
   */
  constructor(opts: { trusted?: boolean } = {}) {
    this.trusted = opts.trusted ?? false;
  }

  /**
   * The field errors of `value`; those raised at a path `ratcheted` accepts (JSON-pointer
   * segments of the value the failing keyword checked) are dropped: validation ratcheting.
   */
  validate(schema: JSONSchemaProps, value: unknown, ratcheted?: (segments: readonly string[]) => boolean): FieldError[] {
    let fn = this.cache.get(schema);
    if (fn === undefined) {
      const { $comment: _comment, ...body } = schema as JSONSchemaProps & { $comment?: string };
      fn = compile(withProtoProperties(body), this.trusted);
      this.cache.set(schema, fn);
    }
    if (fn(value)) return [];
    const raised = ratcheted === undefined ? (fn.errors ?? []) : (fn.errors ?? []).filter((e) => !ratcheted(pointerSegments(e.instancePath)));
    return raised.map(toFieldError).filter((e): e is FieldError => e !== undefined);
  }
}

/** An ajv set up for kube's structural schemas: RE2 patterns, formats, the x-kubernetes keywords. */
function newAjv(validateSchema: boolean): Ajv {
  const { Ajv, addFormats } = loadAjv();
  const ajv = new Ajv({
    validateSchema,
    allErrors: true,
    verbose: true,
    strict: false,
    ownProperties: true,
    validateFormats: true,
    // ajv's optimizing pass (dropping unused names, folding constants) is a third of the time
    // of compiling kube's schemas and leaves a validator that checks exactly the same: without
    // it the code is ~15 % longer and validates as fast (measured: a ClusterRole of 10 rules,
    // 0.4 us either way), and a fresh start compiles the schemas of the kinds it bootstraps.
    code: { regExp: re2Engine as never, optimize: false },
  });
  addFormats(ajv);
  // int-or-string without a type or anyOf of its own takes integers and strings only (kube
  // validates it as type [integer, string]); the other extensions carry no validation here.
  ajv.addKeyword({
    keyword: 'x-kubernetes-int-or-string',
    schemaType: 'boolean',
    errors: false,
    validate: (on: boolean, data: unknown, parent?: { type?: unknown; anyOf?: unknown; nullable?: unknown }) =>
      on !== true || parent?.type !== undefined || parent?.anyOf !== undefined || typeof data === 'string' || Number.isInteger(data) || (data === null && parent?.nullable === true),
  });
  for (const keyword of [
    'x-kubernetes-preserve-unknown-fields',
    'x-kubernetes-embedded-resource',
    'x-kubernetes-list-type',
    'x-kubernetes-list-map-keys',
    'x-kubernetes-map-type',
    'x-kubernetes-validations',
    'x-kubernetes-patch-strategy',
    'x-kubernetes-patch-merge-key',
  ]) {
    ajv.addKeyword(keyword);
  }
  return ajv;
}

const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'] as const;

/**
 * The schema ajv compiles: ajv skips a property named `__proto__` (its properties keyword
 * drops that key), yet in a CRD schema it is a field like any other. Such a property is
 * moved to patternProperties (`^__proto__$`), which ajv matches against the object's own
 * keys. Only schema positions are rewritten; defaults, enums and examples stay as written.
 * Exclusive bounds are OpenAPI v3.0's (kube's `exclusiveMinimum: true` beside `minimum`), which
 * ajv (draft-07: the bound itself is `exclusiveMinimum`) would refuse to compile.
 */
export function withProtoProperties(schema: JSONSchemaProps): JSONSchemaProps {
  const out: JSONSchemaProps = { ...schema };
  draft07Bound(out, 'minimum', 'exclusiveMinimum');
  draft07Bound(out, 'maximum', 'exclusiveMaximum');
  const props = schema.properties;
  if (props !== undefined) {
    const mapped: Record<string, JSONSchemaProps> = {};
    for (const [k, v] of Object.entries(props)) {
      if (k === '__proto__') out.patternProperties = { '^__proto__$': withProtoProperties(v) };
      else mapped[k] = withProtoProperties(v);
    }
    out.properties = mapped;
  }
  if (typeof schema.additionalProperties === 'object') out.additionalProperties = withProtoProperties(schema.additionalProperties);
  if (schema.items !== undefined) out.items = Array.isArray(schema.items) ? schema.items.map(withProtoProperties) : withProtoProperties(schema.items);
  if (schema.not !== undefined) out.not = withProtoProperties(schema.not);
  for (const list of SUBSCHEMA_LISTS) {
    const l = schema[list];
    if (l !== undefined) out[list] = l.map(withProtoProperties);
  }
  return out;
}

/** `{minimum: 0, exclusiveMinimum: true}` → `{exclusiveMinimum: 0}`; a false (or lone) flag bounds nothing. */
function draft07Bound(schema: JSONSchemaProps, bound: 'minimum' | 'maximum', exclusive: 'exclusiveMinimum' | 'exclusiveMaximum'): void {
  const raw = schema as Record<string, unknown>;
  if (typeof raw[exclusive] !== 'boolean') return;
  if (raw[exclusive] === true && typeof raw[bound] === 'number') {
    raw[exclusive] = raw[bound];
    delete raw[bound];
  } else delete raw[exclusive];
}

function re2Engine(pattern: string, flags = ''): { test(s: string): boolean; toString(): string } {
  const re = RE2JS.compile(pattern);
  // ajv shares compiled patterns by their toString(), as a RegExp's `/source/flags`: without
  // one of its own every pattern would be "[object Object]", and the first would serve them all.
  return { test: (s: string) => re.matcher(s).find(), toString: () => `/${pattern}/${flags}` };
}

/** `/spec/ports/0/port` → [spec, ports, 0, port]. */
function pointerSegments(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** `/spec/ports/0/port` → `spec.ports[0].port`. */
function fieldPath(pointer: string): string {
  return pointerSegments(pointer).reduce<string>((path, seg) => childPath(path, /^\d+$/.test(seg) ? Number(seg) : seg), '');
}

function toFieldError(e: ErrorObject): FieldError | undefined {
  const field = fieldPath(e.instancePath);
  const p = e.params as Record<string, unknown>;
  const inBody = `${field === '' ? '<root>' : field} in body`;
  switch (e.keyword) {
    case 'required': {
      const missing = String(p['missingProperty']);
      return { type: 'FieldValueRequired', field: childPath(field, missing), detail: '' };
    }
    case 'enum':
      return { type: 'FieldValueNotSupported', field, badValue: e.data, detail: `supported values: ${(p['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` };
    case 'type':
      return { type: 'FieldValueTypeInvalid', field, badValue: typeName(e.data), detail: `${inBody} must be of type ${String(p['type'])}: ${JSON.stringify(typeName(e.data))}` };
    case 'x-kubernetes-int-or-string':
      return { type: 'FieldValueTypeInvalid', field, badValue: typeName(e.data), detail: `${inBody} must be of type integer,string: ${JSON.stringify(typeName(e.data))}` };
    case 'pattern':
      return { type: 'FieldValueInvalid', field, badValue: e.data, detail: `${inBody} should match '${String(p['pattern'])}'` };
    case 'maxLength':
      return { type: 'FieldValueTooLong', field, badValue: e.data, detail: `may not be more than ${String(p['limit'])} bytes` };
    case 'maxItems':
      return { type: 'FieldValueTooMany', field, badValue: e.data, detail: `must have at most ${String(p['limit'])} items` };
    case 'minimum':
    case 'exclusiveMinimum':
      return {
        type: 'FieldValueInvalid',
        field,
        badValue: e.data,
        detail: `${inBody} should be greater than ${e.keyword === 'minimum' && p['comparison'] === '>=' ? 'or equal to ' : ''}${String(p['limit'])}`,
      };
    case 'maximum':
    case 'exclusiveMaximum':
      return {
        type: 'FieldValueInvalid',
        field,
        badValue: e.data,
        detail: `${inBody} should be less than ${e.keyword === 'maximum' && p['comparison'] === '<=' ? 'or equal to ' : ''}${String(p['limit'])}`,
      };
    case 'minLength':
      return { type: 'FieldValueInvalid', field, badValue: e.data, detail: `${inBody} should be at least ${String(p['limit'])} chars long` };
    case 'minItems':
      return { type: 'FieldValueInvalid', field, badValue: e.data, detail: `${inBody} should have at least ${String(p['limit'])} items` };
    case 'uniqueItems':
      return { type: 'FieldValueDuplicate', field: childPath(field, Number(p['j'])), badValue: undefined, detail: '' };
    case 'anyOf':
      return undefined; // reported by its branches
    default:
      return { type: 'FieldValueInvalid', field, badValue: e.data, detail: `${inBody} ${e.message ?? 'is invalid'}` };
  }
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v;
}
