import type { ManagedFieldsOperationType } from '../../../apis/meta/v1/types.js';
import type { JSONObject } from '../serializer/jsonvalue.js';
import type { Managed, Manager, ManagerApplyResult, ManagerResult } from './manager.js';
import { buildManagerIdentifier } from './managedfields.js';

/**
 * Turns the caller's manager name into the manager key the layers below work with
 * (NewBuildManagerInfoManager): name, operation, the request's group/version and the
 * subresource; a request without a name is recorded as `unknown`.
 */
class BuildManagerInfoManager implements Manager {
  constructor(
    private readonly fieldManager: Manager,
    private readonly groupVersion: string,
    private readonly subresource: string,
  ) {}

  update(liveObj: JSONObject, newObj: JSONObject, managed: Managed, manager: string): Promise<ManagerResult> {
    return this.fieldManager.update(liveObj, newObj, managed, this.buildManagerInfo(manager, 'Update'));
  }

  apply(liveObj: JSONObject, appliedObj: JSONObject, managed: Managed, manager: string, force: boolean): Promise<ManagerApplyResult> {
    return this.fieldManager.apply(liveObj, appliedObj, managed, this.buildManagerInfo(manager, 'Apply'), force);
  }

  private buildManagerInfo(prefix: string, operation: ManagedFieldsOperationType): string {
    return buildManagerIdentifier({
      manager: prefix === '' ? 'unknown' : prefix,
      operation,
      apiVersion: this.groupVersion,
      subresource: this.subresource,
    });
  }
}

export function newBuildManagerInfoManager(fieldManager: Manager, groupVersion: string, subresource: string): Manager {
  return new BuildManagerInfoManager(fieldManager, groupVersion, subresource);
}
