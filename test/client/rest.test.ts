// The generated Clientset over the HTTP REST client against the real control plane (a
// subprocess, as users run it), on SQLite and on etcd: every verb of the typed clients, the
// server's errors as typed StatusErrors, watches decoded like gets and lists.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Flunder } from '../../apis/wardle/v1alpha1/types.js';
import type { Flunder as FlunderV1beta1 } from '../../apis/wardle/v1beta1/types.js';
import { Clientset } from '../../generated/clientset/index.js';
import { isAlreadyExists, isBadRequest, isConflict, isInvalid, isMethodNotSupported, isNotFound, isStatusError, isUnauthorized, type StatusError } from '../../runtime/apimachinery/errors/index.js';
import { restClientForConfig, restClientFromKubeconfig, type HTTPRESTClient, type Warning, type WatchEvent } from '../../runtime/client/index.js';
import { describeBackends } from '../integration/harness.js';

const tokenDir = mkdtempSync(join(tmpdir(), 'rest-client-tokens-'));
const tokenCSV = join(tokenDir, 'tokens.csv');
writeFileSync(tokenCSV, 'admin-token,token-admin,uid-1,"system:masters"\n');
process.once('exit', () => rmSync(tokenDir, { recursive: true, force: true }));

const ALPHA = 'wardle.example.com/v1alpha1';

function flunder(name: string, extra: Partial<Flunder> = {}): Flunder {
  return { apiVersion: ALPHA, kind: 'Flunder', metadata: { name, ...extra.metadata }, ...(extra.spec ? { spec: extra.spec } : {}) };
}

/** Rejects with a StatusError matching the predicate; returns it for further checks. */
async function rejectsWith(p: Promise<unknown>, predicate: (e: unknown) => boolean, code: number): Promise<StatusError> {
  try {
    await p;
  } catch (e) {
    assert.ok(isStatusError(e), `expected a StatusError, got ${String(e)}`);
    assert.ok(predicate(e), `predicate ${predicate.name} rejected ${JSON.stringify(e.status)}`);
    assert.equal(e.code, code);
    assert.equal(e.status.kind, 'Status');
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

describeBackends(
  'typed clients over the HTTP REST client',
  (get) => {
    let rest: HTTPRESTClient;
    let cs: Clientset;
    const warnings: Warning[] = [];

    before(() => {
      const c = restClientFromKubeconfig({ path: get().kubeconfigPath, options: { warningHandler: (w) => warnings.push(w) } });
      assert.equal(c.namespace, 'default');
      rest = c.rest;
      cs = new Clientset(rest);
    });
    after(() => rest.close());

    test('namespaces: create, get, list, update, patch, status, delete', async () => {
      const ns = cs.coreV1().namespaces();
      const created = await ns.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'rest-ns', labels: { a: '1' } } });
      assert.equal(created.metadata?.name, 'rest-ns');
      assert.ok(created.metadata?.uid);
      const got = await ns.get('rest-ns');
      assert.deepEqual(got, created);
      const list = await ns.list({ labelSelector: 'a=1' });
      assert.deepEqual(
        list.items.map((n) => n.metadata?.name),
        ['rest-ns'],
      );
      assert.equal(list.items[0]?.kind, 'Namespace', 'list items carry their kind like a get');
      assert.deepEqual(list.items[0], got);
      const updated = await ns.update({ ...got, metadata: { ...got.metadata, labels: { a: '1', b: '2' } } });
      assert.equal(updated.metadata?.labels?.['b'], '2');
      const patched = await ns.patch('rest-ns', 'application/merge-patch+json', { metadata: { labels: { c: '3' } } });
      const own = { 'kubernetes.io/metadata.name': 'rest-ns' }; // the label the server keeps on every namespace
      assert.deepEqual(patched.metadata?.labels, { ...own, a: '1', b: '2', c: '3' });
      const strategic = await ns.patch('rest-ns', 'application/strategic-merge-patch+json', { metadata: { labels: { b: null } } });
      assert.deepEqual(strategic.metadata?.labels, { ...own, a: '1', c: '3' });
      const json = await ns.patch('rest-ns', 'application/json-patch+json', [{ op: 'add', path: '/metadata/labels/d', value: '4' }]);
      assert.equal(json.metadata?.labels?.['d'], '4');
      const status = await ns.updateStatus({ ...json, status: { phase: 'Active' } });
      assert.equal(status.status?.phase, 'Active');
      const statusPatched = await ns.patchStatus('rest-ns', 'application/merge-patch+json', { metadata: { labels: { ignored: 'yes' } } });
      assert.equal(statusPatched.metadata?.labels?.['ignored'], undefined, 'the status subresource changes status only');
      await ns.delete('rest-ns');
      // Namespace deletion is asynchronous (the namespace controller finalizes it): terminating or gone.
      try {
        const terminating = await ns.get('rest-ns');
        assert.ok(terminating.metadata?.deletionTimestamp);
      } catch (e) {
        assert.ok(isNotFound(e));
      }
    });

    test('flunders: every verb in a namespace, in both served versions', async () => {
      const fl = cs.wardleV1alpha1().flunders('default');
      const created = await fl.create(flunder('f1', { spec: { reference: 'other' } }));
      assert.equal(created.metadata?.namespace, 'default');
      assert.equal(created.spec?.referenceType, 'Flunder', 'defaulted by the server');
      const v1beta1: FlunderV1beta1 = await cs.wardleV1beta1().flunders('default').get('f1');
      assert.equal(v1beta1.apiVersion, 'wardle.example.com/v1beta1');
      assert.equal(v1beta1.metadata?.uid, created.metadata?.uid);

      const dry = await fl.create(flunder('dry'), { dryRun: true });
      assert.equal(dry.metadata?.name, 'dry');
      await rejectsWith(fl.get('dry'), isNotFound, 404);

      const updated = await fl.update({ ...created, spec: { reference: 'changed' } }, { fieldManager: 'rest-test' });
      assert.equal(updated.spec?.reference, 'changed');
      assert.notEqual(updated.metadata?.resourceVersion, created.metadata?.resourceVersion);
      const merged = await fl.patch('f1', 'application/merge-patch+json', { metadata: { labels: { team: 'x' } } });
      assert.equal(merged.metadata?.labels?.['team'], 'x');
      const strategic = await fl.patch('f1', 'application/strategic-merge-patch+json', { spec: { reference: 'strategic' } });
      assert.equal(strategic.spec?.reference, 'strategic');
      const jsonPatched = await fl.patch('f1', 'application/json-patch+json', [
        { op: 'test', path: '/spec/reference', value: 'strategic' },
        { op: 'replace', path: '/spec/reference', value: 'json' },
      ]);
      assert.equal(jsonPatched.spec?.reference, 'json');
      const status = await fl.updateStatus({ ...jsonPatched, spec: { reference: 'ignored' }, status: {} });
      assert.equal(status.spec?.reference, 'json', 'PUT /status keeps spec');
      const statusPatched = await fl.patchStatus('f1', 'application/merge-patch+json', { status: {} });
      assert.equal(statusPatched.metadata?.name, 'f1');

      await fl.create(flunder('f2', { metadata: { name: 'f2', labels: { sweep: 'yes' } } }));
      await fl.create(flunder('f3', { metadata: { name: 'f3', labels: { sweep: 'yes' } } }));
      const page1 = await fl.list({ limit: 2 });
      assert.equal(page1.items.length, 2);
      assert.ok(page1.metadata?.continue);
      const page2 = await fl.list({ limit: 2, continue: page1.metadata?.continue });
      assert.deepEqual(
        [...page1.items, ...page2.items].map((f) => f.metadata?.name),
        ['f1', 'f2', 'f3'],
      );
      const all = await cs.wardleV1alpha1().flunders('').list();
      assert.ok(all.items.every((f) => f.kind === 'Flunder' && f.apiVersion === ALPHA));

      await fl.deleteCollection({}, { labelSelector: 'sweep=yes' });
      assert.deepEqual(
        (await fl.list()).items.map((f) => f.metadata?.name),
        ['f1'],
      );
      await fl.delete('f1', { preconditions: { uid: created.metadata?.uid } });
      await rejectsWith(fl.get('f1'), isNotFound, 404);
    });

    test('fischers: the cluster-scoped verbs', async () => {
      const fi = cs.wardleV1alpha1().fischers();
      const created = await fi.create({ apiVersion: ALPHA, kind: 'Fischer', metadata: { name: 'fi1' }, disallowedFlunders: ['banned'] });
      assert.equal(created.metadata?.namespace, undefined);
      const updated = await fi.update({ ...created, disallowedFlunders: ['banned', 'also'] });
      assert.deepEqual(updated.disallowedFlunders, ['banned', 'also']);
      const patched = await fi.patch('fi1', 'application/json-patch+json', [{ op: 'add', path: '/disallowedFlunders/-', value: 'third' }]);
      assert.deepEqual(patched.disallowedFlunders, ['banned', 'also', 'third']);
      const merged = await fi.patch('fi1', 'application/merge-patch+json', { metadata: { labels: { k: 'v' } } });
      assert.equal(merged.metadata?.labels?.['k'], 'v');
      await fi.create({ apiVersion: ALPHA, kind: 'Fischer', metadata: { name: 'fi2', labels: { k: 'v' } } });
      assert.deepEqual(
        (await fi.list({ labelSelector: 'k=v' })).items.map((f) => f.metadata?.name),
        ['fi1', 'fi2'],
      );
      await fi.deleteCollection({}, { labelSelector: 'k=v' });
      assert.deepEqual((await fi.list()).items, []);
    });

    test("the server's errors reject with typed StatusErrors carrying its Status", async () => {
      const fl = cs.wardleV1alpha1().flunders('default');
      const notFound = await rejectsWith(fl.get('missing'), isNotFound, 404);
      assert.deepEqual(notFound.status.details, { name: 'missing', group: 'wardle.example.com', kind: 'flunders' });
      assert.equal(notFound.message, 'flunders.wardle.example.com "missing" not found');

      const first = await fl.create(flunder('dup'));
      const exists = await rejectsWith(fl.create(flunder('dup')), isAlreadyExists, 409);
      assert.equal(exists.message, 'flunders.wardle.example.com "dup" already exists');

      await fl.update({ ...first, metadata: { ...first.metadata, labels: { v: '2' } } });
      const conflict = await rejectsWith(fl.update({ ...first, metadata: { ...first.metadata, labels: { v: 'stale' } } }), isConflict, 409);
      assert.match(conflict.message, /the object has been modified/);

      const invalid = await rejectsWith(fl.create(flunder('bad', { spec: { reference: 'Not_A_Name' } })), isInvalid, 422);
      assert.equal(invalid.status.details?.kind, 'Flunder');
      assert.ok((invalid.status.details?.causes ?? []).some((c) => c.field === 'spec.reference'));

      const mismatch = await rejectsWith(fl.update({ ...first, metadata: { ...first.metadata, namespace: 'kube-system' } }), isBadRequest, 400);
      assert.match(mismatch.message, /namespace/);
      await rejectsWith(fl.patch('dup', 'application/json-patch+json', [{ op: 'test', path: '/metadata/name', value: 'other' }]), isInvalid, 422);
      // Namespaces have no deletecollection: the server answers 405.
      const nsRest = cs.coreV1().namespaces() as unknown as { deleteCollection(): Promise<void> };
      await rejectsWith(nsRest.deleteCollection(), isMethodNotSupported, 405);
      await fl.delete('dup');
    });

    test('watch: events decoded like get and list; the stream ends cleanly at timeoutSeconds', async () => {
      const fl = cs.wardleV1alpha1().flunders('default');
      const created = await fl.create(flunder('w1'));
      const w = await fl.watch({ resourceVersion: created.metadata?.resourceVersion, allowWatchBookmarks: true });
      const events = collect(w, (seen) => seen.some((e) => e.type === 'DELETED'));
      const modified = await fl.patch('w1', 'application/merge-patch+json', { metadata: { labels: { x: 'y' } } });
      const fromGet = await fl.get('w1');
      const fromList = (await fl.list({ fieldSelector: 'metadata.name=w1' })).items[0];
      await fl.delete('w1');
      const seen = (await events).filter((e) => e.type !== 'BOOKMARK');
      assert.deepEqual(
        seen.map((e) => e.type),
        ['MODIFIED', 'DELETED'],
      );
      assert.deepEqual(seen[0]?.object, modified);
      assert.deepEqual(seen[0]?.object, fromGet, 'a watch object equals the same object from a get');
      assert.deepEqual(seen[0]?.object, fromList, '… and from a list');
      w.stop();

      const short = await fl.watch({ timeoutSeconds: 1 });
      const ended: WatchEvent<Flunder>[] = [];
      for await (const e of short) ended.push(e); // completes without throwing: the server closed the stream
      assert.ok(ended.every((e) => e.type !== 'ERROR'));
    });

    test('watch: stop() ends the iteration cleanly, and so does the caller aborting its signal', async () => {
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
    });

    test('a watch that the server refuses rejects with its Status', async () => {
      const fl = cs.wardleV1alpha1().flunders('default');
      await rejectsWith(fl.watch({ fieldSelector: 'spec.unknown=x' }), isBadRequest, 400);
    });

    test('bearer tokens: a known token works, an unknown one is 401 Unauthorized', async () => {
      const { server, caPEM } = get().credentials;
      const good = restClientForConfig({ host: server, tls: { caData: caPEM }, bearerToken: 'admin-token' });
      const bad = restClientForConfig({ host: server, tls: { caData: caPEM }, bearerToken: 'nope' });
      try {
        const ns = await new Clientset(good).coreV1().namespaces().get('default');
        assert.equal(ns.metadata?.name, 'default');
        await rejectsWith(new Clientset(bad).coreV1().namespaces().get('default'), isUnauthorized, 401);
      } finally {
        good.close();
        bad.close();
      }
    });

    test('no unexpected warnings on current versions', () => {
      assert.deepEqual(
        warnings.filter((w) => w.code === 299 && /deprecated/.test(w.text)),
        [],
      );
    });
  },
  { extraArgs: ['--token-auth-file', tokenCSV] },
);
