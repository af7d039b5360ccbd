import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { extractFlunder, extractFlunderStatus, type FlunderApplyConfiguration } from '../../generated/applyconfigurations/wardle/v1alpha1/index.js';
import { newFakeClientset } from '../../generated/clientset/fake/index.js';
import { statusError } from './status-error.js';

// The fake clientset's writes go through the server's field manager (FieldManagedTracker): these
// check the managedFields it records and server-side apply's ownership rules through the typed
// clients, and extract<Kind> in a read-modify-apply loop.

const NOW = new Date('2026-11-26T04:00:00.500Z');
const TIME = '2026-11-26T04:00:00Z';

function clientset() {
  return newFakeClientset({ now: () => NOW });
}

const config = (spec: FlunderApplyConfiguration['spec'], extra: Partial<FlunderApplyConfiguration> = {}): FlunderApplyConfiguration => ({
  apiVersion: 'wardle.example.com/v1alpha1',
  kind: 'Flunder',
  metadata: { name: 'a' },
  spec,
  ...extra,
});

describe('fake clientset: managedFields on create and update', () => {
  test('create and update record Update entries of their field managers, as the server does', async () => {
    const flunders = clientset().wardleV1alpha1().flunders('ns');
    const created = await flunders.create({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'a' }, spec: { reference: 'r' } }, { fieldManager: 'creator' });
    assert.deepEqual(created.metadata?.managedFields, [
      { manager: 'creator', operation: 'Update', apiVersion: 'wardle.example.com/v1alpha1', time: TIME, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:reference': {} } } },
    ]);
    const updated = await flunders.update({ ...created, spec: { ...created.spec, referenceType: 'Fischer' } }, { fieldManager: 'updater' });
    assert.deepEqual(
      updated.metadata?.managedFields?.map((e) => [e.manager, e.operation, e.fieldsV1]),
      [
        ['creator', 'Update', { 'f:spec': { 'f:reference': {} } }],
        ['updater', 'Update', { 'f:spec': { 'f:referenceType': {} } }],
      ],
    );
  });

  test('without fieldManager the manager is named after the User-Agent', async () => {
    const created = await clientset()
      .wardleV1alpha1()
      .flunders('ns')
      .create({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'a' }, spec: { reference: 'r' } });
    const manager = created.metadata?.managedFields?.[0]?.manager ?? '';
    assert.ok(manager !== '' && !manager.includes('/'), manager);
  });
});

describe('fake clientset: server-side apply', () => {
  test('apply creates with an Apply entry; a second manager conflicts (409 with a cause per field) until it forces', async () => {
    const flunders = clientset().wardleV1alpha1().flunders('ns');
    const created = await flunders.apply(config({ reference: 'x' }), { fieldManager: 'alice' });
    assert.equal(created.metadata?.namespace, 'ns');
    assert.deepEqual(created.metadata?.managedFields, [
      { manager: 'alice', operation: 'Apply', apiVersion: 'wardle.example.com/v1alpha1', time: TIME, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:reference': {} } } },
    ]);
    const conflict = await statusError(flunders.apply(config({ reference: 'y' }), { fieldManager: 'bob' }));
    assert.equal(conflict.status.code, 409);
    assert.equal(conflict.status.reason, 'Conflict');
    assert.equal(conflict.status.message, 'Apply failed with 1 conflict: conflict with "alice": .spec.reference');
    assert.deepEqual(conflict.status.details?.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.reference' }]);
    const forced = await flunders.apply(config({ reference: 'y' }), { fieldManager: 'bob', force: true });
    assert.equal(forced.spec?.reference, 'y');
    assert.deepEqual(
      forced.metadata?.managedFields?.map((e) => e.manager),
      ['bob'],
      'alice lost her only field',
    );
  });

  test('a field the manager stops applying is removed, unless another manager owns it too', async () => {
    const flunders = clientset().wardleV1alpha1().flunders('ns');
    await flunders.apply(config({ reference: 'x', referenceType: 'Flunder' }), { fieldManager: 'alice' });
    await flunders.apply(config({ referenceType: 'Flunder' }), { fieldManager: 'bob' });
    const dropped = await flunders.apply(config({}), { fieldManager: 'alice' });
    assert.deepEqual(dropped.spec, { referenceType: 'Flunder' }, 'reference (alice only) removed; referenceType kept for bob');
  });

  test('dryRun applies nothing; an apply without a field manager is refused as the server does', async () => {
    const cs = clientset();
    const flunders = cs.wardleV1alpha1().flunders('ns');
    const dry = await flunders.apply(config({ reference: 'x' }), { fieldManager: 'alice', dryRun: true });
    assert.equal(dry.spec?.reference, 'x');
    assert.equal((await statusError(flunders.get('a'))).status.code, 404);
    const invalid = await statusError(flunders.apply(config({ reference: 'x' }), { fieldManager: '' }));
    assert.equal(invalid.status.code, 422);
    assert.equal(invalid.status.message, 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
  });

  test('keys such as __proto__ are data: a ConfigMap applies and owns a __proto__ key', async () => {
    const configmaps = clientset().coreV1().configmaps('ns');
    const data = JSON.parse('{"__proto__": "p", "constructor": "c"}') as Record<string, string>;
    const applied = await configmaps.apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data }, { fieldManager: 'alice' });
    assert.ok(Object.hasOwn(applied.data ?? {}, '__proto__'));
    assert.equal(Object.getOwnPropertyDescriptor(applied.data, '__proto__')?.value, 'p');
    const fields = applied.metadata?.managedFields?.[0]?.fieldsV1 as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(fields['f:data'] ?? {}), ['f:__proto__', 'f:constructor']);
  });
});

describe('extract<Kind>: read-modify-apply', () => {
  test("extractFlunder returns what the manager applied, not other managers' fields; modified and applied again, it keeps ownership without conflicts", async () => {
    const flunders = clientset().wardleV1alpha1().flunders('ns');
    await flunders.apply(config({ reference: 'x' }, { metadata: { name: 'a', labels: { owner: 'alice' } } }), { fieldManager: 'alice' });
    const live = await flunders.patch('a', 'application/merge-patch+json', { spec: { referenceType: 'Fischer' } }, { fieldManager: 'kubectl-edit' });

    const mine = extractFlunder(live, 'alice');
    assert.deepEqual(mine, { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'a', namespace: 'ns', labels: { owner: 'alice' } }, spec: { reference: 'x' } });
    assert.deepEqual(extractFlunder(live, 'nobody'), { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'a', namespace: 'ns' } });

    const next = await flunders.apply({ ...mine, spec: { ...mine.spec, reference: 'z' } }, { fieldManager: 'alice' });
    assert.deepEqual(next.spec, { reference: 'z', referenceType: 'Fischer' });
    assert.deepEqual(next.metadata?.labels, { owner: 'alice' });
    assert.deepEqual(extractFlunder(next, 'alice').spec, { reference: 'z' });
  });

  test("extractFlunderStatus reads the manager's status apply", async () => {
    const flunders = clientset().wardleV1alpha1().flunders('ns');
    await flunders.apply(config({ reference: 'x' }), { fieldManager: 'alice' });
    const condition = { type: 'Ready', status: 'True' as const, reason: 'Done', message: '', lastTransitionTime: TIME };
    const live = await flunders.applyStatus(config(undefined, { status: { conditions: [condition] } }), { fieldManager: 'controller' });
    assert.deepEqual(live.status?.conditions, [condition]);
    assert.deepEqual(extractFlunderStatus(live, 'controller'), {
      apiVersion: 'wardle.example.com/v1alpha1',
      kind: 'Flunder',
      metadata: { name: 'a', namespace: 'ns' },
      status: { conditions: [condition] },
    });
    assert.equal(extractFlunder(live, 'controller').status, undefined, "the status entry is not the main resource's");
  });
});

describe('fake clientset: the scale subresource', () => {
  test('updateScale records an Update entry of subresource scale owning the replicas; a scale apply conflicts with it as on the server', async () => {
    const cs = clientset();
    const tabs = cs.stableV1().crontabs('ns');
    await tabs.apply({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 't' }, spec: { cronSpec: '* * * * *', replicas: 1 } }, { fieldManager: 'alice' });
    await tabs.updateScale('t', { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 't' }, spec: { replicas: 3 } }, { fieldManager: 'scaler' });
    const scaled = await tabs.get('t');
    assert.equal(scaled.spec?.replicas, 3);
    assert.deepEqual(
      scaled.metadata?.managedFields?.map((e) => [e.manager, e.operation, e.subresource, e.fieldsV1]),
      [
        ['alice', 'Apply', undefined, { 'f:spec': { 'f:cronSpec': {} } }],
        ['scaler', 'Update', 'scale', { 'f:spec': { 'f:replicas': {} } }],
      ],
    );
    const conflict = await statusError(
      tabs.apply({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 't' }, spec: { cronSpec: '* * * * *', replicas: 1 } }, { fieldManager: 'alice' }),
    );
    assert.equal(conflict.status.code, 409);
    assert.deepEqual(conflict.status.details?.causes, [
      { reason: 'FieldManagerConflict', message: 'conflict with "scaler" with subresource "scale" using stable.example.com/v1', field: '.spec.replicas' },
    ]);
  });
});
