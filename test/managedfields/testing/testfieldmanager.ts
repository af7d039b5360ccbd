// Port of k8s.io/apimachinery/pkg/util/managedfields/internal/testing/testfieldmanager.go and
// managedfieldstest: a live object kept in memory, driven through the field manager layers
// the way a server would (apply and update as whole requests), with an injectable clock.
import type { ManagedFieldsEntry } from '../../../apis/meta/v1/types.js';
import type { JSONObject } from '../../../runtime/apimachinery/serializer/jsonvalue.js';
import { deepCopyJSON, isJSONObject, ownField } from '../../../runtime/apimachinery/serializer/jsonvalue.js';
import type { Manager, ObjectConvertor, TypeConverter } from '../../../runtime/apimachinery/managedfields/index.js';
import {
  defaultTrackOnCreateProbability,
  FieldManager,
  newBuildManagerInfoManager,
  newDefaultFieldManager,
  newLastAppliedManager,
  newLastAppliedUpdater,
  newManagedFieldsUpdater,
  newProbabilisticSkipNonAppliedManager,
  newStripMetaManager,
  newStructuredMergeManager,
  newVersionCheckManager,
} from '../../../runtime/apimachinery/managedfields/index.js';

/** An ObjectConvertor that returns its input (FakeObjectConvertor): the tests serve one version. */
export const fakeObjectConvertor: ObjectConvertor = { convert: (obj) => obj };

/** A clock the tests move by hand; starts at a fixed instant so times are reproducible. */
export class FakeClock {
  constructor(private t: Date = new Date('2026-01-02T03:04:05Z')) {}
  readonly now = (): Date => new Date(this.t.getTime());
  step(seconds: number): void {
    this.t = new Date(this.t.getTime() + seconds * 1000);
  }
}

export interface GVK {
  readonly apiVersion: string;
  readonly kind: string;
}

/** What kube's managedfieldstest.TestFieldManager offers. */
export interface TestFieldManager {
  apiVersion(): string;
  reset(): void;
  live(): JSONObject;
  apply(obj: JSONObject, manager: string, force: boolean): Promise<void>;
  update(obj: JSONObject, manager: string): Promise<void>;
  managedFields(): ManagedFieldsEntry[];
}

/** The chain of NewTestFieldManagerImpl: the default layers without the cap, plus the test's own. */
export class TestFieldManagerImpl implements TestFieldManager {
  private readonly fieldManager: FieldManager;
  private readonly emptyObj: JSONObject;
  private liveObj: JSONObject;
  readonly clock: FakeClock;

  constructor(
    typeConverter: TypeConverter,
    private readonly gvk: GVK,
    subresource = '',
    chainFieldManager?: (m: Manager) => Manager,
    clock: FakeClock = new FakeClock(),
  ) {
    this.clock = clock;
    const inner = newStructuredMergeManager(typeConverter, fakeObjectConvertor, gvk.apiVersion, gvk.apiVersion);
    let f: Manager = newVersionCheckManager(
      newLastAppliedUpdater(
        newLastAppliedManager(
          newProbabilisticSkipNonAppliedManager(
            newBuildManagerInfoManager(newManagedFieldsUpdater(newStripMetaManager(inner), clock.now), gvk.apiVersion, subresource),
            defaultTrackOnCreateProbability,
          ),
          typeConverter,
          fakeObjectConvertor,
          gvk.apiVersion,
        ),
      ),
      gvk.apiVersion,
      gvk.kind,
    );
    if (chainFieldManager !== undefined) f = chainFieldManager(f);
    this.fieldManager = new FieldManager(f, subresource);
    this.emptyObj = { kind: gvk.kind, apiVersion: gvk.apiVersion };
    this.liveObj = deepCopyJSON(this.emptyObj);
  }

  apiVersion(): string {
    return this.gvk.apiVersion;
  }

  reset(): void {
    this.liveObj = deepCopyJSON(this.emptyObj);
  }

  live(): JSONObject {
    return deepCopyJSON(this.liveObj);
  }

  async apply(obj: JSONObject, manager: string, force: boolean): Promise<void> {
    this.liveObj = await this.fieldManager.apply(this.liveObj, obj, manager, force);
  }

  async update(obj: JSONObject, manager: string): Promise<void> {
    this.liveObj = await this.fieldManager.update(this.liveObj, obj, manager);
  }

  async updateNoErrors(obj: JSONObject, manager: string): Promise<void> {
    this.liveObj = await this.fieldManager.updateNoErrors(this.liveObj, obj, manager);
  }

  managedFields(): ManagedFieldsEntry[] {
    return objectManagedFields(this.liveObj);
  }
}

/** The managedFields of an object, [] when it has none. */
export function objectManagedFields(obj: JSONObject): ManagedFieldsEntry[] {
  const meta = ownField(obj, 'metadata');
  const mf = isJSONObject(meta) ? ownField(meta, 'managedFields') : undefined;
  return Array.isArray(mf) ? (deepCopyJSON(mf) as ManagedFieldsEntry[]) : [];
}

/** NewTestFieldManager: the main resource of `gvk`. */
export function newTestFieldManager(typeConverter: TypeConverter, gvk: GVK, clock?: FakeClock): TestFieldManagerImpl {
  return new TestFieldManagerImpl(typeConverter, gvk, '', undefined, clock);
}

/** NewTestFieldManagerSubresource. */
export function newTestFieldManagerSubresource(typeConverter: TypeConverter, gvk: GVK, subresource: string): TestFieldManagerImpl {
  return new TestFieldManagerImpl(typeConverter, gvk, subresource);
}

/** NewFakeFieldManager: the whole default chain of a built-in kind (with the cap). */
export function newFakeFieldManager(typeConverter: TypeConverter, gvk: GVK, clock: FakeClock = new FakeClock()): FieldManager {
  return newDefaultFieldManager({
    typeConverter,
    objectConverter: fakeObjectConvertor,
    apiVersion: gvk.apiVersion,
    hubApiVersion: gvk.apiVersion,
    kind: gvk.kind,
    subresource: '',
    now: clock.now,
  });
}
