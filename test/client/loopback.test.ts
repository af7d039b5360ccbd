// The generated Clientset over the loopback REST client, against the real control plane started
// in this process (SQLite in a temp dir): every typed verb, the server's errors as the same
// StatusErrors the HTTP client produces, watches read by the HTTP client's decoder, cancellation.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Flunder } from '../../apis/wardle/v1alpha1/types.js';
import type { Flunder as FlunderV1beta1 } from '../../apis/wardle/v1beta1/types.js';
import { Clientset } from '../../generated/clientset/index.js';
import { isAlreadyExists, isBadRequest, isConflict, isInvalid, isMethodNotSupported, isNotFound, isStatusError, type StatusError } from '../../runtime/apimachinery/errors/index.js';
import { LoopbackRESTClient } from '../../runtime/client/loopback/index.js';
import { restClientFromKubeconfig, type HTTPRESTClient, type RESTClient, type Warning, type WatchEvent } from '../../runtime/client/index.js';
import { apiGroups } from '../../generated/index.js';
import { startControlPlane, type ControlPlane } from '../../runtime/controlplane/controlplane.js';

const ALPHA = 'wardle.example.com/v1alpha1';

function flunder(name: string, extra: Partial<Flunder> = {}): Flunder {
  return { apiVersion: ALPHA, kind: 'Flunder', metadata: { name, ...extra.metadata }, ...(extra.spec ? { spec: extra.spec } : {}) };
}

async function rejectsWith(p: Promise<unknown>, predicate: (e: unknown) => boolean, code: number): Promise<StatusError> {
  try {
    await p;
  } catch (e) {
    assert.ok(isStatusError(e), `expected a StatusError, got ${String(e)}`);
    assert.ok(predicate(e), `predicate ${predicate.name} rejected ${JSON.stringify(e.status)}`);
    assert.equal(e.code, code);
    return e;
  }
  assert.fail('expected a rejection');
}

async function collect<T>(events: AsyncIterable<WatchEvent<T>>, until: (seen: WatchEvent<T>[]) => boolean): Promise<WatchEvent<T>[]> {
  const seen: WatchEvent<T>[] = [];
  for await (const e of events) {
    seen.push(e);
    if (until(seen)) break;
  }
  return seen;
}

describe('the generated Clientset over the loopback REST client (in-process control plane, SQLite)', () => {
  let dir: string;
  let cp: ControlPlane;
  let cs: Clientset;
  let http: HTTPRESTClient;
  let httpCS: Clientset;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loopback-client-'));
    cp = await startControlPlane({ dataDir: dir, securePort: 0, bindAddress: '127.0.0.1', groups: apiGroups });
    cs = new Clientset(cp.loopback);
    http = restClientFromKubeconfig({ path: cp.kubeconfigPath }).rest;
    httpCS = new Clientset(http);
  });
  after(async () => {
    http?.close();
    await cp?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('namespaces: create, get, list, update, JSON, merge and strategic patches, status, delete', async () => {
    const ns = cs.coreV1().namespaces();
    const created = await ns.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'lb-ns', labels: { a: '1' } } });
    assert.ok(created.metadata?.uid);
    assert.deepEqual(await ns.get('lb-ns'), created);
    assert.deepEqual(await httpCS.coreV1().namespaces().get('lb-ns'), created, 'the same object as over HTTP');
    const list = await ns.list({ labelSelector: 'a=1' });
    assert.deepEqual(
      list.items.map((n) => n.metadata?.name),
      ['lb-ns'],
    );
    assert.deepEqual(list.items[0], created, 'list items carry their kind like a get');
    const updated = await ns.update({ ...created, metadata: { ...created.metadata, labels: { a: '1', b: '2' } } });
    assert.equal(updated.metadata?.labels?.['b'], '2');
    const merged = await ns.patch('lb-ns', 'application/merge-patch+json', { metadata: { labels: { c: '3' } } });
    assert.equal(merged.metadata?.labels?.['c'], '3');
    const strategic = await ns.patch('lb-ns', 'application/strategic-merge-patch+json', { metadata: { labels: { b: null } } });
    assert.equal(strategic.metadata?.labels?.['b'], undefined);
    const json = await ns.patch('lb-ns', 'application/json-patch+json', [{ op: 'add', path: '/metadata/labels/d', value: '4' }]);
    assert.equal(json.metadata?.labels?.['d'], '4');
    const status = await ns.updateStatus({ ...json, status: { phase: 'Active' } });
    assert.equal(status.status?.phase, 'Active');
    const statusPatched = await ns.patchStatus('lb-ns', 'application/merge-patch+json', { metadata: { labels: { ignored: 'yes' } } });
    assert.equal(statusPatched.metadata?.labels?.['ignored'], undefined);
    await ns.delete('lb-ns');
    try {
      assert.ok((await ns.get('lb-ns')).metadata?.deletionTimestamp);
    } catch (e) {
      assert.ok(isNotFound(e));
    }
  });

  test('flunders: every namespaced verb, both versions, dry run, pages, deletecollection', async () => {
    const fl = cs.wardleV1alpha1().flunders('default');
    const created = await fl.create(flunder('f1', { spec: { reference: 'other' } }));
    assert.equal(created.spec?.referenceType, 'Flunder', 'defaulted by the server');
    const v1beta1: FlunderV1beta1 = await cs.wardleV1beta1().flunders('default').get('f1');
    assert.equal(v1beta1.apiVersion, 'wardle.example.com/v1beta1');
    await fl.create(flunder('dry'), { dryRun: true });
    await rejectsWith(fl.get('dry'), isNotFound, 404);
    const updated = await fl.update({ ...created, spec: { reference: 'changed' } }, { fieldManager: 'lb' });
    assert.equal(updated.spec?.reference, 'changed');
    const status = await fl.updateStatus({ ...updated, spec: { reference: 'ignored' }, status: {} });
    assert.equal(status.spec?.reference, 'changed', 'PUT /status keeps spec');
    await fl.create(flunder('f2', { metadata: { name: 'f2', labels: { sweep: 'yes' } } }));
    await fl.create(flunder('f3', { metadata: { name: 'f3', labels: { sweep: 'yes' } } }));
    const page1 = await fl.list({ limit: 2 });
    assert.ok(page1.metadata?.continue);
    const page2 = await fl.list({ limit: 2, continue: page1.metadata?.continue });
    assert.deepEqual(
      [...page1.items, ...page2.items].map((f) => f.metadata?.name),
      ['f1', 'f2', 'f3'],
    );
    await fl.deleteCollection({}, { labelSelector: 'sweep=yes' });
    assert.deepEqual(
      (await fl.list()).items.map((f) => f.metadata?.name),
      ['f1'],
    );
    await fl.delete('f1', { preconditions: { uid: created.metadata?.uid } });
    await rejectsWith(fl.get('f1'), isNotFound, 404);
  });

  test('fischers: cluster-scoped verbs and scale-less deletecollection', async () => {
    const fi = cs.wardleV1alpha1().fischers();
    const created = await fi.create({ apiVersion: ALPHA, kind: 'Fischer', metadata: { name: 'lb-fi', labels: { k: 'v' } }, disallowedFlunders: ['x'] });
    assert.equal(created.metadata?.namespace, undefined);
    const patched = await fi.patch('lb-fi', 'application/json-patch+json', [{ op: 'add', path: '/disallowedFlunders/-', value: 'y' }]);
    assert.deepEqual(patched.disallowedFlunders, ['x', 'y']);
    await fi.deleteCollection({}, { labelSelector: 'k=v' });
    assert.deepEqual((await fi.list({ labelSelector: 'k=v' })).items, []);
  });

  test("the server's errors are the StatusErrors the HTTP client produces", async () => {
    const fl = cs.wardleV1alpha1().flunders('default');
    const httpFl = httpCS.wardleV1alpha1().flunders('default');
    const notFound = await rejectsWith(fl.get('missing'), isNotFound, 404);
    const overHTTP = await rejectsWith(httpFl.get('missing'), isNotFound, 404);
    assert.deepEqual(notFound.status, overHTTP.status);
    assert.equal(notFound.message, 'flunders.wardle.example.com "missing" not found');

    const first = await fl.create(flunder('dup'));
    await rejectsWith(fl.create(flunder('dup')), isAlreadyExists, 409);
    await fl.update({ ...first, metadata: { ...first.metadata, labels: { v: '2' } } });
    const conflict = await rejectsWith(fl.update({ ...first, metadata: { ...first.metadata, labels: { v: 'stale' } } }), isConflict, 409);
    assert.match(conflict.message, /the object has been modified/);
    const invalid = await rejectsWith(fl.create(flunder('bad', { spec: { reference: 'Not_A_Name' } })), isInvalid, 422);
    assert.ok((invalid.status.details?.causes ?? []).some((c) => c.field === 'spec.reference'));
    const invalidHTTP = await rejectsWith(httpFl.create(flunder('bad', { spec: { reference: 'Not_A_Name' } })), isInvalid, 422);
    assert.deepEqual(invalid.status, invalidHTTP.status);
    await rejectsWith(fl.update({ ...first, metadata: { ...first.metadata, namespace: 'kube-system' } }), isBadRequest, 400);
    const nsRest = cs.coreV1().namespaces() as unknown as { deleteCollection(): Promise<void> };
    await rejectsWith(nsRest.deleteCollection(), isMethodNotSupported, 405);
    await fl.delete('dup');
  });

  test('a request body over the server limit is 413, as over HTTP', async () => {
    const small = new LoopbackRESTClient({ ...cp.loopback.options, maxRequestBodyBytes: 64 });
    const err = await rejectsWith(new Clientset(small).wardleV1alpha1().flunders('default').create(flunder('large-enough-to-pass-64-bytes')), (e) => isStatusError(e), 413);
    assert.equal(err.status.reason, 'RequestEntityTooLarge');
  });

  test('watch: events decoded like get and list; ends cleanly at timeoutSeconds', async () => {
    const fl = cs.wardleV1alpha1().flunders('default');
    const created = await fl.create(flunder('w1'));
    const w = await fl.watch({ resourceVersion: created.metadata?.resourceVersion, allowWatchBookmarks: true });
    const events = collect(w, (seen) => seen.some((e) => e.type === 'DELETED'));
    const modified = await fl.patch('w1', 'application/merge-patch+json', { metadata: { labels: { x: 'y' } } });
    const fromList = (await fl.list({ fieldSelector: 'metadata.name=w1' })).items[0];
    await fl.delete('w1');
    const seen = (await events).filter((e) => e.type !== 'BOOKMARK');
    assert.deepEqual(
      seen.map((e) => e.type),
      ['MODIFIED', 'DELETED'],
    );
    assert.deepEqual(seen[0]?.object, modified);
    assert.deepEqual(seen[0]?.object, fromList);
    w.stop();

    const short = await fl.watch({ timeoutSeconds: 1 });
    const ended: WatchEvent<Flunder>[] = [];
    for await (const e of short) ended.push(e);
    assert.ok(ended.every((e) => e.type !== 'ERROR'));
  });

  test('a watch the server refuses rejects with its Status', async () => {
    const fl = cs.wardleV1alpha1().flunders('default');
    const refused = await rejectsWith(fl.watch({ fieldSelector: 'spec.unknown=x' }), isBadRequest, 400);
    const overHTTP = await rejectsWith(httpCS.wardleV1alpha1().flunders('default').watch({ fieldSelector: 'spec.unknown=x' }), isBadRequest, 400);
    assert.deepEqual(refused.status, overHTTP.status);
  });

  test('cancellation: stop() and the caller aborting end a watch; an aborted request rejects with the reason', async () => {
    const fl = cs.wardleV1alpha1().flunders('default');
    const w = await fl.watch();
    const done = collect(w, () => false);
    w.stop();
    await done;
    const abort = new AbortController();
    const w2 = await fl.watch({ signal: abort.signal });
    const done2 = collect(w2, () => false);
    abort.abort();
    await done2;

    const gone = new AbortController();
    gone.abort(new Error('caller gave up'));
    await assert.rejects(fl.get('x', { signal: gone.signal }), /caller gave up/);
  });

  test('warnings reach the warning handler; discovery answers through the same client', async () => {
    const warnings: Warning[] = [];
    const client: RESTClient = new LoopbackRESTClient({ ...cp.loopback.options, warningHandler: (w) => warnings.push(w) });
    // An unknown field with fieldValidation=Warn is answered with a warning.
    await client.request({ method: 'POST', path: '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders', query: { fieldValidation: 'Warn' }, body: { ...flunder('warned'), bogus: 1 } });
    assert.ok(
      warnings.some((w) => w.code === 299 && /unknown field "bogus"/.test(w.text)),
      JSON.stringify(warnings),
    );
    const groups = await client.request<{ kind: string; groups: { name: string }[] }>({ method: 'GET', path: '/apis' });
    assert.equal(groups.kind, 'APIGroupList');
    assert.ok(groups.groups.some((g) => g.name === 'wardle.example.com'));
  });
});
