// Port of k8s.io/apimachinery/pkg/util/managedfields/internal/versionconverter_test.go, plus the
// CRD converter's hub, missing versions and errors.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TypeConverter } from '../../runtime/apimachinery/managedfields/typeconverter.js';
import { NoCorrespondingTypeError } from '../../runtime/apimachinery/managedfields/typeconverter.js';
import type { ObjectConvertor } from '../../runtime/apimachinery/managedfields/versionconverter.js';
import { newCRDVersionConverter, newVersionConverter, NotRegisteredError } from '../../runtime/apimachinery/managedfields/versionconverter.js';
import type { JSONObject } from '../../runtime/apimachinery/serializer/jsonvalue.js';
import type { TypedValue } from '../../runtime/apimachinery/structuredmerge/typed/index.js';
import { swaggerTypeConverter } from './testdata/swagger-kinds.js';

const testTypeConverter = swaggerTypeConverter();

const objForGroupVersion = (gv: string): JSONObject => ({ apiVersion: gv, kind: 'Deployment' });

/**
 * kube's fakeObjectConvertorForTestSchema: answers the object registered for the target version,
 * whatever it is given; a version of the group it does not know answers that version's empty Deployment.
 */
function fakeObjectConvertor(objects: Record<string, JSONObject>, calls: string[] = []): ObjectConvertor {
  return {
    convert(_obj: JSONObject, apiVersion: string): JSONObject {
      calls.push(apiVersion);
      return objects[apiVersion] ?? objForGroupVersion(apiVersion);
    },
  };
}

/** A TypeConverter counting its typedToObject calls. */
function countingTypeConverter(tc: TypeConverter): TypeConverter & { typedToObjectCalls: number } {
  const counting = {
    typedToObjectCalls: 0,
    objectToTyped: (obj: JSONObject) => tc.objectToTyped(obj),
    typedToObject(v: TypedValue): JSONObject {
      counting.typedToObjectCalls++;
      return tc.typedToObject(v);
    },
  };
  return counting;
}

describe('versionconverter', () => {
  test('TestVersionConverter', async () => {
    const oc = fakeObjectConvertor({ 'apps/v1beta1': objForGroupVersion('apps/v1beta1'), 'apps/v1': objForGroupVersion('apps/v1') });
    const vc = newVersionConverter(testTypeConverter, oc, 'apps/__internal');
    const input = testTypeConverter.objectToTyped(objForGroupVersion('apps/v1beta1'));
    const output = await vc.convert(input, 'apps/v1');
    assert.deepEqual(testTypeConverter.typedToObject(output), objForGroupVersion('apps/v1'));
  });

  test('TestVersionConverterSameVersion', async () => {
    const tc = countingTypeConverter(testTypeConverter);
    const calls: string[] = [];
    const vc = newVersionConverter(tc, fakeObjectConvertor({}, calls), 'apps/__internal');
    const input = testTypeConverter.objectToTyped(objForGroupVersion('apps/v1beta1'));
    const output = await vc.convert(input, 'apps/v1beta1');
    assert.equal(output, input, 'expected same-version conversion to return the input unchanged');
    assert.equal(tc.typedToObjectCalls, 0);
    assert.deepEqual(calls, []);
  });

  test('built-in kinds go through the hub version of their own group', async () => {
    const calls: string[] = [];
    const vc = newVersionConverter(testTypeConverter, fakeObjectConvertor({}, calls), 'apps/__internal');
    await vc.convert(testTypeConverter.objectToTyped(objForGroupVersion('extensions/v1beta1')), 'apps/v1');
    assert.deepEqual(calls, ['extensions/__internal', 'apps/v1']);
  });

  test('custom resources go through the hub version itself, once when it is an end', async () => {
    const tc = {
      objectToTyped: (obj: JSONObject) => testTypeConverter.objectToTyped({ ...obj, apiVersion: 'apps/v1' }),
      typedToObject: (v: TypedValue) => ({ ...testTypeConverter.typedToObject(v), apiVersion: 'stable.example.com/v1beta1' }),
    };
    const calls: string[] = [];
    const vc = newCRDVersionConverter(tc, fakeObjectConvertor({}, calls), 'stable.example.com/v1');
    await vc.convert(testTypeConverter.objectToTyped(objForGroupVersion('apps/v1beta1')), 'stable.example.com/v2');
    assert.deepEqual(calls, ['stable.example.com/v1', 'stable.example.com/v2']);
    calls.length = 0;
    await vc.convert(testTypeConverter.objectToTyped(objForGroupVersion('apps/v1beta1')), 'stable.example.com/v1');
    assert.deepEqual(calls, ['stable.example.com/v1']);
  });

  test('a converted object is typed by its new version', async () => {
    const vc = newVersionConverter(testTypeConverter, fakeObjectConvertor({}), 'apps/__internal');
    const input = testTypeConverter.objectToTyped(objForGroupVersion('apps/v1'));
    await assert.rejects(Promise.resolve(vc.convert(input, 'apps/v9')), (err: unknown) => {
      assert.ok(err instanceof NoCorrespondingTypeError);
      assert.equal(err.message, 'no corresponding type for apps/v9, Kind=Deployment');
      assert.equal(vc.isMissingVersionError(err), true);
      return true;
    });
  });

  test('IsMissingVersionError', async () => {
    const failing: ObjectConvertor = {
      convert(obj: JSONObject, apiVersion: string): Promise<JSONObject> {
        return Promise.reject(apiVersion === 'apps/v2' ? new NotRegisteredError('Deployment', apiVersion) : new Error(`conversion of ${String(obj.apiVersion)} failed`));
      },
    };
    const vc = newVersionConverter(testTypeConverter, failing, 'apps/v1');
    const input = testTypeConverter.objectToTyped(objForGroupVersion('apps/v1'));
    await assert.rejects(Promise.resolve(vc.convert(input, 'apps/v2')), (err: unknown) => {
      assert.equal((err as Error).message, 'no kind "Deployment" is registered for version "apps/v2"');
      return vc.isMissingVersionError(err);
    });
    const fromBeta = testTypeConverter.objectToTyped(objForGroupVersion('apps/v1beta1'));
    await assert.rejects(Promise.resolve(vc.convert(fromBeta, 'apps/v1')), (err: unknown) => {
      assert.equal((err as Error).message, 'conversion of apps/v1beta1 failed');
      return !vc.isMissingVersionError(err);
    });
    await assert.rejects(Promise.resolve(vc.convert(input, 'a/b/c')), { message: 'unexpected GroupVersion string: a/b/c' });
  });
});
