// Port of k8s.io/apimachinery/pkg/util/managedfields/internal/lastappliedupdater_test.go.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JSONObject } from '../../runtime/apimachinery/serializer/jsonvalue.js';
import { buildLastApplied, getLastApplied, lastAppliedConfigAnnotation, newLastAppliedUpdater } from '../../runtime/apimachinery/managedfields/index.js';
import { swaggerTypeConverter } from './testdata/swagger-kinds.js';
import { TestFieldManagerImpl } from './testing/testfieldmanager.js';

test('TestLastAppliedUpdater', async () => {
  const f = new TestFieldManagerImpl(swaggerTypeConverter(), { apiVersion: 'apps/v1', kind: 'Deployment' }, '', (m) => newLastAppliedUpdater(m));
  const originalLastApplied = 'nonempty';
  const appliedObj: JSONObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'my-deployment', annotations: { [lastAppliedConfigAnnotation]: originalLastApplied }, labels: { app: 'my-app' } },
    spec: {
      replicas: 20,
      selector: { matchLabels: { app: 'my-app' } },
      template: { metadata: { labels: { app: 'my-app' } }, spec: { containers: [{ name: 'my-c', image: 'my-image' }] } },
    },
  };
  await f.apply(appliedObj, 'NOT-KUBECTL', false);
  assert.equal(getLastApplied(f.live()), originalLastApplied, 'another manager must not update the annotation');

  await f.apply(appliedObj, 'kubectl', false);
  const lastApplied = getLastApplied(f.live()) ?? '';
  assert.notEqual(lastApplied, originalLastApplied);
  assert.match(lastApplied, /my-app/);
  assert.match(lastApplied, /my-image/);
});

describe('TestLargeLastApplied', () => {
  const configMap = (): JSONObject => ({
    metadata: { name: 'large-update-test-cm', namespace: 'default', annotations: { [lastAppliedConfigAnnotation]: 'nonempty' } },
    apiVersion: 'v1',
    kind: 'ConfigMap',
    data: { k: 'v' },
  });
  const unique = (i: number) => `this-key-is-very-long-so-as-to-create-a-very-large-serialized-fieldset-${i}`;
  const withData = (obj: JSONObject, n: number, annotations: boolean): JSONObject => {
    const data = obj.data as Record<string, string>;
    const meta = obj.metadata as { annotations: Record<string, string> };
    for (let i = 0; i < n; i++) {
      data[unique(i)] = 'A';
      if (annotations) meta.annotations[unique(i)] = 'A';
    }
    return obj;
  };
  const cases = [
    { name: 'old object + new object last-applied annotation is too big', oldObject: configMap(), newObject: withData(configMap(), 9999, false) },
    {
      name: 'old object + new object annotations + new object last-applied annotation is too big',
      oldObject: withData(configMap(), 2000, false),
      newObject: withData(configMap(), 2000, true),
    },
  ];
  for (const tc of cases) {
    test(tc.name, async () => {
      const f = new TestFieldManagerImpl(swaggerTypeConverter(), { apiVersion: 'v1', kind: 'ConfigMap' }, '', (m) => newLastAppliedUpdater(m));
      await f.apply(tc.oldObject, 'kubectl', false);
      const lastApplied = getLastApplied(f.live());
      assert.ok(lastApplied !== undefined && lastApplied !== 'nonempty', `expected an updated last-applied annotation, but got: ${String(lastApplied)}`);

      await f.apply(tc.newObject, 'kubectl', false);
      const annotations = (f.live().metadata as { annotations?: Record<string, string> }).annotations;
      assert.ok(annotations !== undefined, 'no annotations on the object');
      assert.equal(Object.prototype.hasOwnProperty.call(annotations, lastAppliedConfigAnnotation), false, 'expected no last applied annotation');
    });
  }
});

test('buildLastApplied writes what the unstructured encoder writes: sorted keys, escaped HTML, a newline', () => {
  const obj = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a<b', annotations: { [lastAppliedConfigAnnotation]: 'x' } } };
  assert.equal(buildLastApplied(JSON.parse(JSON.stringify(obj)) as JSONObject), '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"annotations":{},"name":"a\\u003cb"}}\n');
  const proto = JSON.parse('{"kind":"K","metadata":{"annotations":{"__proto__":"y"}}}') as JSONObject;
  assert.equal(buildLastApplied(proto), '{"kind":"K","metadata":{"annotations":{"__proto__":"y"}}}\n');
});
