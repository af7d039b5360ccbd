import { VersionedSet } from '../structuredmerge/fieldpath/index.js';
import type { JSONObject } from '../serializer/jsonvalue.js';
import type { Managed, Manager, ManagerApplyResult, ManagerResult } from './manager.js';
import { buildManagerIdentifier, copyManaged, unixSeconds } from './managedfields.js';

/** The manager the oldest Update entries are merged into, one per version. */
const oldUpdatesManagerName = 'ancient-changes';

/**
 * Keeps at most `maxUpdateManagers` Update entries after an update (NewCapManagersManager):
 * the oldest are merged, per apiVersion, into an `ancient-changes` entry that takes the time
 * of the newest it absorbed. Apply entries are never merged.
 */
class CapManagersManager implements Manager {
  constructor(
    private readonly fieldManager: Manager,
    private readonly maxUpdateManagers: number,
  ) {}

  async update(liveObj: JSONObject, newObj: JSONObject, managed: Managed, manager: string): Promise<ManagerResult> {
    const r = await this.fieldManager.update(liveObj, newObj, managed, manager);
    return { object: r.object, managed: capUpdateManagers(r.managed, this.maxUpdateManagers) };
  }

  apply(liveObj: JSONObject, appliedObj: JSONObject, managed: Managed, fieldManager: string, force: boolean): Promise<ManagerApplyResult> {
    return this.fieldManager.apply(liveObj, appliedObj, managed, fieldManager, force);
  }
}

function capUpdateManagers(managed: Managed, max: number): Managed {
  const updaters = [...managed.fields()].filter(([, vs]) => !vs.applied).map(([m]) => m);
  if (updaters.length <= max) return managed;
  const seconds = (m: string): number => unixSeconds(managed.times().get(m));
  updaters.sort((a, b) => seconds(a) - seconds(b) || (a < b ? -1 : a > b ? 1 : 0));

  const out = copyManaged(managed);
  const fields = out.fields();
  const times = out.times();
  // The first (oldest) manager of a version stays as it is until a second one of that version
  // must go: then both move into the version's bucket.
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const manager = updaters[i] as string;
    const vs = fields.get(manager);
    if (vs === undefined) continue;
    const time = times.get(manager);
    const bucket = buildManagerIdentifier({ manager: oldUpdatesManagerName, operation: 'Update', apiVersion: vs.apiVersion });
    const first = firstOfVersion.get(vs.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(vs.apiVersion, manager);
      continue;
    }
    if (!fields.has(bucket)) {
      const firstSet = fields.get(first);
      fields.delete(first);
      if (firstSet !== undefined) fields.set(bucket, firstSet);
    }
    const merged = fields.get(bucket);
    fields.set(bucket, new VersionedSet(merged === undefined ? vs.set : vs.set.union(merged.set), vs.apiVersion, vs.applied));
    fields.delete(manager);
    length--;
    if (time === undefined) times.delete(bucket);
    else times.set(bucket, time);
  }
  return out;
}

export function newCapManagersManager(fieldManager: Manager, maxUpdateManagers: number): Manager {
  return new CapManagersManager(fieldManager, maxUpdateManagers);
}
