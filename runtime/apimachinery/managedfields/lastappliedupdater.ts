import type { JSONObject } from '../serializer/jsonvalue.js';
import type { Managed, Manager, ManagerApplyResult, ManagerResult } from './manager.js';
import { buildLastApplied, getLastApplied, setLastApplied } from './lastapplied.js';

/**
 * Keeps kubectl's last-applied annotation in step with what `kubectl apply --server-side`
 * applies (NewLastAppliedUpdater), so switching back to client-side apply computes its
 * three-way diff from the right base. Only for the `kubectl` manager, and only on objects
 * that already carry the annotation.
 */
class LastAppliedUpdater implements Manager {
  constructor(private readonly fieldManager: Manager) {}

  update(liveObj: JSONObject, newObj: JSONObject, managed: Managed, manager: string): Promise<ManagerResult> {
    return this.fieldManager.update(liveObj, newObj, managed, manager);
  }

  async apply(liveObj: JSONObject, appliedObj: JSONObject, managed: Managed, manager: string, force: boolean): Promise<ManagerApplyResult> {
    const r = await this.fieldManager.apply(liveObj, appliedObj, managed, manager, force);
    if (manager !== 'kubectl' || r.object === null || getLastApplied(r.object) === undefined) return r;
    return { object: setLastApplied(r.object, buildLastApplied(appliedObj)), managed: r.managed };
  }
}

export function newLastAppliedUpdater(fieldManager: Manager): Manager {
  return new LastAppliedUpdater(fieldManager);
}
