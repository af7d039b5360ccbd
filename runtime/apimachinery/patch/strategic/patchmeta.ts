import type { JSONSchemaProps } from '../../../../apis/apiextensions/v1/schema.js';
import { objectMetaSchema } from '../../schema/objectmeta.js';
import { fieldSchema } from '../../schema/property.js';

/** The patch strategy of one field (strategicpatch.PatchMeta). */
export interface PatchMeta {
  /** `merge`, `replace`, `retainKeys`, or two of them (`merge,retainKeys`). */
  readonly strategies: readonly string[];
  readonly mergeKey: string;
}

type Markers = JSONSchemaProps & { 'x-kubernetes-patch-strategy'?: string; 'x-kubernetes-patch-merge-key'?: string };

/**
 * Patch metadata looked up in a structural schema (LookupPatchMeta): the
 * `x-kubernetes-patch-strategy` / `x-kubernetes-patch-merge-key` markers.
 * Fields without them, or unknown to the schema: maps merge, lists are
 * replaced. `metadata` at a resource root or in an embedded
 * resource is ObjectMeta.
 */
export class SchemaPatchMeta {
  constructor(
    private readonly schema: JSONSchemaProps | undefined,
    private readonly isResource = false,
  ) {}

  /** The schema and patch meta of map-valued field `key`. */
  lookupForStruct(key: string): { sub: SchemaPatchMeta; meta: PatchMeta } {
    const prop = this.field(key);
    return { sub: new SchemaPatchMeta(prop, prop?.['x-kubernetes-embedded-resource'] === true), meta: patchMetaOf(prop) };
  }

  /** The item schema and patch meta of list-valued field `key`. */
  lookupForSlice(key: string): { sub: SchemaPatchMeta; meta: PatchMeta } {
    const prop = this.field(key);
    const items = prop !== undefined && !Array.isArray(prop.items) ? prop.items : undefined;
    return { sub: new SchemaPatchMeta(items, items?.['x-kubernetes-embedded-resource'] === true), meta: patchMetaOf(prop) };
  }

  private field(key: string): Markers | undefined {
    if (key === 'metadata' && (this.isResource || this.schema?.['x-kubernetes-embedded-resource'] === true)) return objectMetaSchema;
    return fieldSchema(this.schema, key);
  }
}

function patchMetaOf(prop: Markers | undefined): PatchMeta {
  if (prop === undefined) return { strategies: [], mergeKey: '' };
  const strategy = prop['x-kubernetes-patch-strategy'];
  if (strategy !== undefined) return { strategies: strategy.split(','), mergeKey: prop['x-kubernetes-patch-merge-key'] ?? '' };
  // Only the patch markers count, as in kube's OpenAPI-driven SMP: kubectl computes its patches
  // from the same markers, so a list-type without them must be replaced, or apply can never
  // shrink such a list.
  return { strategies: [], mergeKey: prop['x-kubernetes-patch-merge-key'] ?? '' };
}
