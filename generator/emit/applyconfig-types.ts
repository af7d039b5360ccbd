import type { JSONSchemaProps } from '../model/schema.js';
import { META_PACKAGE } from './openapi.js';

/**
 * The TypeScript type of a schema as an apply configuration: every property
 * optional at every depth, named definitions (`$ref`) as their own
 * `<Type>ApplyConfiguration`, lists and maps of those. Scalars keep the
 * object type's vocabulary (enums as literal unions, int-or-string as
 * `number | string`), and a field that preserves unknown fields takes any
 * JSON, as the server's schema does.
 */

/** The meta/v1 definitions whose apply configurations the client package provides (runtime/client/applyconfigurations.ts). */
export const META_APPLY_CONFIGURATIONS: ReadonlySet<string> = new Set(['Condition', 'LabelSelector', 'LabelSelectorRequirement', 'ObjectMeta', 'OwnerReference']);

/** Where a named definition's apply configuration comes from. */
export interface ApplyTypeRef {
  /** Project-relative module (or a package specifier). */
  readonly module: string;
  readonly name: string;
}

/** Resolves `$ref` names; records what a file must import and which definitions must be emitted. */
export interface ApplyTypeResolver {
  /** The apply configuration of a definition, or an Error's message when none can be named. */
  named(definition: string): ApplyTypeRef;
  /** The local name under which the file refers to `ref` (adds the import). */
  use(ref: ApplyTypeRef): string;
}

export function applyConfigurationName(definitionShortName: string): string {
  return `${definitionShortName}ApplyConfiguration`;
}

/** `com.example.wardle.v1alpha1.FlunderSpec` → `FlunderSpec`; `#/components/schemas/x.Y` → `Y`. */
export function definitionShortName(definition: string): string {
  const name = definitionName(definition);
  return name.slice(name.lastIndexOf('.') + 1);
}

/** A `$ref` as the model writes it (a definition name), tolerating OpenAPI component pointers. */
export function definitionName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

export function isMetaDefinition(definition: string): boolean {
  return definitionName(definition).startsWith(`${META_PACKAGE}.`);
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A property key as written in a type literal: identifiers bare, anything else quoted. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : quote(name);
}

/** A single-quoted TypeScript string literal. */
function quote(s: string): string {
  return `'${JSON.stringify(s).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

/** The apply configuration type of a schema, as TypeScript type text. */
export function applyType(s: JSONSchemaProps | boolean | undefined, r: ApplyTypeResolver): string {
  if (s === undefined || typeof s === 'boolean') return 'unknown';
  const base = nonNullable(s, r);
  return s.nullable === true && base !== 'unknown' ? `${base} | null` : base;
}

function nonNullable(s: JSONSchemaProps, r: ApplyTypeResolver): string {
  if (s.$ref !== undefined) return r.use(r.named(s.$ref));
  const single = s.allOf?.length === 1 ? s.allOf[0] : undefined;
  if (single?.$ref !== undefined) return r.use(r.named(single.$ref));
  if (s['x-kubernetes-int-or-string'] === true) return 'number | string';
  if (Array.isArray(s.enum) && s.enum.length > 0 && s.enum.every((e) => typeof e === 'string' || typeof e === 'number' || typeof e === 'boolean')) {
    return s.enum.map((e) => (typeof e === 'string' ? quote(e) : String(e))).join(' | ');
  }
  switch (s.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array': {
      const items = Array.isArray(s.items) ? undefined : s.items;
      const element = applyType(items, r);
      return element.includes(' ') ? `(${element})[]` : `${element}[]`;
    }
    case 'object':
      return objectType(s, r);
    default:
      return 'unknown';
  }
}

function objectType(s: JSONSchemaProps, r: ApplyTypeResolver): string {
  const properties = Object.entries(s.properties ?? {});
  if (properties.length > 0) {
    return `{ ${properties.map(([name, p]) => `${propertyKey(name)}?: ${applyType(p, r)};`).join(' ')} }`;
  }
  if (s.additionalProperties !== undefined && typeof s.additionalProperties !== 'boolean') return `Record<string, ${applyType(s.additionalProperties, r)}>`;
  return 'Record<string, unknown>';
}
