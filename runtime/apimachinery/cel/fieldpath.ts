import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import { propertySchema } from '../schema/property.js';

/**
 * Field paths as kube's field.Path prints them: properties joined with `.`, list indexes and
 * map keys in brackets, unquoted (`spec.ports[0]`, `metadata.labels[app.kubernetes.io/name]`).
 * The root is undefined (a nil *Path, printed `<nil>`).
 */
export type FieldPath = string | undefined;

export const child = (p: FieldPath, name: string): string => (p === undefined ? name : `${p}.${name}`);
export const key = (p: FieldPath, k: string): string => `${p ?? ''}[${k}]`;
export const index = (p: FieldPath, i: number): string => `${p ?? ''}[${i}]`;
export const fieldString = (p: FieldPath): string => p ?? '<nil>';

/**
 * ValidFieldPath: a rule's fieldPath (`.reference`, `.spec['a.b']`, `['key']`) checked against
 * the schema it is declared on and printed as a relative path (`reference`, `spec.a.b`,
 * `[key]`); undefined when it does not name a field of the schema.
 */
export function normalizeFieldPath(jsonPath: string, schema: JSONSchemaProps): string | undefined {
  const tokens = tokenize(jsonPath);
  if (tokens === undefined) return undefined;
  let node: JSONSchemaProps | undefined = schema;
  let path: FieldPath;
  const step = (name: string): boolean => {
    if (node === undefined) return false;
    if (node.properties !== undefined) {
      node = propertySchema(node, name);
      if (node === undefined) return false;
      path = child(path, name);
      return true;
    }
    if (typeof node.additionalProperties === 'object') {
      node = node.additionalProperties;
      path = key(path, name);
      return true;
    }
    return false;
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t === '.') {
      const name = tokens[++i];
      if (name === undefined || name === '.' || name === '[' || name === ']' || !step(name)) return undefined;
    } else if (t === '[') {
      const quoted = tokens[++i];
      if (quoted === undefined || quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'")) return undefined;
      const name = unescapeSingleQuoted(quoted.slice(1, -1));
      if (name === undefined || !step(name) || tokens[++i] !== ']') return undefined;
    } else {
      return undefined;
    }
  }
  return path;
}

/** Delimiters `.`, `[`, `]` as tokens; single-quoted strings whole (with their quotes); the rest between. */
function tokenize(s: string): string[] | undefined {
  const out: string[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (c === "'") {
      let j = i + 1;
      while (j < s.length && !(s[j] === "'" && s[j - 1] !== '\\')) j++;
      if (j >= s.length) return undefined;
      out.push(s.slice(i, j + 1));
      i = j + 1;
    } else if (c === '.' || c === '[' || c === ']') {
      out.push(c);
      i++;
    } else {
      let j = i;
      while (j < s.length && !'.[]'.includes(s[j]!)) j++;
      out.push(s.slice(i, j));
      i = j;
    }
  }
  return out;
}

const ESCAPES: Readonly<Record<string, string>> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };

function unescapeSingleQuoted(s: string): string | undefined {
  let ok = true;
  const out = s.replace(/\\./g, (m) => {
    const r = ESCAPES[m[1]!];
    if (r === undefined) ok = false;
    return r ?? '';
  });
  return ok ? out : undefined;
}
