import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import { isJSONObject } from '../serializer/jsonvalue.js';
import { objectMetaSchema } from './objectmeta.js';
import { propertySchema } from './property.js';

export interface PruneOptions {
  /**
   * The value is a whole object (a CR or built-in kind): `apiVersion`, `kind`
   * and `metadata` are kept whatever the schema says, as for
   * `x-kubernetes-embedded-resource`; metadata is pruned as ObjectMeta.
   */
  readonly isResourceRoot: boolean;
}

const META_FIELDS: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata']);

interface Work {
  readonly value: unknown;
  readonly schema: JSONSchemaProps | undefined;
  readonly path: string;
  /** Under x-kubernetes-preserve-unknown-fields: only fields the schema specifies are pruned into. */
  readonly preserving: boolean;
}

/**
 * Removes, in place, every object field the structural schema does not
 * specify (structuralpruning.PruneWithOptions): properties are followed,
 * `additionalProperties` covers every key of a map, and
 * `x-kubernetes-preserve-unknown-fields` keeps unknown fields while still
 * pruning inside the specified ones. Embedded resources (and the root when
 * `isResourceRoot`) keep apiVersion/kind/metadata; their metadata is pruned
 * as ObjectMeta. Returns the pruned paths sorted (`spec.foo`,
 * `spec.items[0].bar`), as kube reports `unknown field "…"`, a resource root's own metadata
 * fields first (`metadata.foo`).
 * Walks with an explicit stack, so deep values cannot exhaust the call stack.
 */
export function prune(obj: unknown, schema: JSONSchemaProps | undefined, opts: PruneOptions): string[] {
  const pruned: string[] = [];
  let root = schema;
  if (opts.isResourceRoot) root = { ...(schema ?? {}), 'x-kubernetes-embedded-resource': true };
  const work: Work[] = [{ value: obj, schema: root, path: '', preserving: false }];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    const { value, path } = item;
    const s = item.schema;
    const preserving = item.preserving || s?.['x-kubernetes-preserve-unknown-fields'] === true;
    if (Array.isArray(value)) {
      const items = s !== undefined && !Array.isArray(s.items) ? s.items : undefined;
      if (preserving && items === undefined) continue;
      value.forEach((v, i) => work.push({ value: v, schema: items, path: `${path}[${i}]`, preserving }));
      continue;
    }
    if (!isJSONObject(value)) continue;
    const embedded = s?.['x-kubernetes-embedded-resource'] === true;
    const additional = typeof s?.additionalProperties === 'object' ? s.additionalProperties : undefined;
    for (const [k, v] of Object.entries(value)) {
      const child = path === '' ? k : `${path}.${k}`;
      if (embedded && META_FIELDS.has(k)) {
        if (k === 'metadata' && isJSONObject(v)) work.push({ value: v, schema: objectMetaSchema, path: child, preserving: false });
        continue;
      }
      const prop = propertySchema(s, k);
      if (prop !== undefined) work.push({ value: v, schema: prop, path: child, preserving: false });
      else if (additional !== undefined) work.push({ value: v, schema: additional, path: child, preserving: false });
      else if (!preserving) {
        pruned.push(child);
        delete value[k];
      }
    }
  }
  pruned.sort();
  if (!opts.isResourceRoot) return pruned;
  // The root's metadata first: kube's CR codec reads ObjectMeta (reporting its unknown fields)
  // before it prunes the rest (unstructuredSchemaCoercer), so its errors lead.
  const meta = pruned.filter((p) => p.startsWith('metadata.'));
  return meta.length === 0 ? pruned : [...meta, ...pruned.filter((p) => !p.startsWith('metadata.'))];
}
