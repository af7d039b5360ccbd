import { makePath, Set as FieldSet, VersionedSet } from '../structuredmerge/fieldpath/index.js';
import type { JSONObject } from '../serializer/jsonvalue.js';
import type { Managed, Manager, ManagerApplyResult, ManagerResult } from './manager.js';
import { copyManaged } from './managedfields.js';

/**
 * Metadata the server owns or that identifies the object: nobody manages it, so it never
 * appears in managedFields (the strip set of NewStripMetaManager).
 */
const stripSet = new FieldSet(
  makePath('apiVersion'),
  makePath('kind'),
  makePath('metadata'),
  makePath('metadata', 'name'),
  makePath('metadata', 'namespace'),
  makePath('metadata', 'creationTimestamp'),
  makePath('metadata', 'selfLink'),
  makePath('metadata', 'uid'),
  makePath('metadata', 'clusterName'),
  makePath('metadata', 'generation'),
  makePath('metadata', 'managedFields'),
  makePath('metadata', 'resourceVersion'),
);

/** Removes the strip set from the acting manager's fields; a manager left with nothing is dropped. */
class StripMetaManager implements Manager {
  constructor(private readonly fieldManager: Manager) {}

  async update(liveObj: JSONObject, newObj: JSONObject, managed: Managed, manager: string): Promise<ManagerResult> {
    const r = await this.fieldManager.update(liveObj, newObj, managed, manager);
    return { object: r.object, managed: stripFields(r.managed, manager) };
  }

  async apply(liveObj: JSONObject, appliedObj: JSONObject, managed: Managed, manager: string, force: boolean): Promise<ManagerApplyResult> {
    const r = await this.fieldManager.apply(liveObj, appliedObj, managed, manager, force);
    return { object: r.object, managed: stripFields(r.managed, manager) };
  }
}

function stripFields(managed: Managed, manager: string): Managed {
  const vs = managed.fields().get(manager);
  if (vs === undefined) return managed;
  const out = copyManaged(managed);
  const rest = vs.set.difference(stripSet);
  if (rest.empty()) out.fields().delete(manager);
  else out.fields().set(manager, new VersionedSet(rest, vs.apiVersion, vs.applied));
  return out;
}

export function newStripMetaManager(fieldManager: Manager): Manager {
  return new StripMetaManager(fieldManager);
}
