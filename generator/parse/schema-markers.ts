import { RE2JS } from 're2js';
import type { DiagnosticSink } from '../model/diagnostics.js';
import { PATCH_MERGE_KEY, PATCH_STRATEGY, type JSONSchemaProps, type ValidationRule } from '../model/schema.js';
import type { SourceLocation } from '../model/types.js';
import type { Markers } from './markers.js';
import { VALIDATION_REASONS } from './vocabulary.js';
import { intOrString } from './schema.js';

export interface MarkerTarget {
  readonly location: SourceLocation;
  readonly sink: DiagnosticSink;
  /** What the markers are on, for messages: `property spec`, `type FlunderSpec`. */
  readonly target: string;
}

/** Where a marker was written. */
interface MarkerPosition {
  readonly line: number;
  readonly column: number;
}

type Keyword = 'numeric' | 'string' | 'array' | 'object' | 'any';

/**
 * Which kind of value each validation keyword constrains. Scalar keywords
 * written on an array property constrain its items (`@pattern` on a
 * `string[]`), which spares a named alias per constrained list.
 */
const KEYWORD_KIND: Readonly<Record<string, Keyword>> = {
  minimum: 'numeric',
  maximum: 'numeric',
  exclusiveMinimum: 'numeric',
  exclusiveMaximum: 'numeric',
  multipleOf: 'numeric',
  minLength: 'string',
  maxLength: 'string',
  pattern: 'string',
  minItems: 'array',
  maxItems: 'array',
  uniqueItems: 'array',
  listType: 'array',
  listMapKey: 'array',
  minProperties: 'object',
  maxProperties: 'object',
  mapType: 'object',
  structType: 'object',
};

/**
 * Returns `schema` with the schema markers applied. Markers that do not fit
 * the value's type (`@minLength` on a number) are reported, not applied.
 */
export function applySchemaMarkers(schema: JSONSchemaProps, markers: Markers, at: MarkerTarget): JSONSchemaProps {
  let out: JSONSchemaProps = { ...schema };
  const report = (pos: MarkerPosition, name: string, message: string): void =>
    at.sink.error({ file: at.location.file, line: pos.line, column: pos.column }, `marker @${name}: ${message} (on ${at.target})`);

  // Type-changing markers first, so later keywords check against the final type.
  const intOrStr = markers.one('intOrString');
  if (intOrStr !== undefined) out = { ...intOrString(), ...(out.description === undefined ? {} : { description: out.description }) };
  const type = markers.one('type');
  if (type !== undefined) out.type = type.value;
  if (markers.has('preserveUnknownFields')) out = preserveUnknownFields(out, markers.has('embeddedResource'));
  if (markers.has('embeddedResource')) {
    out['x-kubernetes-embedded-resource'] = true;
    out.type ??= 'object';
  }

  const itemsTarget = (name: string): JSONSchemaProps | undefined => {
    const kind = KEYWORD_KIND[name] ?? 'any';
    if (kind === 'any' || out.$ref !== undefined) return out;
    const fits = (s: JSONSchemaProps): boolean => fitsKind(s, kind);
    if (fits(out)) return out;
    if (out.type === 'array' && isSchema(out.items) && fits(out.items)) {
      out.items = { ...out.items };
      return out.items;
    }
    return undefined;
  };
  const set = <K extends keyof JSONSchemaProps>(name: string, pos: MarkerPosition, key: K, value: JSONSchemaProps[K]): void => {
    const target = itemsTarget(name);
    if (target === undefined) {
      report(pos, name, `does not apply to a value of type ${describeType(out)}`);
      return;
    }
    target[key] = value;
  };

  for (const m of markers.all('minimum')) set('minimum', m, 'minimum', m.value);
  for (const m of markers.all('maximum')) set('maximum', m, 'maximum', m.value);
  for (const m of markers.all('multipleOf')) {
    if (m.value <= 0) report(m, 'multipleOf', 'must be greater than 0');
    else set('multipleOf', m, 'multipleOf', m.value);
  }
  const exMin = markers.one('exclusiveMinimum');
  if (exMin !== undefined) {
    if (!markers.has('minimum')) report(exMin, 'exclusiveMinimum', 'needs @minimum (it makes the minimum exclusive)');
    else set('exclusiveMinimum', exMin, 'exclusiveMinimum', true);
  }
  const exMax = markers.one('exclusiveMaximum');
  if (exMax !== undefined) {
    if (!markers.has('maximum')) report(exMax, 'exclusiveMaximum', 'needs @maximum (it makes the maximum exclusive)');
    else set('exclusiveMaximum', exMax, 'exclusiveMaximum', true);
  }
  const min = markers.one('minimum')?.value;
  const max = markers.one('maximum')?.value;
  if (min !== undefined && max !== undefined && min > max) report(markers.one('maximum')!, 'maximum', `${max} is below @minimum ${min}`);

  for (const m of markers.all('minLength')) nonNegative(m.value, m, 'minLength') && set('minLength', m, 'minLength', m.value);
  for (const m of markers.all('maxLength')) nonNegative(m.value, m, 'maxLength') && set('maxLength', m, 'maxLength', m.value);
  for (const m of markers.all('pattern')) {
    const problem = re2Problem(m.value);
    if (problem !== undefined) report(m, 'pattern', `not a valid RE2 regular expression: ${problem}`);
    else set('pattern', m, 'pattern', m.value);
  }
  for (const m of markers.all('format')) set('format', m, 'format', m.value);
  for (const m of markers.all('minItems')) nonNegative(m.value, m, 'minItems') && set('minItems', m, 'minItems', m.value);
  for (const m of markers.all('maxItems')) nonNegative(m.value, m, 'maxItems') && set('maxItems', m, 'maxItems', m.value);
  for (const m of markers.all('uniqueItems')) set('uniqueItems', m, 'uniqueItems', true);
  for (const m of markers.all('minProperties')) nonNegative(m.value, m, 'minProperties') && set('minProperties', m, 'minProperties', m.value);
  for (const m of markers.all('maxProperties')) nonNegative(m.value, m, 'maxProperties') && set('maxProperties', m, 'maxProperties', m.value);

  for (const m of markers.all('enum')) {
    const target = out.type === 'array' && isSchema(out.items) ? (out.items = { ...out.items }) : out;
    const numeric = target.type === 'integer' || target.type === 'number';
    const values = m.value.map((v) => (numeric ? Number(v) : v));
    if (numeric && values.some((v) => Number.isNaN(v))) report(m, 'enum', 'values of a numeric type must be numbers');
    else target.enum = values;
  }

  for (const m of markers.all('nullable')) {
    void m;
    out.nullable = true;
  }
  for (const m of markers.all('default')) {
    if (m.value === undefined) report(m, 'default', 'needs a JSON value (quote strings with spaces)');
    else out.default = m.value;
  }
  for (const m of markers.all('example')) out.example = m.value;
  for (const m of markers.all('title')) out.title = m.value;

  const listType = markers.one('listType');
  if (listType !== undefined) set('listType', listType, 'x-kubernetes-list-type', listType.value);
  const mapKeys = markers.all('listMapKey');
  if (mapKeys.length > 0) {
    if (listType?.value !== 'map') report(mapKeys[0]!, 'listMapKey', 'needs @listType map');
    else
      set(
        'listMapKey',
        mapKeys[0]!,
        'x-kubernetes-list-map-keys',
        mapKeys.map((k) => k.value),
      );
  } else if (listType?.value === 'map') {
    report(listType, 'listType', '@listType map needs at least one @listMapKey');
  }
  const mapType = markers.one('mapType');
  if (mapType !== undefined) set('mapType', mapType, 'x-kubernetes-map-type', mapType.value);
  const structType = markers.one('structType');
  if (structType !== undefined) set('structType', structType, 'x-kubernetes-map-type', structType.value);

  const rules: ValidationRule[] = [...(out['x-kubernetes-validations'] ?? [])];
  for (const m of markers.all('validation')) {
    const v = m.value.values;
    const rule: ValidationRule = { rule: String(v['rule']) };
    if (v['message'] !== undefined) rule.message = String(v['message']);
    if (v['messageExpression'] !== undefined) rule.messageExpression = String(v['messageExpression']);
    if (v['fieldPath'] !== undefined) rule.fieldPath = String(v['fieldPath']);
    if (v['reason'] !== undefined) {
      const reason = String(v['reason']);
      if (!REASONS.has(reason)) report(m, 'validation', `reason must be one of ${[...REASONS].join(', ')}`);
      rule.reason = reason;
    }
    rules.push(rule);
  }
  if (markers.has('immutable')) rules.push({ rule: 'self == oldSelf', message: 'Value is immutable' });
  if (rules.length > 0) out['x-kubernetes-validations'] = rules;

  const strategy = markers.one('patchStrategy');
  if (strategy !== undefined) (out as Record<string, unknown>)[PATCH_STRATEGY] = strategy.value;
  const mergeKey = markers.one('patchMergeKey');
  if (mergeKey !== undefined) (out as Record<string, unknown>)[PATCH_MERGE_KEY] = mergeKey.value;

  return out;

  function nonNegative(value: number, pos: MarkerPosition, name: string): boolean {
    if (value >= 0) return true;
    report(pos, name, 'must not be negative');
    return false;
  }
}

const REASONS: ReadonlySet<string> = new Set(VALIDATION_REASONS);

/**
 * `@preserveUnknownFields` keeps the fields a schema does not know. A list or a
 * map (additionalProperties) has no fields of its own to keep, so on those it
 * applies to the items or values, as item keywords do (`unknown[]`,
 * `Record<string, T>`); an embedded resource keeps it on itself.
 */
function preserveUnknownFields(s: JSONSchemaProps, embedded: boolean): JSONSchemaProps {
  const flag = { 'x-kubernetes-preserve-unknown-fields': true } as const;
  if (s.type === 'array' && isSchema(s.items)) return { ...s, items: { ...s.items, ...flag } };
  const map = s.type === 'object' && s.properties === undefined && typeof s.additionalProperties === 'object';
  if (map && !embedded) return { ...s, additionalProperties: { ...(s.additionalProperties as JSONSchemaProps), ...flag } };
  return { ...s, ...flag };
}

function isSchema(items: JSONSchemaProps['items']): items is JSONSchemaProps {
  return items !== undefined && !Array.isArray(items);
}

function fitsKind(s: JSONSchemaProps, kind: Keyword): boolean {
  switch (kind) {
    case 'numeric':
      return s.type === 'integer' || s.type === 'number' || s['x-kubernetes-int-or-string'] === true;
    case 'string':
      return s.type === 'string' || s['x-kubernetes-int-or-string'] === true;
    case 'array':
      return s.type === 'array';
    case 'object':
      return s.type === 'object';
    case 'any':
      return true;
  }
}

function describeType(s: JSONSchemaProps): string {
  if (s.type === 'array' && isSchema(s.items)) return `array of ${describeType(s.items)}`;
  return s.type ?? (s['x-kubernetes-int-or-string'] === true ? 'int-or-string' : 'any');
}

/** Kubernetes evaluates `pattern` with Go's RE2, so patterns are checked with an RE2 engine. */
function re2Problem(pattern: string): string | undefined {
  try {
    RE2JS.compile(pattern);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
