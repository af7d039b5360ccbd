import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/types.js';
import { propertySchema } from '../../apimachinery/schema/property.js';

export interface ResolvedFieldPath {
  /** The path in kube's field.Path spelling (`spec.a`, `spec.m[k]`); set when valid. */
  readonly path?: string;
  /** The schema the path leads to; set when valid. */
  readonly schema?: JSONSchemaProps;
  /** Why the path is not valid for the schema. */
  readonly error?: string;
}

/**
 * ValidFieldPath: a JSON path of field accessors (`.a.b`) and, when allowed, quoted map or
 * field accessors (`['a.b']`), each naming a property of the schema (or a key of its
 * additionalProperties). Returns the path kube prints and the schema it reaches.
 */
export function validFieldPath(jsonPath: string, root: JSONSchemaProps, allowArrayNotation: boolean): ResolvedFieldPath {
  let schema: JSONSchemaProps | undefined = root;
  let path = '';
  const step = (name: string): string | undefined => {
    if (schema?.properties !== undefined) {
      const next = propertySchema(schema, name);
      if (next === undefined) return 'does not refer to a valid field';
      path = path === '' ? name : `${path}.${name}`;
      schema = next;
      return undefined;
    }
    if (typeof schema?.additionalProperties === 'object') {
      path = `${path}[${name}]`;
      schema = schema.additionalProperties;
      return undefined;
    }
    return 'does not refer to a valid field';
  };
  const tokens = tokenize(jsonPath);
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i] as string;
    if (tok === '.') {
      const name = tokens[++i];
      if (name === undefined) return { error: 'unexpected end of JSON path' };
      const err = step(name);
      if (err !== undefined) return { error: err };
    } else if (tok === '[') {
      if (!allowArrayNotation) return { error: 'array notation is not allowed' };
      const quoted = tokens[++i];
      if (quoted === undefined) return { error: 'unexpected end of JSON path' };
      if (quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'")) return { error: `expected single quoted string but got ${quoted}` };
      const err = step(quoted.slice(1, -1).replace(/\\'/g, "'").replace(/\\\\/g, '\\'));
      if (err !== undefined) return { error: err };
      const close = tokens[++i];
      if (close === undefined) return { error: 'unexpected end of JSON path' };
      if (close !== ']') return { error: `expected ] but got ${close}` };
    } else {
      return { error: `expected [ or . but got: ${tok}` };
    }
  }
  return { path, schema };
}

/** Splits at `.`, `[` and `]` (each its own token); single-quoted strings stay whole. */
function tokenize(s: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i] as string;
    if (c === '.' || c === '[' || c === ']') {
      out.push(c);
      i++;
    } else if (c === "'") {
      let j = i + 1;
      while (j < s.length && !(s[j] === "'" && s[j - 1] !== '\\')) j++;
      out.push(s.slice(i, j + 1));
      i = j + 1;
    } else {
      let j = i;
      while (j < s.length && !'.[]'.includes(s[j] as string)) j++;
      out.push(s.slice(i, j));
      i = j;
    }
  }
  return out;
}
