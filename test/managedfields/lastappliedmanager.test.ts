// Port of k8s.io/apimachinery/pkg/util/managedfields/internal/lastappliedmanager_test.go. The
// table of kube's test (objects created client-side with a last-applied annotation, then applied
// server-side) is data in testdata/lastappliedmanager-cases.json: one entry per Go test function,
// its cases in order ("test 0", "test 1", … as kube's t.Run names them).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import type { JSONObject } from '../../runtime/apimachinery/serializer/jsonvalue.js';
import { canonicalJSON, isJSONObject } from '../../runtime/apimachinery/serializer/jsonvalue.js';
import { isStatusError } from '../../runtime/apimachinery/errors/status-error.js';
import { newConflictError, setLastApplied } from '../../runtime/apimachinery/managedfields/index.js';
import type { PathPart } from '../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { keyByFields, makePath, Set as FieldSet } from '../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { Conflict, Conflicts } from '../../runtime/apimachinery/structuredmerge/merge/index.js';
import { swaggerTypeConverter } from './testdata/swagger-kinds.js';
import { newTestFieldManager } from './testing/testfieldmanager.js';
import type { TestFieldManagerImpl } from './testing/testfieldmanager.js';

type CasePathPart = string | number | { readonly key: unknown[] };

interface TestArgs {
  readonly fieldManager: string;
  readonly lastApplied?: string;
  readonly original: string;
  readonly applied: string;
  readonly expectConflictSet?: CasePathPart[][];
}

interface TestFunction {
  readonly name: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly cases: TestArgs[];
}

const table = JSON.parse(readFileSync(new URL('./testdata/lastappliedmanager-cases.json', import.meta.url), 'utf8')) as TestFunction[];

function yamlObject(text: string): JSONObject {
  const v: unknown = parse(text);
  return isJSONObject(v) ? v : {};
}

/** yamlToJSON of kube's test: the unstructured encoder's JSON (sorted keys) of the YAML document. */
function yamlToJSON(text: string): string {
  return canonicalJSON(yamlObject(text));
}

function toPathPart(p: CasePathPart): PathPart {
  return typeof p === 'object' ? keyByFields(...p.key) : p;
}

/** apiequality.Semantic.DeepDerivative: every value `expected` sets is set the same in `actual`. */
function deepDerivative(expected: unknown, actual: unknown): boolean {
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && expected.length === actual.length && expected.every((e, i) => deepDerivative(e, actual[i]));
  }
  if (isJSONObject(expected)) {
    return isJSONObject(actual) && Object.entries(expected).every(([k, v]) => Object.prototype.hasOwnProperty.call(actual, k) && deepDerivative(v, actual[k]));
  }
  return expected === actual;
}

async function testConflicts(f: TestFieldManagerImpl, tc: TestArgs): Promise<void> {
  f.reset();
  const original = setLastApplied(yamlObject(tc.original), yamlToJSON(tc.lastApplied ?? tc.original));
  await f.update(original, 'test_client_side_apply');
  const applied = yamlObject(tc.applied);
  const err = await f.apply(applied, tc.fieldManager, false).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (tc.expectConflictSet === undefined) {
    assert.equal(err, undefined, `expected no error but got ${String(err)}`);
  } else {
    assert.ok(isStatusError(err) && err.code === 409, `expected to get conflicts but got ${String(err)}`);
    const set = new FieldSet(...tc.expectConflictSet.map((p) => makePath(...p.map(toPathPart))));
    const expected: Conflict[] = [];
    const manager = `{"manager":"test_client_side_apply","operation":"Update","apiVersion":"${f.apiVersion()}"}`;
    set.iterate((p) => expected.push(new Conflict(manager, p)));
    assert.deepEqual(err.status, newConflictError(new Conflicts(expected)).status);
    // Forcing resolves every conflict.
    await f.apply(applied, tc.fieldManager, true);
  }
  assert.ok(deepDerivative(applied, f.live()), `expected the live object to hold the applied configuration, got ${JSON.stringify(f.live())}`);
}

for (const fn of table) {
  describe(fn.name, () => {
    const f = newTestFieldManager(swaggerTypeConverter(), { apiVersion: fn.apiVersion, kind: fn.kind });
    fn.cases.forEach((tc, i) => {
      test(`test ${i}`, () => testConflicts(f, tc));
    });
  });
}
