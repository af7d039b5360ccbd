// What an apply removes (SMD Updater.prune and its helpers): a field, list item or map entry goes
// iff the applier applied it last time, does not apply it now, and nobody else owns it.
import type { APIVersion, ManagedFields, VersionedSet } from '../fieldpath/index.js';
import { Set } from '../fieldpath/index.js';
import type { TypedValue } from '../typed/index.js';
import type { Converter } from './converter.js';
import { convertUnlessMissing, wrapError } from './converter.js';

/**
 * `merged` without what `lastSet` (the applier's previous set) holds and nobody owns any more.
 * `managers` already holds the applier's new set. Answers in the version of that new set.
 */
export async function prune(converter: Converter, merged: TypedValue, managers: ManagedFields, applyingManager: string, lastSet: VersionedSet | undefined): Promise<TypedValue> {
  if (lastSet === undefined || lastSet.set.empty()) return merged;
  const version = lastSet.apiVersion;
  let convertedMerged: TypedValue | undefined;
  try {
    convertedMerged = await convertUnlessMissing(converter, merged, version);
  } catch (err) {
    throw wrapError('failed to convert merged object to last applied version', err);
  }
  if (convertedMerged === undefined) return merged;

  const { schema, typeRef } = convertedMerged;
  let pruned = convertedMerged.removeItems(lastSet.set.ensureNamedFieldsAreMembers(schema, typeRef));
  try {
    pruned = await addBackOwnedItems(converter, convertedMerged, pruned, version, managers);
  } catch (err) {
    throw wrapError('failed add back owned items', err);
  }
  try {
    pruned = await addBackDanglingItems(converter, convertedMerged, pruned, lastSet);
  } catch (err) {
    throw wrapError('failed add back dangling items', err);
  }
  const applying = managers.get(applyingManager);
  return await converter.convert(pruned, applying?.apiVersion ?? version);
}

/** Puts back what pruning removed but some manager (the applier's new set included) owns. */
async function addBackOwnedItems(converter: Converter, merged: TypedValue, pruned: TypedValue, prunedVersion: APIVersion, managers: ManagedFields): Promise<TypedValue> {
  const managedAtVersion = new Map<APIVersion, Set>();
  for (const versioned of managers.values()) {
    const sofar = managedAtVersion.get(versioned.apiVersion) ?? new Set();
    managedAtVersion.set(versioned.apiVersion, sofar.union(versioned.set));
  }
  // The pruned version first: fields a conversion relies on may be among those pruned.
  const first = managedAtVersion.get(prunedVersion);
  if (first !== undefined) {
    [merged, pruned] = await addBackOwnedItemsForVersion(converter, merged, pruned, prunedVersion, first);
    managedAtVersion.delete(prunedVersion);
  }
  for (const [version, managed] of managedAtVersion) {
    [merged, pruned] = await addBackOwnedItemsForVersion(converter, merged, pruned, version, managed);
  }
  return pruned;
}

async function addBackOwnedItemsForVersion(converter: Converter, merged: TypedValue, pruned: TypedValue, version: APIVersion, managed: Set): Promise<[merged: TypedValue, pruned: TypedValue]> {
  let convertedMerged: TypedValue | undefined;
  try {
    convertedMerged = await convertUnlessMissing(converter, merged, version);
  } catch (err) {
    throw wrapError(`failed to convert merged object at version ${version}`, err);
  }
  if (convertedMerged === undefined) return [merged, pruned];
  let convertedPruned: TypedValue | undefined;
  try {
    convertedPruned = await convertUnlessMissing(converter, pruned, version);
  } catch (err) {
    throw wrapError(`failed to convert pruned object at version ${version}`, err);
  }
  if (convertedPruned === undefined) return [convertedMerged, pruned];
  const mergedSet = fieldSetOf(convertedMerged, `failed to create field set from merged object at version ${version}`);
  const prunedSet = fieldSetOf(convertedPruned, `failed to create field set from pruned object at version ${version}`);
  const { schema, typeRef } = convertedMerged;
  const keep = prunedSet.ensureNamedFieldsAreMembers(schema, typeRef).union(managed.ensureNamedFieldsAreMembers(schema, typeRef));
  const removed = mergedSet.ensureNamedFieldsAreMembers(schema, typeRef).difference(keep);
  return [convertedMerged, convertedMerged.removeItems(removed)];
}

/**
 * Puts back what pruning removed that the applier did not own last time (unowned fields, or
 * fields only updaters touched): an apply removes only what it applied before.
 */
async function addBackDanglingItems(converter: Converter, merged: TypedValue, pruned: TypedValue, lastSet: VersionedSet): Promise<TypedValue> {
  let convertedPruned: TypedValue | undefined;
  try {
    convertedPruned = await convertUnlessMissing(converter, pruned, lastSet.apiVersion);
  } catch (err) {
    throw wrapError('failed to convert pruned object to last applied version', err);
  }
  if (convertedPruned === undefined) return merged;
  const { schema, typeRef } = merged;
  const prunedSet = fieldSetOf(convertedPruned, 'failed to create field set from pruned object in last applied version').ensureNamedFieldsAreMembers(schema, typeRef);
  const mergedSet = fieldSetOf(merged, 'failed to create field set from merged object in last applied version').ensureNamedFieldsAreMembers(schema, typeRef);
  const last = lastSet.set.ensureNamedFieldsAreMembers(schema, typeRef);
  return merged.removeItems(mergedSet.difference(prunedSet).intersection(last));
}

/** The object's field set, its errors prefixed with `context`. */
export function fieldSetOf(tv: TypedValue, context: string): Set {
  try {
    return tv.toFieldSet();
  } catch (err) {
    throw wrapError(context, err);
  }
}
