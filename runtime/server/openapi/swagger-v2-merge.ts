import { isDeepStrictEqual } from 'node:util';

/** The parts of a Swagger 2.0 document merging looks at; anything else is kept from the first document. */
export interface SwaggerV2Document {
  readonly paths: Readonly<Record<string, unknown>>;
  readonly definitions?: Readonly<Record<string, unknown>>;
  /** Shared parameters, referenced as `#/parameters/<name>` (kube-openapi emits them). */
  readonly parameters?: Readonly<Record<string, unknown>>;
  readonly [key: string]: unknown;
}

/** The named components a document may share: definitions and parameters, each with its $ref prefix. */
const COMPONENTS = [
  { field: 'definitions', prefix: '#/definitions/' },
  { field: 'parameters', prefix: '#/parameters/' },
] as const;

type ComponentField = (typeof COMPONENTS)[number]['field'];

/**
 * Merges `source` into `dest` as kube-openapi's MergeSpecsIgnorePathConflictRenamingDefinitionsAndParameters
 * does for the aggregator: paths `dest` already has are dropped from `source` (the first document
 * wins), with every definition and parameter only they used; a definition or parameter of the
 * same name and equal content is shared; one with different content is renamed `<name>_v<N>`
 * (N from 2, the first name neither document uses) and the references of `source` follow. Pure:
 * returns a new document, keys sorted.
 */
export function mergeSwaggerV2(dest: SwaggerV2Document, source: SwaggerV2Document): SwaggerV2Document {
  const keptPaths = Object.keys(source.paths)
    .filter((p) => !Object.hasOwn(dest.paths, p))
    .sort();
  if (keptPaths.length === 0) return dest;
  const filtered = filterByPaths(source, keptPaths);
  const renamed = renameConflicts(dest, filtered);
  const out: Record<string, unknown> = { ...dest, paths: sortKeys({ ...dest.paths, ...renamed.paths }) };
  for (const { field } of COMPONENTS) {
    const merged = { ...(renamed[field] ?? {}), ...(dest[field] ?? {}) };
    if (Object.keys(merged).length > 0 || dest[field] !== undefined) out[field] = sortKeys(merged);
  }
  return out as SwaggerV2Document;
}

/**
 * The document restricted to `paths` and the definitions and parameters they reach, directly or
 * through other definitions (kube-openapi's FilterSpecByPaths). Pure.
 */
export function filterSwaggerV2ByPathPrefix(doc: SwaggerV2Document, prefix: string): SwaggerV2Document {
  return filterByPaths(
    doc,
    Object.keys(doc.paths).filter((p) => p.startsWith(prefix)),
  );
}

function filterByPaths(doc: SwaggerV2Document, paths: readonly string[]): SwaggerV2Document {
  const kept: Record<string, unknown> = {};
  for (const p of [...paths].sort()) kept[p] = doc.paths[p];
  const used = new Set<string>();
  const pending: unknown[] = [kept];
  while (pending.length > 0) {
    for (const ref of collectRefs(pending.pop())) {
      if (used.has(ref)) continue;
      used.add(ref);
      const target = resolveLocalRef(doc, ref);
      if (target !== undefined) pending.push(target);
    }
  }
  const out: Record<string, unknown> = { ...doc, paths: kept };
  for (const { field, prefix } of COMPONENTS) {
    const all = doc[field];
    if (all === undefined) continue;
    out[field] = Object.fromEntries(
      Object.keys(all)
        .filter((name) => used.has(prefix + name))
        .sort()
        .map((name) => [name, all[name]]),
    );
  }
  return out as SwaggerV2Document;
}

function renameConflicts(dest: SwaggerV2Document, source: SwaggerV2Document): SwaggerV2Document {
  const renames = new Map<string, string>();
  const renamedFields: Partial<Record<ComponentField, Record<string, unknown>>> = {};
  for (const { field, prefix } of COMPONENTS) {
    const mine = source[field] ?? {};
    const theirs = dest[field] ?? {};
    const taken = new Set([...Object.keys(theirs), ...Object.keys(mine)]);
    const out: Record<string, unknown> = {};
    for (const name of Object.keys(mine).sort()) {
      if (!Object.hasOwn(theirs, name) || isDeepStrictEqual(theirs[name], mine[name])) {
        out[name] = mine[name];
        continue;
      }
      let n = 2;
      while (taken.has(`${name}_v${n}`)) n++;
      const to = `${name}_v${n}`;
      taken.add(to);
      renames.set(prefix + name, prefix + to);
      out[to] = mine[name];
    }
    renamedFields[field] = out;
  }
  const rewritten = renames.size === 0 ? { ...source, ...renamedFields } : rewriteRefs({ ...source, ...renamedFields }, renames);
  return rewritten as SwaggerV2Document;
}

/** Every `$ref` string below `value`. */
function collectRefs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) collectRefs(v, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else collectRefs(v, out);
    }
  }
  return out;
}

function resolveLocalRef(doc: SwaggerV2Document, ref: string): unknown {
  for (const { field, prefix } of COMPONENTS) {
    if (ref.startsWith(prefix)) return doc[field]?.[ref.slice(prefix.length)];
  }
  return undefined;
}

/** A copy of `value` with each `$ref` in `renames` replaced. */
function rewriteRefs(value: unknown, renames: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, renames));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = k === '$ref' && typeof v === 'string' ? (renames.get(v) ?? v) : rewriteRefs(v, renames);
  return out;
}

function sortKeys(record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
