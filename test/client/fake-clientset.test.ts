import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Namespace } from '../../apis/core/v1/namespace.js';
import type { Flunder } from '../../apis/wardle/v1alpha1/types.js';
import { isAlreadyExists, isBadRequest, isConflict, isInvalid, isMethodNotSupported, isNotFound, isResourceExpired } from '../../runtime/apimachinery/errors/index.js';
import { newFakeClientset, newSimpleClientset } from '../../generated/clientset/fake/index.js';
import { statusError } from './status-error.js';

const flunder = (name: string, extra: Partial<Flunder> = {}): Flunder => ({
  apiVersion: 'wardle.example.com/v1alpha1',
  kind: 'Flunder',
  metadata: { name, ...extra.metadata },
  spec: { reference: 'r', referenceType: 'Flunder', ...extra.spec },
});

describe('fake clientset: typed client verbs', () => {
  test('create sets what the server sets; get returns it', async () => {
    const cs = newFakeClientset({ now: () => new Date('2024-05-06T07:08:09.123Z') });
    const created = await cs
      .wardleV1alpha1()
      .flunders('ns')
      .create(flunder('a', { metadata: { labels: { app: 'x' } } }));
    assert.equal(created.apiVersion, 'wardle.example.com/v1alpha1');
    assert.equal(created.kind, 'Flunder');
    assert.equal(created.metadata?.namespace, 'ns');
    assert.equal(created.metadata?.resourceVersion, '1');
    assert.equal(created.metadata?.generation, 1);
    assert.equal(created.metadata?.creationTimestamp, '2024-05-06T07:08:09Z');
    assert.match(created.metadata?.uid ?? '', /^[0-9a-f-]{36}$/);
    assert.deepEqual(await cs.wardleV1alpha1().flunders('ns').get('a'), created);
    // Returned objects are copies: changing one changes nothing stored.
    created.spec!.reference = 'changed';
    assert.equal((await cs.wardleV1alpha1().flunders('ns').get('a')).spec?.reference, 'r');
  });

  test('errors carry kube Status messages and the typed predicates match', async () => {
    const cs = newSimpleClientset(flunder('a', { metadata: { namespace: 'ns' } }));
    const flunders = cs.wardleV1alpha1().flunders('ns');
    const notFound = await statusError(flunders.get('nope'));
    assert.ok(isNotFound(notFound));
    assert.equal(notFound.status.message, 'flunders.wardle.example.com "nope" not found');
    assert.deepEqual(notFound.status.details, { name: 'nope', group: 'wardle.example.com', kind: 'flunders' });
    assert.equal(notFound.code, 404);

    const exists = await statusError(flunders.create(flunder('a')));
    assert.ok(isAlreadyExists(exists));
    assert.equal(exists.status.message, 'flunders.wardle.example.com "a" already exists');
    assert.equal(exists.code, 409);

    const invalid = await statusError(flunders.create(flunder('Bad_Name')));
    assert.ok(isInvalid(invalid));
    assert.match(invalid.status.message, /^Flunder\.wardle\.example\.com "Bad_Name" is invalid: metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);

    const noName = await statusError(flunders.create({ spec: {} }));
    assert.equal(noName.status.message, 'Flunder.wardle.example.com "" is invalid: metadata.name: Required value: name or generateName is required');

    const wrongKind = await statusError(flunders.create({ ...flunder('b'), kind: 'Fischer' }));
    assert.ok(isBadRequest(wrongKind));
    assert.equal(wrongKind.status.message, 'the kind in the data (Fischer) does not match the expected kind (Flunder)');

    const withRV = await statusError(flunders.create(flunder('c', { metadata: { resourceVersion: '5' } })));
    assert.equal(withRV.code, 500);
    assert.equal(withRV.status.message, 'resourceVersion should not be set on objects to be created');
  });

  test('generateName picks a free name', async () => {
    const cs = newSimpleClientset();
    const a = await cs
      .wardleV1alpha1()
      .flunders('ns')
      .create({ metadata: { generateName: 'gen-' }, spec: {} });
    assert.match(a.metadata?.name ?? '', /^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  test("generateName collisions end in kube's conflict after the retries", async () => {
    const cs = newFakeClientset({ random: () => 0 });
    const flunders = cs.wardleV1alpha1().flunders('ns');
    await flunders.create({ metadata: { generateName: 'x-' } });
    const err = await statusError(flunders.create({ metadata: { generateName: 'x-' } }));
    assert.ok(isAlreadyExists(err));
    assert.equal(err.status.message, 'Flunder.wardle.example.com "x-bbbbb" already exists, the server was not able to generate a unique name for the object');
  });

  test('update: optimistic concurrency, generation, no-op updates write nothing', async () => {
    const cs = newSimpleClientset(flunder('a', { metadata: { namespace: 'ns' } }));
    const flunders = cs.wardleV1alpha1().flunders('ns');
    const v1 = await flunders.get('a');
    const v2 = await flunders.update({ ...v1, spec: { ...v1.spec, reference: 'other' } });
    assert.equal(v2.metadata?.generation, 2);
    assert.equal(Number(v2.metadata?.resourceVersion), Number(v1.metadata?.resourceVersion) + 1);

    const stale = await statusError(flunders.update({ ...v1, spec: { reference: 'late' } }));
    assert.ok(isConflict(stale));
    assert.equal(stale.status.message, 'Operation cannot be fulfilled on flunders.wardle.example.com "a": the object has been modified; please apply your changes to the latest version and try again');

    const labelled = await flunders.update({ ...v2, metadata: { ...v2.metadata, labels: { l: '1' } } });
    assert.equal(labelled.metadata?.generation, 2, 'metadata changes do not bump generation');
    const same = await flunders.update(labelled);
    assert.equal(same.metadata?.resourceVersion, labelled.metadata?.resourceVersion);

    const unconditional = await flunders.update({ ...flunder('a'), metadata: { name: 'a' } });
    assert.equal(unconditional.spec?.reference, 'r');
    assert.equal(unconditional.metadata?.uid, v1.metadata?.uid);
    assert.equal(unconditional.metadata?.creationTimestamp, v1.metadata?.creationTimestamp);

    const missing = await statusError(flunders.update(flunder('zz')));
    assert.ok(isNotFound(missing));
    const immutable = await statusError(flunders.update({ ...labelled, metadata: { ...labelled.metadata, uid: 'other' } }));
    assert.ok(isConflict(immutable));
    assert.match(immutable.status.message, /Precondition failed: UID in precondition: other, UID in object meta: /);
  });

  test('the status subresource: update ignores status, updateStatus changes only status', async () => {
    const cs = newSimpleClientset();
    const namespaces = cs.coreV1().namespaces();
    const ns: Namespace = await namespaces.create({ metadata: { name: 'team' }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Terminating' } });
    assert.equal(ns.status, undefined, 'status is dropped on create when a status subresource owns it');
    const withStatus = await namespaces.updateStatus({ ...ns, status: { phase: 'Active' }, spec: { finalizers: [] }, metadata: { ...ns.metadata, labels: { a: 'b' } } });
    assert.deepEqual(withStatus.status, { phase: 'Active' });
    assert.deepEqual(withStatus.spec, { finalizers: ['kubernetes'] });
    assert.equal(withStatus.metadata?.labels, undefined);
    const main = await namespaces.update({ ...withStatus, status: { phase: 'Terminating' }, metadata: { ...withStatus.metadata, labels: { a: 'b' } } });
    assert.deepEqual(main.status, { phase: 'Active' });
    assert.deepEqual(main.metadata?.labels, { a: 'b' });
    assert.equal(main.metadata?.generation, 1);
  });

  test('patch: JSON, merge and strategic (schema merge keys), on the object and on status', async () => {
    const cs = newSimpleClientset(flunder('a', { metadata: { namespace: 'ns', labels: { keep: 'y', drop: 'y' } } }));
    const flunders = cs.wardleV1alpha1().flunders('ns');
    const merged = await flunders.patch('a', 'application/merge-patch+json', { metadata: { labels: { drop: null } }, spec: { reference: 'm' } });
    assert.deepEqual(merged.metadata?.labels, { keep: 'y' });
    assert.equal(merged.spec?.reference, 'm');
    assert.equal(merged.metadata?.generation, 2);
    const jsonPatched = await flunders.patch('a', 'application/json-patch+json', [{ op: 'replace', path: '/spec/reference', value: 'j' }]);
    assert.equal(jsonPatched.spec?.reference, 'j');
    const failed = await statusError(flunders.patch('a', 'application/json-patch+json', [{ op: 'test', path: '/spec/reference', value: 'no' }]));
    assert.ok(isInvalid(failed));
    assert.equal(failed.code, 422);
    const stale = await statusError(flunders.patch('a', 'application/merge-patch+json', { metadata: { resourceVersion: '1' } }));
    assert.ok(isConflict(stale));
    const missing = await statusError(flunders.patch('zz', 'application/merge-patch+json', {}));
    assert.ok(isNotFound(missing));

    const namespaces = cs.coreV1().namespaces();
    await namespaces.create({ metadata: { name: 'n' } });
    await namespaces.patchStatus('n', 'application/merge-patch+json', {
      status: {
        conditions: [
          { type: 'A', status: 'True' },
          { type: 'B', status: 'False' },
        ],
      },
    });
    const strategic = await namespaces.patchStatus('n', 'application/strategic-merge-patch+json', {
      status: { conditions: [{ type: 'B', status: 'True' }] },
      metadata: { labels: { ignored: 'by-status' } },
    });
    assert.deepEqual(
      strategic.status?.conditions,
      [
        { type: 'A', status: 'True' },
        { type: 'B', status: 'True' },
      ],
      'merged by the type merge key',
    );
    assert.equal(strategic.metadata?.labels, undefined);
    const replacedByMerge = await namespaces.patchStatus('n', 'application/merge-patch+json', { status: { conditions: [{ type: 'C', status: 'True' }] } });
    assert.deepEqual(replacedByMerge.status?.conditions, [{ type: 'C', status: 'True' }]);
  });

  test("apply creates a missing object and merges another manager's configuration into it (ownership: test/client/apply-fake.test.ts)", async () => {
    const cs = newSimpleClientset();
    const flunders = cs.wardleV1alpha1().flunders('ns');
    const created = await flunders.apply({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'a', namespace: 'ns' }, spec: { reference: 'x' } }, { fieldManager: 'test' });
    assert.equal(created.metadata?.resourceVersion, '1');
    const updated = await flunders.apply(
      { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'a', labels: { l: 'v' } }, spec: { referenceType: 'Fischer' } },
      { fieldManager: 'other', force: true },
    );
    assert.deepEqual(updated.spec, { reference: 'x', referenceType: 'Fischer' });
    assert.deepEqual(updated.metadata?.labels, { l: 'v' });
  });

  test('list: namespaces, label and field selectors (selectable fields), unsupported fields', async () => {
    const cs = newSimpleClientset(
      { ...flunder('a', { metadata: { namespace: 'n1', labels: { tier: 'web' } } }), apiVersion: 'wardle.example.com/v1beta1' },
      { ...flunder('b', { metadata: { namespace: 'n1', labels: { tier: 'db' } } }), apiVersion: 'wardle.example.com/v1beta1' },
      { apiVersion: 'wardle.example.com/v1beta1', kind: 'Flunder', metadata: { name: 'c', namespace: 'n2', labels: { tier: 'web' } }, spec: { referenceType: 'Fischer' } },
    );
    const v1beta1 = cs.wardleV1beta1();
    const names = (l: { items: { metadata?: { name?: string } }[] }): string[] => l.items.map((i) => i.metadata?.name ?? '');
    assert.deepEqual(names(await v1beta1.flunders('n1').list()), ['a', 'b']);
    assert.deepEqual(names(await v1beta1.flunders('').list()), ['a', 'b', 'c']);
    assert.deepEqual(names(await v1beta1.flunders('').list({ labelSelector: 'tier=web' })), ['a', 'c']);
    assert.deepEqual(names(await v1beta1.flunders('').list({ labelSelector: 'tier in (db),!missing' })), ['b']);
    assert.deepEqual(names(await v1beta1.flunders('').list({ fieldSelector: 'spec.referenceType=Fischer' })), ['c']);
    assert.deepEqual(names(await v1beta1.flunders('').list({ fieldSelector: 'metadata.namespace=n1,metadata.name!=a' })), ['b']);
    const list = await v1beta1.flunders('').list();
    assert.equal(list.kind, 'FlunderList');
    assert.equal(list.apiVersion, 'wardle.example.com/v1beta1');
    assert.equal(list.metadata.resourceVersion, '3');
    assert.deepEqual(names(await cs.wardleV1alpha1().flunders('').list()), [], 'versions are separate resources in the fake');

    const unsupported = await statusError(v1beta1.flunders('').list({ fieldSelector: 'spec.reference=x' }));
    assert.ok(isBadRequest(unsupported));
    assert.equal(unsupported.status.message, 'field label not supported: spec.reference');
    const badLabels = await statusError(v1beta1.flunders('').list({ labelSelector: 'a in (' }));
    assert.ok(isBadRequest(badLabels));
  });

  test('list pages with limit and continue at the snapshot of the first page', async () => {
    const cs = newSimpleClientset();
    const fischers = cs.wardleV1alpha1().fischers();
    for (const n of ['e', 'a', 'd', 'b', 'c']) await fischers.create({ metadata: { name: n } });
    const page1 = await fischers.list({ limit: 2 });
    assert.deepEqual(
      page1.items.map((i) => i.metadata?.name),
      ['a', 'b'],
    );
    assert.equal(page1.metadata.remainingItemCount, 3);
    assert.ok(page1.metadata.continue);
    await fischers.delete('c');
    await fischers.create({ metadata: { name: 'bb' } });
    const page2 = await fischers.list({ limit: 2, continue: page1.metadata.continue });
    assert.deepEqual(
      page2.items.map((i) => i.metadata?.name),
      ['c', 'd'],
      'the snapshot of the first page, not the current state',
    );
    assert.equal(page2.metadata.resourceVersion, page1.metadata.resourceVersion);
    const page3 = await fischers.list({ limit: 2, continue: page2.metadata.continue });
    assert.deepEqual(
      page3.items.map((i) => i.metadata?.name),
      ['e'],
    );
    assert.equal(page3.metadata.continue, undefined);
    const bad = await statusError(fischers.list({ continue: 'not-a-token!' }));
    assert.ok(isBadRequest(bad));
    assert.match(bad.status.message, /^invalid continue token: continue key is not valid/);
    const exact = await fischers.list({ resourceVersion: page1.metadata.resourceVersion, resourceVersionMatch: 'Exact' });
    assert.equal(exact.items.length, 5);
    const future = await statusError(fischers.list({ resourceVersion: '999' }));
    assert.equal(future.code, 504);
    assert.equal(future.status.message, 'Timeout: Too large resource version: 999, current: 7');
  });

  test('a continue token older than the history is 410 Expired', async () => {
    const cs = newFakeClientset({ historyLimit: 2 });
    const fischers = cs.wardleV1alpha1().fischers();
    for (const n of ['a', 'b', 'c']) await fischers.create({ metadata: { name: n } });
    const page1 = await fischers.list({ limit: 1 });
    for (const n of ['d', 'e', 'f']) await fischers.create({ metadata: { name: n } });
    const expired = await statusError(fischers.list({ limit: 1, continue: page1.metadata.continue }));
    assert.ok(isResourceExpired(expired));
    assert.equal(expired.code, 410);
    assert.match(expired.status.message, /^The provided continue parameter is too old to display a consistent list result/);
  });

  test('delete, preconditions, finalizers and deletionTimestamp', async () => {
    const clock = { t: Date.parse('2024-01-01T00:00:00Z') };
    const cs = newFakeClientset({ now: () => new Date(clock.t) });
    const flunders = cs.wardleV1alpha1().flunders('ns');
    await flunders.create(flunder('plain'));
    await flunders.delete('plain');
    assert.ok(isNotFound(await statusError(flunders.get('plain'))));
    assert.ok(isNotFound(await statusError(flunders.delete('plain'))));

    const kept = await flunders.create(flunder('kept', { metadata: { finalizers: ['example.com/cleanup'] } }));
    const wrongUID = await statusError(flunders.delete('kept', { preconditions: { uid: 'nope' } }));
    assert.ok(isConflict(wrongUID));
    assert.match(wrongUID.status.message, /the UID in the precondition \(nope\) does not match the UID in record/);
    clock.t += 60_000;
    await flunders.delete('kept', { preconditions: { uid: kept.metadata?.uid } });
    const deleting = await flunders.get('kept');
    assert.equal(deleting.metadata?.deletionTimestamp, '2024-01-01T00:01:00Z');
    assert.equal(deleting.metadata?.deletionGracePeriodSeconds, 0);
    assert.equal(deleting.metadata?.generation, 2);
    const noNewFinalizers = await statusError(flunders.update({ ...deleting, metadata: { ...deleting.metadata, finalizers: ['example.com/cleanup', 'another.io/x'] } }));
    assert.ok(isInvalid(noNewFinalizers));
    // Removing the last finalizer of an object being deleted deletes it.
    await flunders.update({ ...deleting, metadata: { ...deleting.metadata, finalizers: [] } });
    assert.ok(isNotFound(await statusError(flunders.get('kept'))));

    await flunders.create(flunder('orphan'));
    await flunders.delete('orphan', { propagationPolicy: 'Orphan' });
    assert.deepEqual((await flunders.get('orphan')).metadata?.finalizers, ['orphan']);
  });

  test('deleteCollection deletes what the selectors select', async () => {
    const cs = newSimpleClientset(
      flunder('a', { metadata: { namespace: 'ns', labels: { x: '1' } } }),
      flunder('b', { metadata: { namespace: 'ns', labels: { x: '2' } } }),
      flunder('c', { metadata: { namespace: 'other', labels: { x: '1' } } }),
    );
    await cs.wardleV1alpha1().flunders('ns').deleteCollection({}, { labelSelector: 'x=1' });
    const left = await cs.wardleV1alpha1().flunders('').list();
    assert.deepEqual(
      left.items.map((i) => `${i.metadata?.namespace}/${i.metadata?.name}`),
      ['ns/b', 'other/c'],
    );
  });

  test('dry run writes nothing', async () => {
    const cs = newSimpleClientset(flunder('a', { metadata: { namespace: 'ns' } }));
    const flunders = cs.wardleV1alpha1().flunders('ns');
    const rv = cs.tracker().resourceVersion();
    const dry = await flunders.create(flunder('b'), { dryRun: true });
    assert.equal(dry.metadata?.name, 'b');
    assert.equal(dry.metadata?.resourceVersion, undefined);
    await flunders.update({ ...flunder('a'), spec: { reference: 'dry' } }, { dryRun: true });
    await flunders.delete('a', { dryRun: ['All'] });
    assert.equal(cs.tracker().resourceVersion(), rv);
    assert.equal((await flunders.get('a')).spec?.reference, 'r');
    assert.ok(isNotFound(await statusError(flunders.get('b'))));
  });

  test('verbs the server does not serve are 405; misplaced paths are 404', async () => {
    const cs = newSimpleClientset();
    const ns = cs.coreV1().namespaces() as unknown as { deleteCollection(): Promise<void> };
    const notServed = await statusError(ns.deleteCollection());
    assert.ok(isMethodNotSupported(notServed));
    assert.equal(notServed.status.message, 'deletecollection is not supported on resources of kind "namespaces"');
    const create = await statusError(cs.wardleV1alpha1().flunders('').create(flunder('x')));
    assert.ok(isMethodNotSupported(create), 'no create across namespaces');
    const unknown = await statusError(cs.rest.request({ method: 'GET', path: '/apis/wardle.example.com/v1alpha1/ponies' }));
    assert.ok(isNotFound(unknown));
    const noGroup = await statusError(cs.rest.request({ method: 'GET', path: '/apis/nope.io/v1/things' }));
    assert.equal(noGroup.status.message, 'the server could not find the requested resource');
    const putCollection = await statusError(cs.rest.request({ method: 'PUT', path: '/apis/wardle.example.com/v1alpha1/namespaces/ns/flunders', body: {} }));
    assert.ok(isMethodNotSupported(putCollection));
    const badRV = await statusError(cs.wardleV1alpha1().fischers().watch({ resourceVersion: 'abc' }));
    assert.ok(isBadRequest(badRV));
    assert.equal(badRV.status.message, 'invalid resource version: strconv.ParseUint: parsing "abc": invalid syntax');
    const noScale = await statusError(cs.rest.request({ method: 'GET', path: '/apis/wardle.example.com/v1alpha1/namespaces/ns/flunders/a/scale' }));
    assert.ok(isNotFound(noScale));
  });
});
