import { newBadRequest } from '../errors/catalog.js';
import type { JSONObject } from '../serializer/jsonvalue.js';
import type { Managed, Manager, ManagerApplyResult, ManagerResult } from './manager.js';
import type { GroupVersionKind } from './groupversion.js';
import { groupVersionKindString, objectGroupVersionKind, parseGroupVersion } from './groupversion.js';

/**
 * Refuses an applied configuration of another version or kind than the endpoint serves
 * (NewVersionCheckManager): 400 `invalid object type: <group>/<version>, Kind=<kind>`.
 */
class VersionCheckManager implements Manager {
  private readonly gvk: GroupVersionKind;

  constructor(
    private readonly fieldManager: Manager,
    apiVersion: string,
    kind: string,
  ) {
    this.gvk = { ...parseGroupVersion(apiVersion), kind };
  }

  update(liveObj: JSONObject, newObj: JSONObject, managed: Managed, manager: string): Promise<ManagerResult> {
    return this.fieldManager.update(liveObj, newObj, managed, manager);
  }

  async apply(liveObj: JSONObject, appliedObj: JSONObject, managed: Managed, fieldManager: string, force: boolean): Promise<ManagerApplyResult> {
    const gvk = objectGroupVersionKind(appliedObj);
    if (gvk.group !== this.gvk.group || gvk.version !== this.gvk.version || gvk.kind !== this.gvk.kind) {
      throw newBadRequest(`invalid object type: ${groupVersionKindString(gvk)}`);
    }
    return this.fieldManager.apply(liveObj, appliedObj, managed, fieldManager, force);
  }
}

export function newVersionCheckManager(fieldManager: Manager, apiVersion: string, kind: string): Manager {
  return new VersionCheckManager(fieldManager, apiVersion, kind);
}
