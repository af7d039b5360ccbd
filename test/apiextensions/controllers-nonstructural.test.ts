// The non-structural schema condition: what kube's controller computes from a CRD's schemas,
// and the controller keeping the condition in step, run over the generated fake clientset
// (apiextensions.k8s.io/v1 refuses non-structural schemas on create, so a served CRD with one
// exists only when stored before or imported; the fake holds such an object as given).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CustomResourceDefinition } from '../../apis/apiextensions/v1/types.js';
import { newSimpleClientset } from '../../generated/clientset/fake/index.js';
import { SharedInformerFactory } from '../../generated/informers/factory.js';
import { newSharedInformerFactoryCore } from '../../runtime/client/index.js';
import { silentLogger } from '../../runtime/client/cache/index.js';
import { NonStructuralSchemaController, nonStructuralCondition } from '../../runtime/apiextensions/controllers/nonstructural.js';
import { condition, newCRD, until } from './controllers-helpers.js';

function nonStructural(): CustomResourceDefinition {
  const crd = newCRD('legacy.example.com', 'olds', 'Old');
  crd.metadata = { ...crd.metadata, generation: 1 };
  crd.spec.versions[0]!.schema = { openAPIV3Schema: { type: 'object', properties: { spec: { properties: { a: { type: 'string' } } }, list: { type: 'array' } } } };
  return crd;
}

test("nonStructuralCondition: kube's Violations condition listing every problem; none for structural schemas", () => {
  const cond = nonStructuralCondition(nonStructural());
  assert.equal(cond?.status, 'True');
  assert.equal(cond?.reason, 'Violations');
  assert.equal(
    cond?.message,
    '[spec.versions[0].schema.openAPIV3Schema.properties[list].items: Required value: must be specified, spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields]',
  );
  assert.equal(nonStructuralCondition(newCRD('stable.example.com', 'crontabs', 'CronTab')), undefined);
});

test('the controller sets NonStructuralSchema, and removes it once the schema is structural', async () => {
  const cs = newSimpleClientset(nonStructural());
  const factory = new SharedInformerFactory(cs, newSharedInformerFactoryCore({ tuning: { logger: silentLogger } }));
  const crds = cs.apiextensionsV1().customresourcedefinitions();
  const controller = new NonStructuralSchemaController({ informer: factory.apiextensions().v1().customresourcedefinitions(), crds, now: () => new Date('2024-05-01T10:00:00Z') });
  factory.start();
  await factory.waitForCacheSync();
  const stop = new AbortController();
  const running = controller.run(stop.signal);
  try {
    const flagged = await until('NonStructuralSchema=True', async () => {
      const crd = await crds.get('olds.legacy.example.com');
      return condition(crd, 'NonStructuralSchema') !== undefined ? crd : undefined;
    });
    assert.deepEqual(condition(flagged, 'NonStructuralSchema'), { ...nonStructuralCondition(nonStructural()), lastTransitionTime: '2024-05-01T10:00:00Z' });

    const fixed = structuredClone(flagged);
    fixed.spec.versions[0]!.schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } } };
    fixed.metadata = { ...fixed.metadata, generation: 2 };
    await crds.update(fixed);
    await until('NonStructuralSchema removed', async () => (condition(await crds.get('olds.legacy.example.com'), 'NonStructuralSchema') === undefined ? true : undefined));
  } finally {
    stop.abort();
    await running;
    await factory.base.shutdown();
  }
});
