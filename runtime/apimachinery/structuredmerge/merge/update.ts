// The Updater (SMD merge/update.go): who owns which fields after an update or an apply, the
// merged object of an apply, and the conflicts an apply meets.
import type { APIVersion, Filter, ManagedFields } from '../fieldpath/index.js';
import { newExcludeSetFilter, Set, VersionedSet } from '../fieldpath/index.js';
import type { Comparison, TypedValue } from '../typed/index.js';
import { reconcileFieldSetWithSchema } from '../typed/index.js';
import { valueEquals } from '../value/index.js';
import { conflictsFromManagers } from './conflict.js';
import type { Converter } from './converter.js';
import { convertUnlessMissing, wrapError } from './converter.js';
import { fieldSetOf, prune } from './prune.js';

export interface UpdaterOptions {
  readonly converter: Converter;
  /** Per version, what to leave out of every manager's set (reset fields); not with ignoredFields. */
  readonly ignoreFilter?: ReadonlyMap<APIVersion, Filter>;
  /** Per version, the fields left out of every manager's set; not with ignoreFilter. */
  readonly ignoredFields?: ReadonlyMap<APIVersion, Set>;
  /** Answer the merged object of an apply even when it equals the live one (skips the comparison). */
  readonly returnInputOnNoop?: boolean;
}

export interface UpdateResult {
  readonly object: TypedValue;
  readonly managers: ManagedFields;
}

export interface ApplyResult {
  /** null when the apply changes nothing in the object (unless returnInputOnNoop). */
  readonly object: TypedValue | null;
  readonly managers: ManagedFields;
}

/** SMD's wording, typo included: callers match on it. */
const BOTH_FILTERS = 'IgnoreFilter and IgnoreFilter may not both be set';

export class Updater {
  private readonly converter: Converter;
  private readonly ignoreFilter: ReadonlyMap<APIVersion, Filter> | undefined;
  private readonly ignoredFields: ReadonlyMap<APIVersion, Set> | undefined;
  private readonly returnInputOnNoop: boolean;

  constructor(opts: UpdaterOptions) {
    this.converter = opts.converter;
    this.ignoreFilter = opts.ignoreFilter;
    this.ignoredFields = opts.ignoredFields;
    this.returnInputOnNoop = opts.returnInputOnNoop ?? false;
  }

  /**
   * Records an update (create, update, patch) by `manager`: it takes every field it changed, the
   * others lose what it changed or removed. `next` is the object to persist, `live` the object
   * before (empty on create). Never conflicts. `managers` is not modified.
   */
  async update(live: TypedValue, next: TypedValue, version: APIVersion, managers: ManagedFields, manager: string): Promise<UpdateResult> {
    const reconciled = await this.reconcileManagedFieldsWithSchemaChanges(live, managers);
    const { managers: updated, compare } = await this.updateManagers(live, next, version, reconciled, manager, true);
    const previous = updated.get(manager)?.set ?? new Set();
    let set = previous.difference(compare.removed).union(compare.modified).union(compare.added);
    const filter = this.filterFor(version);
    if (filter !== undefined) set = filter.filter(set);
    if (set.empty()) updated.delete(manager);
    else updated.set(manager, new VersionedSet(set, version, false));
    return { object: next, managers: updated };
  }

  /**
   * Applies `config` by `manager` over `live`: the merged object, without what the applier no
   * longer applies and nobody else owns. Throws Conflicts when another manager owns a field the
   * apply changes, unless `force` (then the applier takes it). `managers` is not modified.
   */
  async apply(live: TypedValue, config: TypedValue, version: APIVersion, managers: ManagedFields, manager: string, force: boolean): Promise<ApplyResult> {
    const reconciled = await this.reconcileManagedFieldsWithSchemaChanges(live, managers);
    let merged: TypedValue;
    try {
      merged = live.merge(config);
    } catch (err) {
      throw wrapError('failed to merge config', err);
    }
    const lastSet = reconciled.get(manager);
    let set = fieldSetOf(config, 'failed to get field set');
    const filter = this.filterFor(version);
    if (filter !== undefined) set = filter.filter(set);
    reconciled.set(manager, new VersionedSet(set, version, true));
    try {
      merged = await prune(this.converter, merged, reconciled, manager, lastSet);
    } catch (err) {
      throw wrapError('failed to prune fields', err);
    }
    const { managers: updated } = await this.updateManagers(live, merged, version, reconciled, manager, force);
    if (!this.returnInputOnNoop && valueEquals(live.value, merged.value)) return { object: null, managers: updated };
    return { object: merged, managers: updated };
  }

  /**
   * The managers other than `workflow` lose what changed between `oldObject` and `newObject`
   * (compared at each manager's version); with `force` false, any changed field another manager
   * owns is a conflict instead. Answers a new map and the comparison at `version`.
   */
  private async updateManagers(
    oldObject: TypedValue,
    newObject: TypedValue,
    version: APIVersion,
    managers: ManagedFields,
    workflow: string,
    force: boolean,
  ): Promise<{ managers: ManagedFields; compare: Comparison }> {
    const result: ManagedFields = new Map(managers);
    const conflicts: ManagedFields = new Map();
    const removed = new Map<string, Set>();
    const compare = this.filterComparison(compareObjects(oldObject, newObject), version);
    const versions = new Map<APIVersion, Comparison>([[version, compare]]);

    for (const [manager, managerSet] of managers) {
      if (manager === workflow) continue;
      let versioned = versions.get(managerSet.apiVersion);
      if (versioned === undefined) {
        versioned = await this.compareAtVersion(oldObject, newObject, managerSet.apiVersion);
        if (versioned === undefined) {
          result.delete(manager);
          continue;
        }
        versions.set(managerSet.apiVersion, versioned);
      }
      const conflictSet = managerSet.set.intersection(versioned.modified.union(versioned.added));
      if (!conflictSet.empty()) conflicts.set(manager, new VersionedSet(conflictSet, managerSet.apiVersion, false));
      if (!versioned.removed.empty()) removed.set(manager, versioned.removed);
    }

    if (!force && conflicts.size > 0) throw conflictsFromManagers(conflicts);
    for (const [manager, conflictSet] of conflicts) loseFields(result, manager, conflictSet.set);
    for (const [manager, removedSet] of removed) loseFields(result, manager, removedSet);
    for (const [manager, versioned] of result) {
      if (versioned.set.empty()) result.delete(manager);
    }
    return { managers: result, compare };
  }

  /** Both objects compared at `version`, filtered; undefined when the version is missing. */
  private async compareAtVersion(oldObject: TypedValue, newObject: TypedValue, version: APIVersion): Promise<Comparison | undefined> {
    let versionedOld: TypedValue | undefined;
    try {
      versionedOld = await convertUnlessMissing(this.converter, oldObject, version);
    } catch (err) {
      throw wrapError('failed to convert old object', err);
    }
    if (versionedOld === undefined) return undefined;
    let versionedNew: TypedValue | undefined;
    try {
      versionedNew = await convertUnlessMissing(this.converter, newObject, version);
    } catch (err) {
      throw wrapError('failed to convert new object', err);
    }
    if (versionedNew === undefined) return undefined;
    return this.filterComparison(compareObjects(versionedOld, versionedNew), version);
  }

  private filterComparison(compare: Comparison, version: APIVersion): Comparison {
    if (this.ignoredFields !== undefined && this.ignoreFilter !== undefined) throw new Error(BOTH_FILTERS);
    if (this.ignoredFields !== undefined) return compare.excludeFields(this.ignoredFields.get(version));
    return compare.filterFields(this.ignoreFilter?.get(version));
  }

  /** The filter a manager's new set goes through at `version`, if any. */
  private filterFor(version: APIVersion): Filter | undefined {
    if (this.ignoredFields !== undefined && this.ignoreFilter !== undefined) throw new Error(BOTH_FILTERS);
    if (this.ignoredFields !== undefined) {
      const ignored = this.ignoredFields.get(version);
      return ignored === undefined ? undefined : newExcludeSetFilter(ignored);
    }
    return this.ignoreFilter?.get(version);
  }

  /**
   * Each manager's set made to fit the live object's current schema (a type that turned atomic
   * or granular since the set was recorded). Sets at a missing version are dropped.
   */
  private async reconcileManagedFieldsWithSchemaChanges(live: TypedValue, managers: ManagedFields): Promise<ManagedFields> {
    const result: ManagedFields = new Map();
    for (const [manager, versioned] of managers) {
      const tv = await convertUnlessMissing(this.converter, live, versioned.apiVersion);
      if (tv === undefined) continue;
      const reconciled = reconcileFieldSetWithSchema(versioned.set, tv);
      result.set(manager, reconciled === undefined ? versioned : new VersionedSet(reconciled, versioned.apiVersion, versioned.applied));
    }
    return result;
  }
}

function compareObjects(oldObject: TypedValue, newObject: TypedValue): Comparison {
  try {
    return oldObject.compare(newObject);
  } catch (err) {
    throw wrapError('failed to compare objects', err);
  }
}

/** `manager`'s set without `lost`, its version and applied flag kept. */
function loseFields(managers: ManagedFields, manager: string, lost: Set): void {
  const versioned = managers.get(manager);
  if (versioned === undefined) return;
  managers.set(manager, new VersionedSet(versioned.set.difference(lost), versioned.apiVersion, versioned.applied));
}
