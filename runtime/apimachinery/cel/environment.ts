import { Environment } from '@marcbachmann/cel-js';
import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';

/**
 * Builds the CEL environment of one `x-kubernetes-validations` site: `self`
 * (and `oldSelf`, for transition rules) typed from the schema node the rule
 * is declared on, as the apiserver's CEL type provider does. Objects with
 * properties become declared types, so a rule naming a field the schema does
 * not have fails to compile; maps, schemaless and int-or-string values are
 * typed as in Kubernetes (map<string, T>, dyn).
 */
export function environmentFor(schema: JSONSchemaProps): Environment {
  const env = new Environment({ homogeneousAggregateLiterals: false });
  const declared: string[] = [];
  const selfType = celType(schema, env, declared, 'Self');
  // CEL's == has no overload for declared types; Kubernetes compares objects structurally.
  for (const name of declared) {
    env.registerOperator(`${name} == ${name}`, (a: unknown, b: unknown) => deepEqual(a, b));
  }
  env.registerVariable('self', selfType);
  env.registerVariable('oldSelf', selfType);
  return env;
}

function celType(schema: JSONSchemaProps, env: Environment, declared: string[], name: string): string {
  if (schema['x-kubernetes-int-or-string'] === true) return 'dyn';
  switch (schema.type) {
    case 'string': return 'string';
    case 'integer': return 'int';
    case 'number': return 'double';
    case 'boolean': return 'bool';
    case 'array': {
      const items = Array.isArray(schema.items) ? undefined : schema.items;
      return items === undefined ? 'list<dyn>' : `list<${celType(items, env, declared, `${name}_item`)}>`;
    }
    case 'object': {
      if (schema.properties !== undefined && Object.keys(schema.properties).length > 0 && schema['x-kubernetes-preserve-unknown-fields'] !== true && schema['x-kubernetes-embedded-resource'] !== true) {
        const fields: Record<string, string> = {};
        for (const [prop, sub] of Object.entries(schema.properties)) {
          fields[prop] = celType(sub, env, declared, `${name}_${prop.replace(/[^A-Za-z0-9]/g, '_')}`);
        }
        env.registerType(name, { fields });
        declared.push(name);
        return name;
      }
      if (typeof schema.additionalProperties === 'object') {
        return `map<string, ${celType(schema.additionalProperties, env, declared, `${name}_value`)}>`;
      }
      return 'map<string, dyn>';
    }
    default:
      return 'dyn';
  }
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
