// The garbage collector inside the control plane (SQLite, in process), driven over HTTPS as a
// client would: background, orphan and foreground deletion of Fischers owning Flunders,
// several owners, a wrong owner uid, a cluster-scoped Namespace as dependent, and custom
// resources of a CRD on either side of an ownerReference. Every wait polls for a state.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { cronTab, cronTabCRD, createEstablishedCRD, eventually, startEnv, type Env, type Obj } from '../apiextensions/env.js';

const WARDLE = '/apis/wardle.example.com/v1alpha1';
const FISCHERS = `${WARDLE}/fischers`;
const FLUNDERS = `${WARDLE}/namespaces/default/flunders`;
const NAMESPACES = '/api/v1/namespaces';
const CRONTABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';

interface Meta {
  name: string;
  uid: string;
  deletionTimestamp?: string;
  finalizers?: string[];
  ownerReferences?: Array<{ uid: string; name: string; kind: string }>;
}

describe('garbage collector (in-process control plane, SQLite)', () => {
  let env: Env;
  before(async () => {
    env = await startEnv();
  });
  after(() => env.close());

  const create = async (collection: string, obj: Obj): Promise<Meta> => {
    const r = await env.client.json('POST', collection, obj);
    assert.equal(r.status, 201, JSON.stringify(r.body));
    return r.body['metadata'] as Meta;
  };
  const get = async (path: string): Promise<Meta | undefined> => {
    const r = await env.client.json('GET', path);
    if (r.status === 404) return undefined;
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body['metadata'] as Meta;
  };
  const del = async (path: string, propagationPolicy?: string): Promise<void> => {
    const r = await env.client.json('DELETE', path, propagationPolicy === undefined ? undefined : { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy });
    assert.ok(r.status === 200 || r.status === 202, JSON.stringify(r.body));
  };
  const gone = (path: string): Promise<void> => eventually(async () => assert.equal(await get(path), undefined, `${path} still exists`));
  const fischer = (name: string): Promise<Meta> => create(FISCHERS, { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Fischer', metadata: { name } });
  const flunder = (name: string, owners: Obj[], extra: Obj = {}): Promise<Meta> =>
    create(FLUNDERS, { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name, ownerReferences: owners, ...extra } });
  const ownedBy = (kind: string, owner: Meta, o: { apiVersion?: string; block?: boolean } = {}): Obj => ({
    apiVersion: o.apiVersion ?? 'wardle.example.com/v1alpha1',
    kind,
    name: owner.name,
    uid: owner.uid,
    ...(o.block === true ? { blockOwnerDeletion: true } : {}),
  });

  test('background: the dependents of a deleted owner go, and theirs after them', async () => {
    const owner = await fischer('bg');
    const a = await flunder('bg-a', [ownedBy('Fischer', owner)]);
    await flunder('bg-b', [ownedBy('Fischer', owner)]);
    await flunder('bg-a-child', [ownedBy('Flunder', a)]);
    await del(`${FISCHERS}/bg`, 'Background');
    await gone(`${FISCHERS}/bg`);
    await gone(`${FLUNDERS}/bg-a`);
    await gone(`${FLUNDERS}/bg-b`);
    await gone(`${FLUNDERS}/bg-a-child`);
  });

  test('orphan: the owner goes, its dependents stay without the ownerReference', async () => {
    const owner = await fischer('orph');
    const other = await fischer('orph-other');
    await flunder('orph-a', [ownedBy('Fischer', owner)]);
    await flunder('orph-b', [ownedBy('Fischer', owner), ownedBy('Fischer', other)]);
    await del(`${FISCHERS}/orph`, 'Orphan');
    await gone(`${FISCHERS}/orph`);
    const a = await get(`${FLUNDERS}/orph-a`);
    assert.equal(a?.ownerReferences, undefined);
    const b = await get(`${FLUNDERS}/orph-b`);
    assert.deepEqual(
      b?.ownerReferences?.map((r) => r.uid),
      [other.uid],
    );
  });

  test('foreground: the owner stays, being deleted, until its blocking dependents are gone', async () => {
    const owner = await fischer('fg');
    await flunder('fg-held', [ownedBy('Fischer', owner, { block: true })], { finalizers: ['example.com/hold'] });
    await flunder('fg-free', [ownedBy('Fischer', owner, { block: true })]);
    await flunder('fg-nonblocking', [ownedBy('Fischer', owner)]);
    await del(`${FISCHERS}/fg`, 'Foreground');
    await gone(`${FLUNDERS}/fg-free`);
    await gone(`${FLUNDERS}/fg-nonblocking`);
    await eventually(async () => assert.ok((await get(`${FLUNDERS}/fg-held`))?.deletionTimestamp, 'the held dependent is being deleted'));
    const waiting = await get(`${FISCHERS}/fg`);
    assert.ok(waiting?.deletionTimestamp, 'the owner is being deleted');
    assert.deepEqual(waiting.finalizers, ['foregroundDeletion']);
    const released = await env.client.json('PATCH', `${FLUNDERS}/fg-held`, { metadata: { finalizers: null } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(released.status, 200, JSON.stringify(released.body));
    await gone(`${FLUNDERS}/fg-held`);
    await gone(`${FISCHERS}/fg`);
  });

  test('a dependent with two owners survives until both are gone', async () => {
    const first = await fischer('two-1');
    const second = await fischer('two-2');
    await flunder('two-dep', [ownedBy('Fischer', first), ownedBy('Fischer', second)]);
    await del(`${FISCHERS}/two-1`);
    await gone(`${FISCHERS}/two-1`);
    // The reference to the owner that went is dropped; the other keeps the dependent.
    await eventually(async () =>
      assert.deepEqual(
        (await get(`${FLUNDERS}/two-dep`))?.ownerReferences?.map((r) => r.uid),
        [second.uid],
      ),
    );
    await del(`${FISCHERS}/two-2`);
    await gone(`${FLUNDERS}/two-dep`);
  });

  test('an ownerReference whose uid is not the current object of that name counts as gone', async () => {
    const current = await fischer('wrong-uid');
    await flunder('wrong-uid-dep', [ownedBy('Fischer', { name: current.name, uid: randomUUID() })]);
    await gone(`${FLUNDERS}/wrong-uid-dep`);
    assert.equal((await get(`${FISCHERS}/wrong-uid`))?.uid, current.uid);
  });

  test('cluster-scoped dependents: a Namespace owned by a Fischer is deleted with it', async () => {
    const owner = await fischer('ns-owner');
    await create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'gc-owned', ownerReferences: [ownedBy('Fischer', owner)] } });
    await del(`${FISCHERS}/ns-owner`);
    await gone(`${NAMESPACES}/gc-owned`);
  });

  test('an owner of a kind not served yet is resolved once its CRD is: absent there, the dependent goes', async () => {
    await flunder('late-dep', [{ apiVersion: 'late.example.com/v1', kind: 'Gadget', name: 'g', uid: randomUUID() }]);
    await createEstablishedCRD(env.client, cronTabCRD({ group: 'late.example.com', plural: 'gadgets', kind: 'Gadget' }), '/apis/late.example.com/v1/namespaces/default/gadgets');
    await gone(`${FLUNDERS}/late-dep`);
  });

  test('custom resources: owners and dependents of a CRD kind, background and foreground', async () => {
    await createEstablishedCRD(env.client, cronTabCRD(), CRONTABS);
    const tab = await create(CRONTABS, cronTab('owner-tab'));
    await flunder('tab-dep', [ownedBy('CronTab', tab, { apiVersion: 'stable.example.com/v1' })]);
    const owner = await fischer('tab-owner');
    await create(CRONTABS, cronTab('dep-tab', undefined, undefined, { ownerReferences: [ownedBy('Fischer', owner, { block: true })] }));
    await del(`${CRONTABS}/owner-tab`);
    await gone(`${FLUNDERS}/tab-dep`);
    await del(`${FISCHERS}/tab-owner`, 'Foreground');
    await gone(`${CRONTABS}/dep-tab`);
    await gone(`${FISCHERS}/tab-owner`);
  });
});
