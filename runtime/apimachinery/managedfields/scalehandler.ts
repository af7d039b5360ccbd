import type { ManagedFieldsEntry } from '../../../apis/meta/v1/types.js';
import type { ManagedFields, Path } from '../structuredmerge/fieldpath/index.js';
import { makePath, Set as FieldSet, VersionedSet } from '../structuredmerge/fieldpath/index.js';
import { decodeManagedFields, encodeManagedFields, newManaged } from './managedfields.js';

const scaleGroupVersion = 'autoscaling/v1';
const replicasPathInScale = makePath('spec', 'replicas');

/**
 * The replicas path of the resource in each of its apiVersions (ResourcePathMappings). Paths
 * are leaf fields; null marks a version served without a scale subresource (a custom resource
 * whose versions differ), whose entries are kept as they are.
 */
export type ResourcePathMappings = ReadonlyMap<string, Path | null>;

/**
 * Moves managedFields between a resource and its scale subresource (managedfields.ScaleHandler):
 * a Scale's entries own `spec.replicas` of autoscaling/v1, the resource's own its replicas path
 * in their version. `parentEntries` are the resource's managedFields; `groupVersion` is the
 * version the scale endpoint writes the resource in.
 */
export class ScaleHandler {
  constructor(
    private readonly parentEntries: readonly ManagedFieldsEntry[] | undefined,
    private readonly groupVersion: string,
    private readonly mappings: ResourcePathMappings,
  ) {}

  /**
   * The entries of the resource that own its replicas, as the Scale's (ToSubresource): in
   * autoscaling/v1, owning `spec.replicas` only. Entries of unknown versions are dropped.
   */
  toSubresource(): ManagedFieldsEntry[] {
    const managed = decodeManagedFields(this.parentEntries);
    const fields: ManagedFields = new Map();
    const times = new Map<string, string>();
    for (const [manager, vs] of managed.fields()) {
      const path = this.mappings.get(vs.apiVersion);
      if (path === undefined || path === null || !vs.set.has(path)) continue;
      fields.set(manager, new VersionedSet(new FieldSet(replicasPathInScale), scaleGroupVersion, vs.applied));
      copyTime(managed.times(), times, manager);
    }
    return encodeManagedFields(newManaged(fields, times));
  }

  /**
   * The resource's entries after the Scale's `scaleEntries` were written (ToParent): a manager
   * of the Scale that owns `spec.replicas` owns the resource's replicas path in `groupVersion`;
   * a manager of the resource that lost them to another keeps the rest (and goes when nothing is
   * left). Entries of versions without a mapping are dropped.
   */
  toParent(scaleEntries: readonly ManagedFieldsEntry[] | undefined): ManagedFieldsEntry[] {
    const parent = decodeManagedFields(this.parentEntries);
    const scaleFields = new Map(decodeManagedFields(scaleEntries).fields());
    const fields: ManagedFields = new Map();
    const times = new Map<string, string>();
    const keep = (manager: string, vs: VersionedSet): void => {
      fields.set(manager, vs);
      copyTime(parent.times(), times, manager);
    };
    for (const [manager, vs] of parent.fields()) {
      if (!this.mappings.has(vs.apiVersion)) continue;
      const path = this.mappings.get(vs.apiVersion) ?? null;
      if (path === null || !vs.set.has(path)) {
        keep(manager, vs);
      } else if (scaleFields.has(manager)) {
        // The scale still reports this manager: its replicas were not taken from it.
        keep(manager, vs);
        scaleFields.delete(manager);
      } else {
        // Another manager took the replicas through the scale subresource.
        const rest = vs.set.difference(new FieldSet(path));
        if (!rest.empty()) keep(manager, new VersionedSet(rest, vs.apiVersion, vs.applied));
      }
    }
    const replicasPath = this.mappings.get(this.groupVersion) ?? null;
    for (const [manager, vs] of scaleFields) {
      if (!vs.set.has(replicasPathInScale)) continue;
      // The time is the resource's entry's of the same key, as kube takes it (usually none).
      keep(manager, new VersionedSet(replicasPath === null ? new FieldSet() : new FieldSet(replicasPath), this.groupVersion, vs.applied));
    }
    return encodeManagedFields(newManaged(fields, times));
  }
}

function copyTime(from: ReadonlyMap<string, string>, to: Map<string, string>, manager: string): void {
  const t = from.get(manager);
  if (t !== undefined) to.set(manager, t);
}
