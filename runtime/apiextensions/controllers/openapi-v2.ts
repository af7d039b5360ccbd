// kube's ToStructuralOpenAPIV2 and PruneDefaults over a CRD schema (apiextensions-apiserver
// pkg/controller/openapi/v2 and kube-openapi's handler): what Swagger 2.0 readers cannot express is
// removed, so that kubectl's client-side validation from /openapi/v2 never rejects an object the
// server accepts. Pure functions on plain schema records; the input is never mutated.

type Schema = Record<string, unknown>;

const JUNCTORS = ['allOf', 'oneOf', 'anyOf', 'not'] as const;

/**
 * A copy of a structural schema in the form kube publishes in v2, node by node (a node first, then
 * the children it still has, as kube's structural Visitor):
 * - allOf, oneOf, anyOf and not are dropped (so int-or-string keeps only its extension);
 * - a nullable node loses type, nullable, items and properties (null passes an untyped value);
 * - a node preserving unknown fields loses items and properties, and its type when object;
 * - an array left without items loses its type (kubectl rejects an array without items);
 * - a nullable property is no longer required, and a nullable additionalProperties clears required.
 */
export function toStructuralOpenAPIV2(schema: Schema): Schema {
  const s: Schema = { ...schema };
  for (const j of JUNCTORS) delete s[j];
  if (s['nullable'] === true) {
    for (const k of ['type', 'items', 'properties']) delete s[k];
  }
  delete s['nullable'];
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  if (preserve) {
    delete s['items'];
    delete s['properties'];
  }
  if (s['items'] === undefined && s['type'] === 'array') delete s['type'];
  if (preserve && s['type'] === 'object') delete s['type'];

  const properties = isSchema(s['properties']) ? s['properties'] : undefined;
  if (properties !== undefined && Array.isArray(s['required'])) {
    const nullable = new Set(Object.keys(properties).filter((name) => isSchema(properties[name]) && properties[name]['nullable'] === true));
    setRequired(
      s,
      (s['required'] as unknown[]).filter((r) => typeof r !== 'string' || !nullable.has(r)),
    );
  }
  if (isSchema(s['additionalProperties']) && s['additionalProperties']['nullable'] === true) delete s['required'];

  if (properties !== undefined) s['properties'] = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, isSchema(v) ? toStructuralOpenAPIV2(v) : v]));
  if (isSchema(s['items'])) s['items'] = toStructuralOpenAPIV2(s['items']);
  if (isSchema(s['additionalProperties'])) s['additionalProperties'] = toStructuralOpenAPIV2(s['additionalProperties']);
  return s;
}

/** A copy of `schema` without `default` at any schema node (kube-openapi's PruneDefaults). */
export function pruneDefaults(schema: Schema): Schema {
  const s: Schema = { ...schema };
  delete s['default'];
  if (isSchema(s['properties'])) s['properties'] = Object.fromEntries(Object.entries(s['properties']).map(([k, v]) => [k, isSchema(v) ? pruneDefaults(v) : v]));
  for (const k of ['items', 'additionalProperties', 'not']) if (isSchema(s[k])) s[k] = pruneDefaults(s[k]);
  for (const k of JUNCTORS) if (Array.isArray(s[k])) s[k] = (s[k] as unknown[]).map((v) => (isSchema(v) ? pruneDefaults(v) : v));
  return s;
}

/** kube's filterOut: an emptied list is no list. */
function setRequired(s: Schema, required: unknown[]): void {
  if (required.length === 0) delete s['required'];
  else s['required'] = required;
}

function isSchema(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
