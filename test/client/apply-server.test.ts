// The generated typed clients' server-side apply against the control plane (SQLite and etcd) and
// against the fake clientset, with the same sequence of writes: the server and the fake run the
// same field manager, so the objects and their managedFields (times masked) must be equal. The
// sequence: an Update by create, two appliers sharing then fighting over a field (409 with
// kube's cause, then force), a field dropped by its only applier, a status apply, and a
// read-modify-apply with extractFlunder.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Flunder } from '../../apis/wardle/v1alpha1/types.js';
import { extractFlunder, type FlunderApplyConfiguration } from '../../generated/applyconfigurations/wardle/v1alpha1/index.js';
import { newFakeClientset } from '../../generated/clientset/fake/index.js';
import { Clientset } from '../../generated/clientset/index.js';
import { StatusError } from '../../runtime/apimachinery/errors/index.js';
import { type HTTPRESTClient, restClientFromKubeconfig } from '../../runtime/client/index.js';
import { describeBackends } from '../integration/harness.js';

const NS = 'typed-apply';

const config = (spec: FlunderApplyConfiguration['spec'], extra: Partial<FlunderApplyConfiguration> = {}): FlunderApplyConfiguration => ({
  apiVersion: 'wardle.example.com/v1alpha1',
  kind: 'Flunder',
  metadata: { name: 'f' },
  spec,
  ...extra,
});

/**
 * What both must agree on: spec, status and managedFields without their times. Entries of one
 * operation are ordered by time, which depends on the second each step falls in on each side, so
 * they are compared by manager (test/integration/apply/sequence.test.ts checks kube's order).
 */
function comparable(obj: Flunder): unknown {
  const entries = (obj.metadata?.managedFields ?? []).map(({ time: _time, ...rest }) => rest);
  const key = (e: (typeof entries)[number]): string => `${e.manager ?? ''}\u0000${e.operation ?? ''}\u0000${e.subresource ?? ''}`;
  return { spec: obj.spec, status: obj.status, labels: obj.metadata?.labels, managedFields: entries.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)) };
}

/** The sequence, on any clientset; returns what each step answered (a StatusError's Status for a failure). */
async function sequence(cs: Clientset): Promise<unknown[]> {
  const flunders = cs.wardleV1alpha1().flunders(NS);
  const steps: (() => Promise<Flunder>)[] = [
    () =>
      flunders.create(
        { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'f', labels: { made: 'by-create' } }, spec: { reference: 'a', referenceType: 'Flunder' } },
        { fieldManager: 'creator' },
      ),
    () => flunders.apply(config({ reference: 'a', referenceType: 'Flunder' }), { fieldManager: 'alice' }),
    () => flunders.apply(config({ reference: 'b' }), { fieldManager: 'bob' }),
    () => flunders.apply(config({ reference: 'b' }), { fieldManager: 'bob', force: true }),
    () => flunders.apply(config({ reference: 'b' }), { fieldManager: 'alice', force: true }),
    () =>
      flunders.applyStatus(config(undefined, { status: { conditions: [{ type: 'Ready', status: 'True', reason: 'Done', message: 'ok', lastTransitionTime: '2026-11-26T04:00:00Z' }] } }), {
        fieldManager: 'controller',
      }),
    async () => {
      const live = await flunders.get('f');
      const mine = extractFlunder(live, 'alice');
      return flunders.apply({ ...mine, metadata: { ...mine.metadata, labels: { by: 'alice' } } }, { fieldManager: 'alice' });
    },
  ];
  const out: unknown[] = [];
  for (const step of steps) {
    try {
      out.push(comparable(await step()));
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      out.push({ code: err.status.code, reason: err.status.reason, message: err.status.message, causes: err.status.details?.causes });
    }
  }
  return out;
}

describeBackends('typed server-side apply: the control plane and the fake clientset agree', (get) => {
  let rest: HTTPRESTClient;
  let cs: Clientset;

  before(async () => {
    rest = restClientFromKubeconfig({ path: get().kubeconfigPath }).rest;
    cs = new Clientset(rest);
    await cs
      .coreV1()
      .namespaces()
      .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  });
  after(() => rest.close());

  it('the same writes give the same objects, managedFields and conflicts', async () => {
    const server = await sequence(cs);
    const fake = await sequence(newFakeClientset({}));
    assert.deepEqual(fake, server);
    const conflict = server[2] as { code: number; causes: unknown };
    assert.equal(conflict.code, 409);
    assert.deepEqual(conflict.causes, [
      { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.reference' },
      { reason: 'FieldManagerConflict', message: 'conflict with "creator" using wardle.example.com/v1alpha1', field: '.spec.reference' },
    ]);
    const last = server[6] as { spec: unknown; labels: unknown };
    assert.deepEqual(last.spec, { reference: 'b', referenceType: 'Flunder' });
    assert.deepEqual(last.labels, { made: 'by-create', by: 'alice' });
  });
});
