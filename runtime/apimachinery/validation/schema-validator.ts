import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { RE2JS } from 're2js';
import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import { quote } from '../util/strconv.js';
import { childPath, formatGoFloat, GoValue, type FieldError } from './field.js';
import { isFloat64AJSONInteger, isGoFloat } from './gofloat.js';

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
    return inKubeOrder(raised)
      .map((e) => toFieldError(e, value))
      .filter((e): e is FieldError => e !== undefined);
  }
}

/** What kube-openapi's type validator checks at a node: the schema's types, nullable, format. */
interface KubeType {
  readonly type: readonly string[];
  readonly nullable: boolean;
  readonly format: string;
}

/** The keyword standing for kube-openapi's typeValidator (the schema's type, nullable and format). */
const KUBE_TYPE = 'x-kube-type';

/**
 * kube-openapi's typeValidator.Validate (k8s.io/kube-openapi of apiextensions-apiserver v0.32.9):
 * the JSON type and format kube infers from the Go value (int64 `integer`/`int64`, float64
 * `number`/`float64`, …) against the schema's; a float64 passes an integer type when
 * IsFloat64AJSONInteger says it is one. With a format, a value that is neither a string nor a
 * list must have the type or the format (`must be of type int32: "float64"`, `: ""` for a
 * bool). Returns the type it names and the value it quotes.
 */
function kubeTypeError(spec: KubeType, data: unknown, container: unknown, key: string | number | undefined): { type: string; value: string } | undefined {
  const types = spec.type;
  if (data === null || data === undefined) {
    return types.length > 0 && !types.includes('null') && !spec.nullable ? { type: types.join(','), value: 'null' } : undefined;
  }
  const [schType, format] = goSchemaInfo(data, container, key);
  const isFloatInt = schType === 'number' && isFloat64AJSONInteger(data as number) && types.includes('integer');
  const isIntFloat = schType === 'integer' && types.includes('number');
  const stringOrSlice = typeof data === 'string' || Array.isArray(data);
  if (!stringOrSlice && spec.format !== '' && !(types.includes(schType) || format === spec.format || isFloatInt || isIntFloat)) return { type: spec.format, value: format };
  if (!(types.includes('number') || types.includes('integer')) && spec.format !== '' && stringOrSlice) return undefined;
  if (!(types.includes(schType) || isFloatInt || isIntFloat)) return { type: types.join(','), value: schType };
  return undefined;
}

/** typeValidator.schemaInfoForType of the Go value an unstructured decode makes. */
function goSchemaInfo(data: unknown, container: unknown, key: string | number | undefined): [string, string] {
  if (typeof data === 'boolean') return ['boolean', ''];
  if (typeof data === 'string') return ['string', ''];
  if (typeof data === 'number') return isGoFloat(data, container, key) ? ['number', 'float64'] : ['integer', 'int64'];
  if (Array.isArray(data)) return ['array', ''];
  return ['object', ''];
}

/** The x-kube-type keyword's validate function; ajv reads the errors it leaves on itself. */
function validateKubeType(spec: KubeType, data: unknown, _parent?: unknown, cxt?: { parentData?: unknown; parentDataProperty?: string | number }): boolean {
  const err = kubeTypeError(spec, data, cxt?.parentData, cxt?.parentDataProperty);
  if (err === undefined) return true;
  (validateKubeType as { errors?: Array<Partial<ErrorObject>> }).errors = [{ keyword: KUBE_TYPE, params: err }];
  return false;
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
  // kube-openapi's format validator checks strings only (formatValidator.Applies): ajv-formats'
  // number formats would refuse 3000000000 for int32, which kube takes.
  for (const format of ['int32', 'int64', 'float', 'double']) ajv.addFormat(format, { type: 'number', validate: () => true });
  // kube-openapi's type validator, in place of ajv's type and nullable (see withProtoProperties);
  // the extensions carry no validation here.
  ajv.addKeyword({ keyword: KUBE_TYPE, schemaType: 'object', errors: true, validate: validateKubeType });
  for (const keyword of [
    'x-kubernetes-int-or-string',
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
 * ajv (draft-07: the bound itself is `exclusiveMinimum`) would refuse to compile. The type,
 * nullable and format's type check are kube-openapi's typeValidator (x-kube-type), which knows
 * the numbers Go holds as float64; int-or-string is its type [integer, string] (ConvertJSONSchemaProps),
 * left to the anyOf branches where it has them.
 */
export function withProtoProperties(schema: JSONSchemaProps): JSONSchemaProps {
  const out: JSONSchemaProps = { ...schema };
  kubeType(out);
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

/** Replaces the node's type and nullable by x-kube-type, where kube's typeValidator applies. */
function kubeType(schema: JSONSchemaProps): void {
  const raw = schema as Record<string, unknown>;
  const intOrString = raw['x-kubernetes-int-or-string'] === true;
  let type: string[] = typeof raw['type'] === 'string' && raw['type'] !== '' ? [raw['type']] : [];
  if (intOrString) type = raw['anyOf'] === undefined ? ['integer', 'string'] : [];
  const format = typeof raw['format'] === 'string' ? raw['format'] : '';
  const nullable = raw['nullable'] === true;
  delete raw['type'];
  delete raw['nullable'];
  if (type.length > 0 || format !== '') raw[KUBE_TYPE] = { type, nullable, format } satisfies KubeType;
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

/**
 * An error's value as kube holds it: a number Go decoded as a float64 (see gofloat.ts) is
 * printed as one (`1e+06` for `1000000.0`), other values as they are.
 */
function goData(e: ErrorObject, root: unknown): unknown {
  const data: unknown = e.data;
  if (typeof data !== 'number') return data;
  const segments = pointerSegments(e.instancePath);
  let container: unknown;
  let cur = root;
  for (const seg of segments) {
    container = cur;
    cur = typeof cur === 'object' && cur !== null && Object.hasOwn(cur, seg) ? (cur as Record<string, unknown>)[seg] : undefined;
  }
  return isGoFloat(data, container, segments[segments.length - 1]) ? new GoValue(formatGoFloat(data)) : data;
}

function toFieldError(e: ErrorObject, root: unknown): FieldError | undefined {
  const field = fieldPath(e.instancePath);
  const p = e.params as Record<string, unknown>;
  const inBody = `${field === '' ? '<root>' : field} in body`;
  switch (e.keyword) {
    case 'required': {
      const missing = String(p['missingProperty']);
      return { type: 'FieldValueRequired', field: childPath(field, missing), detail: '' };
    }
    case 'enum':
      return { type: 'FieldValueNotSupported', field, badValue: goData(e, root), detail: `supported values: ${(p['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` };
    case KUBE_TYPE:
      return { type: 'FieldValueTypeInvalid', field, badValue: String(p['value']), detail: `${inBody} must be of type ${String(p['type'])}: ${quote(String(p['value']))}` };
    case 'type':
      return { type: 'FieldValueTypeInvalid', field, badValue: typeName(e.data), detail: `${inBody} must be of type ${String(p['type'])}: ${JSON.stringify(typeName(e.data))}` };
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
        badValue: goData(e, root),
        detail: `${inBody} should be greater than ${e.keyword === 'minimum' && p['comparison'] === '>=' ? 'or equal to ' : ''}${String(p['limit'])}`,
      };
    case 'maximum':
    case 'exclusiveMaximum':
      return {
        type: 'FieldValueInvalid',
        field,
        badValue: goData(e, root),
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
      return { type: 'FieldValueInvalid', field, badValue: goData(e, root), detail: `${inBody} ${e.message ?? 'is invalid'}` };
  }
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v;
}

/**
 * Where each check's errors stand among a node's in kube-openapi's SchemaValidator: the type
 * validator, the allOf/anyOf/oneOf/not branches, the string checks, format, the number checks
 * (multipleOf, minimum, maximum), the list's items then its item counts, enum, and the object
 * validator: property counts, properties additionalProperties: false refuses, the values of
 * additional and pattern properties, the declared properties, and Required last.
 */
const KEYWORD_RANK: Readonly<Record<string, number>> = {
  [KUBE_TYPE]: 0,
  type: 0,
  allOf: 1,
  anyOf: 1,
  oneOf: 1,
  not: 1,
  maxLength: 2,
  minLength: 2.1,
  pattern: 2.2,
  format: 3,
  multipleOf: 4,
  minimum: 4.1,
  exclusiveMinimum: 4.1,
  maximum: 4.2,
  exclusiveMaximum: 4.2,
  minItems: 5.1,
  maxItems: 5.2,
  uniqueItems: 5.3,
  enum: 6,
  minProperties: 7,
  maxProperties: 7.1,
  additionalProperties: 7.2,
  required: 7.5,
};
const ITEM_RANK = 5;
const ADDITIONAL_PROPERTY_RANK = 7.3;
const PROPERTY_RANK = 7.4;
const OTHER_RANK = 6.5;
const STRING_CHECKS: ReadonlySet<string> = new Set(['maxLength', 'minLength', 'pattern']);

/**
 * ajv's errors in the order kube-openapi's validator reports them (its checks per node, see
 * KEYWORD_RANK; a node's children in full, one after another, where their errors first appear in
 * ajv's; Go iterates a schema's properties in random order). The string checks stop at the first
 * that fails, as kube's stringValidator does.
 */
function inKubeOrder(errors: readonly ErrorObject[]): ErrorObject[] {
  if (errors.length < 2) return [...errors];
  const firstSeen = new Map<string, number>();
  const keys = errors.map((e, i) => orderKey(e, i, firstSeen));
  const order = errors.map((_, i) => i).sort((a, b) => compareKeys(keys[a]!, keys[b]!) || a - b);
  const stringChecked = new Set<string>();
  const out: ErrorObject[] = [];
  for (const i of order) {
    const e = errors[i]!;
    if (STRING_CHECKS.has(e.keyword)) {
      const node = `${e.instancePath}\u0000${e.schemaPath.slice(0, e.schemaPath.lastIndexOf('/'))}`;
      if (stringChecked.has(node)) continue;
      stringChecked.add(node);
    }
    out.push(e);
  }
  return out;
}

/** The error's place: per node on its way, the rank of the step (and which child), then its check's rank. */
function orderKey(e: ErrorObject, index: number, firstSeen: Map<string, number>): number[] {
  const segs = e.schemaPath.replace(/^#\/?/, '').split('/');
  const inst = pointerSegments(e.instancePath);
  const key: number[] = [];
  let depth = 0;
  const child = (rank: number): void => {
    const at = inst.slice(0, depth + 1).join('/');
    let seen = firstSeen.get(at);
    if (seen === undefined) firstSeen.set(at, (seen = index));
    key.push(rank, rank === ITEM_RANK ? Number(inst[depth]) : seen);
    depth++;
  };
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i]!;
    const last = i === segs.length - 1;
    if ((s === 'allOf' || s === 'anyOf' || s === 'oneOf') && !last) {
      key.push(1, Number(segs[++i]));
    } else if (s === 'not' && !last) {
      key.push(1, 0);
    } else if (s === 'properties' && !last) {
      i++;
      child(PROPERTY_RANK);
    } else if (s === 'patternProperties' && !last) {
      child(decodeURIComponent(segs[++i]!) === '^__proto__$' ? PROPERTY_RANK : ADDITIONAL_PROPERTY_RANK);
    } else if (s === 'additionalProperties' && !last) {
      child(ADDITIONAL_PROPERTY_RANK);
    } else if (s === 'items' && !last) {
      if (/^\d+$/.test(segs[i + 1]!)) i++;
      child(ITEM_RANK);
    } else {
      key.push(KEYWORD_RANK[s] ?? OTHER_RANK);
      break;
    }
  }
  return key;
}

function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
