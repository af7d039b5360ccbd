import type { ManagedFields } from '../structuredmerge/fieldpath/index.js';
import type { JSONObject } from '../serializer/jsonvalue.js';

/**
 * A decoded managedFields list: the field set of every manager key, and the time each key
 * last wrote (internal.Managed). Times are RFC3339 strings in seconds (metav1.Time); a key
 * without a time has none in the map.
 */
export interface Managed {
  fields(): ManagedFields;
  times(): Map<string, string>;
}

/** The result of a Manager layer: the object without managedFields, and its proposed managedFields. */
export interface ManagerResult {
  readonly object: JSONObject;
  readonly managed: Managed;
}

/**
 * The result of an apply. `object` is null when the merge changed nothing (SMD's no-op apply):
 * the layer that stamps times (managedfieldsupdater) turns it back into the live object, so
 * layers above it and FieldManager always see an object.
 */
export interface ManagerApplyResult {
  readonly object: JSONObject | null;
  readonly managed: Managed;
}

/**
 * One layer of the field manager chain (internal.Manager). Layers never mutate `liveObj`,
 * `newObj`/`appliedObj` or `managed`: they return new values. The object returned has no
 * managedFields; they travel separately as `managed` until FieldManager encodes them.
 */
export interface Manager {
  update(liveObj: JSONObject, newObj: JSONObject, managed: Managed, manager: string): Promise<ManagerResult>;
  apply(liveObj: JSONObject, appliedObj: JSONObject, managed: Managed, fieldManager: string, force: boolean): Promise<ManagerApplyResult>;
}
