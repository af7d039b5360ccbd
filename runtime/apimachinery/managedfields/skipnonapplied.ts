import type { JSONObject } from '../serializer/jsonvalue.js';
import { isJSONObject, ownField } from '../serializer/jsonvalue.js';
import { groupVersionString, objectGroupVersionKind } from './groupversion.js';
import type { Managed, Manager, ManagerApplyResult, ManagerResult } from './manager.js';

/** The manager the fields of an object nobody tracked yet are given at its first apply. */
const beforeApplyManagerName = 'before-first-apply';

/**
 * Starts tracking fields lazily (NewProbabilisticSkipNonAppliedManager). An update of an
 * object without managedFields is only tracked on create, with the given probability (kube
 * uses 1: always); an existing untracked object stays untracked until its first apply, which
 * first records everything already there as `before-first-apply`'s.
 */
class SkipNonAppliedManager implements Manager {
  constructor(
    private readonly fieldManager: Manager,
    private readonly probability: number,
    private readonly random: () => number,
    private readonly newObject: ObjectCreater,
  ) {}

  async update(liveObj: JSONObject, newObj: JSONObject, managed: Managed, manager: string): Promise<ManagerResult> {
    if (managed.fields().size === 0) {
      const isCreate = uid(liveObj) === '';
      if (!isCreate || this.probability <= this.random()) return { object: newObj, managed };
    }
    return this.fieldManager.update(liveObj, newObj, managed, manager);
  }

  async apply(liveObj: JSONObject, appliedObj: JSONObject, managed: Managed, fieldManager: string, force: boolean): Promise<ManagerApplyResult> {
    if (managed.fields().size > 0) return this.fieldManager.apply(liveObj, appliedObj, managed, fieldManager, force);
    const gvk = objectGroupVersionKind(appliedObj);
    const emptyObj = this.newObject(groupVersionString(gvk), gvk.kind);
    let tracked;
    try {
      tracked = await this.fieldManager.update(emptyObj, liveObj, managed, beforeApplyManagerName);
    } catch (err) {
      throw new Error(`failed to create manager for existing fields: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    return this.fieldManager.apply(tracked.object, appliedObj, tracked.managed, fieldManager, force);
  }
}

function uid(obj: JSONObject): string {
  const meta = ownField(obj, 'metadata');
  const u = isJSONObject(meta) ? ownField(meta, 'uid') : undefined;
  return typeof u === 'string' ? u : '';
}

/**
 * runtime.ObjectCreater.New: the zero object of a kind in a version, what the untracked fields
 * are diffed from at a first apply. Default: `{apiVersion, kind}` (an unstructured object).
 */
export type ObjectCreater = (apiVersion: string, kind: string) => JSONObject;

const newUnstructured: ObjectCreater = (apiVersion, kind) => ({ apiVersion, kind });

/** Tracks an untracked object's fields from its creation with `probability` (0 ≤ p ≤ 1), drawing from `random`. */
export function newProbabilisticSkipNonAppliedManager(fieldManager: Manager, probability: number, random: () => number = Math.random, newObject: ObjectCreater = newUnstructured): Manager {
  return new SkipNonAppliedManager(fieldManager, probability, random, newObject);
}

/** Never tracks fields from creation (NewSkipNonAppliedManager). */
export function newSkipNonAppliedManager(fieldManager: Manager): Manager {
  return newProbabilisticSkipNonAppliedManager(fieldManager, 0);
}
