import { VersionedSet } from '../structuredmerge/fieldpath/index.js';
import type { JSONObject } from '../serializer/jsonvalue.js';
import type { Managed, Manager, ManagerApplyResult, ManagerResult } from './manager.js';
import { copyManaged, formatManagedTime, removeObjectManagedFields } from './managedfields.js';

/** The placeholder key the inner layers record an update under before it is merged into the caller's. */
const currentOperation = 'current-operation';

/**
 * Stamps the time of the operation on the acting manager (NewManagedFieldsUpdater). An update
 * is recorded under a placeholder and then unioned with what the manager already owned, so a
 * manager's earlier fields survive; a manager whose update changed nothing keeps its old time.
 * A no-op apply returns the live object and leaves the times alone.
 */
class ManagedFieldsUpdater implements Manager {
  constructor(
    private readonly fieldManager: Manager,
    private readonly now: () => Date,
  ) {}

  async update(liveObj: JSONObject, newObj: JSONObject, managed: Managed, manager: string): Promise<ManagerResult> {
    const r = await this.fieldManager.update(liveObj, newObj, managed, currentOperation);
    const vs = r.managed.fields().get(currentOperation);
    if (vs === undefined) return r;
    const out = copyManaged(r.managed);
    out.fields().delete(currentOperation);
    const previous = out.fields().get(manager);
    out.fields().set(manager, previous === undefined ? vs : new VersionedSet(vs.set.union(previous.set), vs.apiVersion, vs.applied));
    out.times().set(manager, formatManagedTime(this.now()));
    return { object: r.object, managed: out };
  }

  async apply(liveObj: JSONObject, appliedObj: JSONObject, managed: Managed, fieldManager: string, force: boolean): Promise<ManagerApplyResult> {
    const r = await this.fieldManager.apply(liveObj, appliedObj, managed, fieldManager, force);
    if (r.object === null) return { object: removeObjectManagedFields(liveObj), managed: r.managed };
    const out = copyManaged(r.managed);
    out.times().set(fieldManager, formatManagedTime(this.now()));
    return { object: r.object, managed: out };
  }
}

export function newManagedFieldsUpdater(fieldManager: Manager, now: () => Date): Manager {
  return new ManagedFieldsUpdater(fieldManager, now);
}
