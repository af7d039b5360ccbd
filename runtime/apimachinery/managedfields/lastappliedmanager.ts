import type { Set as FieldSet } from '../structuredmerge/fieldpath/index.js';
import { Conflicts } from '../structuredmerge/merge/index.js';
import type { JSONObject } from '../serializer/jsonvalue.js';
import { isJSONObject, ownField } from '../serializer/jsonvalue.js';
import type { Managed, Manager, ManagerApplyResult, ManagerResult } from './manager.js';
import type { TypeConverter } from './typeconverter.js';
import type { ObjectConvertor } from './versionconverter.js';
import { getLastApplied } from './lastapplied.js';

/** The only applier whose client-side apply history is honoured (kubectl's server-side apply). */
const kubectlManager = 'kubectl';

/**
 * Lets `kubectl apply --server-side` take over what the same user applied client-side
 * (NewLastAppliedManager): conflicts on fields the last-applied annotation names, with the
 * same value live, are not conflicts; if those are all the conflicts, the apply is forced.
 * Any other manager name opts out.
 */
class LastAppliedManager implements Manager {
  constructor(
    private readonly fieldManager: Manager,
    private readonly typeConverter: TypeConverter,
    private readonly objectConverter: ObjectConvertor,
    private readonly groupVersion: string,
  ) {}

  update(liveObj: JSONObject, newObj: JSONObject, managed: Managed, manager: string): Promise<ManagerResult> {
    return this.fieldManager.update(liveObj, newObj, managed, manager);
  }

  async apply(liveObj: JSONObject, appliedObj: JSONObject, managed: Managed, manager: string, force: boolean): Promise<ManagerApplyResult> {
    try {
      return await this.fieldManager.apply(liveObj, appliedObj, managed, manager, force);
    } catch (err) {
      if (manager !== kubectlManager || !(err instanceof Conflicts)) throw err;
      let allowed: FieldSet;
      try {
        allowed = await this.allowedConflictsFromLastApplied(liveObj);
      } catch {
        // Without a usable annotation the conflicts stand as they are.
        throw err;
      }
      const remaining = err.conflicts.filter((c) => !allowed.has(c.path));
      if (remaining.length > 0) throw new Conflicts(remaining);
      return this.fieldManager.apply(liveObj, appliedObj, managed, manager, true);
    }
  }

  /** The fields of the last-applied configuration whose value is the live one. */
  private async allowedConflictsFromLastApplied(liveObj: JSONObject): Promise<FieldSet> {
    const lastApplied = getLastApplied(liveObj);
    if (lastApplied === undefined) throw new Error('no last applied annotation');
    const liveVersioned = await this.objectConverter.convert(liveObj, this.groupVersion);
    const liveTyped = this.typeConverter.objectToTyped(liveVersioned);
    let lastAppliedObj: unknown;
    try {
      lastAppliedObj = JSON.parse(lastApplied);
    } catch (e) {
      throw new Error(`failed to decode last applied obj: ${e instanceof Error ? e.message : String(e)} in '${lastApplied}'`, { cause: e });
    }
    if (!isJSONObject(lastAppliedObj)) throw new Error(`failed to decode last applied obj in '${lastApplied}'`);
    const version = ownField(lastAppliedObj, 'apiVersion');
    if (version !== this.groupVersion) {
      throw new Error(`expected version of last applied to match live object '${this.groupVersion}', but got '${String(version ?? '')}'`);
    }
    const lastAppliedTyped = this.typeConverter.objectToTyped(lastAppliedObj);
    const comparison = lastAppliedTyped.compare(liveTyped);
    // Fields whose last-applied value differs from, or is missing in, the live object were
    // changed since by someone else: kubectl no longer owns them.
    return lastAppliedTyped.toFieldSet().difference(comparison.modified).difference(comparison.added).difference(comparison.removed);
  }
}

export function newLastAppliedManager(fieldManager: Manager, typeConverter: TypeConverter, objectConverter: ObjectConvertor, groupVersion: string): Manager {
  return new LastAppliedManager(fieldManager, typeConverter, objectConverter, groupVersion);
}
