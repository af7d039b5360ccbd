// Helpers shared by the ported field manager tests (expectIdempotence, expectManagesField, fakeManager).
import assert from 'node:assert/strict';
import type { JSONObject } from '../../../runtime/apimachinery/serializer/jsonvalue.js';
import type { Managed, Manager, ManagerApplyResult, ManagerResult } from '../../../runtime/apimachinery/managedfields/index.js';
import { fieldsToSet } from '../../../runtime/apimachinery/managedfields/index.js';
import type { Path } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { pathString } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import type { TestFieldManager } from './testfieldmanager.js';

/** A Manager that passes updates to the next layer (or returns them unchanged), or fails with `error` when set. */
export class FakeManager implements Manager {
  manager: Manager | undefined;
  error: Error | undefined;

  async update(liveObj: JSONObject, newObj: JSONObject, managed: Managed, manager: string): Promise<ManagerResult> {
    if (this.error !== undefined) throw this.error;
    if (this.manager !== undefined) return this.manager.update(liveObj, newObj, managed, manager);
    return { object: newObj, managed };
  }

  apply(): Promise<ManagerApplyResult> {
    throw new Error('not implemented');
  }
}

/** A no-op update leaves managedFields as they are. */
export async function expectIdempotence(f: TestFieldManager): Promise<void> {
  const before = f.managedFields();
  await f.update(f.live(), 'no-op-update');
  assert.deepEqual(f.managedFields(), before, 'expected idempotence, but managedFields changed');
}

/** Manager `m` currently manages `p`. */
export function expectManagesField(f: TestFieldManager, m: string, p: Path): void {
  const entry = f.managedFields().find((e) => e.manager === m);
  assert.ok(entry !== undefined, `expected to find manager name ${m}, but got: ${JSON.stringify(f.managedFields())}`);
  const s = fieldsToSet(entry.fieldsV1 ?? {});
  assert.ok(s.has(p), `expected managedFields for ${m} to contain ${pathString(p)}, but got:\n${s.toString()}`);
}

/** An object of `apiVersion`/`kind` with the given labels set to "true". */
export function objectWithLabels(apiVersion: string, kind: string, ...labels: string[]): JSONObject {
  const labelMap: JSONObject = {};
  for (const key of labels) labelMap[key] = 'true';
  return { apiVersion, kind, metadata: { labels: labelMap } };
}
