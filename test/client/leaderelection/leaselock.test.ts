// Ports of client-go's resourcelock/leaselock_test.go (against the fake clientset's tracker, which serves
// Leases with the server's semantics) and leaderelection_test.go's TestLeaseSpecToLeaderElectionRecordRoundTrip.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isAlreadyExists, isConflict, isNotFound } from '../../../runtime/apimachinery/errors/index.js';
import { ResourceClient } from '../../../runtime/client/resource-client.js';
import {
  type Lease,
  type LeaseSpec,
  leaderElectionRecordToLeaseSpec,
  LEASES,
  LeaseLock,
  leaseSpecToLeaderElectionRecord,
  microTimeFromMillis,
  rawRecord,
} from '../../../runtime/client/leaderelection/index.js';
import { FakeRecorder, leaseClient, record } from './fixtures.js';

const testNamespace = 'test-namespace';
const testName = 'test-name';
const testIdentity = 'test-identity';
const testTime = microTimeFromMillis(Date.parse('2026-11-26T08:00:00.123Z') + 0.456);

function setup(labels?: Record<string, string>) {
  const client = leaseClient();
  const recorder = new FakeRecorder();
  const leaseLock = new LeaseLock({ namespace: testNamespace, name: testName, client, lockConfig: { identity: testIdentity, eventRecorder: recorder }, ...(labels ? { labels } : {}) });
  const bare = new LeaseLock({ namespace: testNamespace, name: testName, client, lockConfig: { identity: testIdentity }, ...(labels ? { labels } : {}) });
  const leases = new ResourceClient<Lease>(client, LEASES, testNamespace);
  const testRecord = record({
    holderIdentity: testIdentity,
    leaseDurationSeconds: 15,
    acquireTime: testTime,
    renewTime: testTime,
    leaderTransitions: 1,
    preferredHolder: 'preferred-holder',
    strategy: 'strategy',
  });
  return { client, recorder, leaseLock, bare, leases, testRecord };
}

describe('resourcelock LeaseLock', () => {
  test('TestGetError', async () => {
    const { leaseLock } = setup();
    await assert.rejects(leaseLock.get(), (err) => isNotFound(err));
  });

  test('TestGet', async () => {
    const { leaseLock, testRecord } = setup();
    await leaseLock.create(testRecord);
    const { record: got, raw } = await leaseLock.get();
    assert.deepEqual(got, testRecord);
    assert.deepEqual(JSON.parse(raw), {
      holderIdentity: testIdentity,
      leaseDurationSeconds: 15,
      acquireTime: '2026-11-26T08:00:00Z',
      renewTime: '2026-11-26T08:00:00Z',
      leaderTransitions: 1,
      strategy: 'strategy',
      preferredHolder: 'preferred-holder',
    });
  });

  test('TestRecordEventSuccess', async () => {
    const { leaseLock, recorder, testRecord } = setup();
    await leaseLock.create(testRecord);
    leaseLock.recordEvent('test event');
    assert.deepEqual(recorder.events, [`Normal LeaderElection ${testIdentity} test event`]);
  });

  test('TestRecordEventNilRecorder', async () => {
    const { bare, testRecord } = setup();
    await bare.create(testRecord);
    bare.recordEvent('should not panic');
  });

  test('TestCreateError', async () => {
    const { leaseLock, testRecord } = setup();
    await leaseLock.create(testRecord);
    await assert.rejects(leaseLock.create(testRecord), (err) => isAlreadyExists(err));
  });

  test('TestUpdateError', async () => {
    const { leaseLock, testRecord } = setup();
    await assert.rejects(leaseLock.update(testRecord), /lease not initialized, call get or create first/);
  });

  test('TestDescribe', () => {
    assert.equal(setup().leaseLock.describe(), `${testNamespace}/${testName}`);
  });

  test('TestLeaseConversion', () => {
    const { testRecord } = setup();
    const spec = leaderElectionRecordToLeaseSpec(testRecord);
    assert.deepEqual(spec, {
      holderIdentity: testIdentity,
      leaseDurationSeconds: 15,
      acquireTime: '2026-11-26T08:00:00.123456Z',
      renewTime: '2026-11-26T08:00:00.123456Z',
      leaseTransitions: 1,
      preferredHolder: 'preferred-holder',
      strategy: 'strategy',
    });
    assert.deepEqual(leaseSpecToLeaderElectionRecord(spec), testRecord);
  });

  test('TestUpdateWithNilLabelsOnLease', async () => {
    const { leaseLock, leases, testRecord } = setup({ 'custom-key': 'custom-val' });
    await leases.create({ metadata: { name: testName }, spec: {} });
    await leaseLock.get();
    await leaseLock.update(testRecord);
    assert.deepEqual((await leases.get(testName)).metadata?.labels, { 'custom-key': 'custom-val' });
  });

  test('TestUpdateWithNilLabelsOnLeaseLock', async () => {
    const { bare, leases, testRecord } = setup();
    await leases.create({ metadata: { name: testName, labels: { 'custom-key': 'custom-val' } }, spec: {} });
    await bare.get();
    await bare.update(testRecord);
    assert.deepEqual((await leases.get(testName)).metadata?.labels, { 'custom-key': 'custom-val' });
  });

  test('TestLabelUpdate', async () => {
    const { leaseLock, leases, testRecord } = setup({ 'custom-key': 'custom-val' });
    await leaseLock.create(testRecord);
    const lease = await leases.get(testName);
    const updated = await leases.update({ ...lease, metadata: { ...lease.metadata, labels: { 'custom-key': 'new-custom-val', 'custom-key-2': 'custom-val-2' } } });
    assert.deepEqual(updated.metadata?.labels, { 'custom-key': 'new-custom-val', 'custom-key-2': 'custom-val-2' });
    await leaseLock.get();
    await leaseLock.update(testRecord);
    assert.deepEqual((await leases.get(testName)).metadata?.labels, { 'custom-key': 'custom-val', 'custom-key-2': 'custom-val-2' });
  });

  test('label keys such as __proto__ and constructor are data', async () => {
    // The server rejects __proto__ as a label key, so a reactor answers: what matters is the body sent.
    const sent: unknown[] = [];
    const { client, testRecord } = setup();
    client.prependReactor('update', 'leases', (a) => (sent.push('object' in a ? a.object : undefined), { handled: true, object: 'object' in a ? a.object : undefined }));
    client.prependReactor('get', 'leases', () => ({
      handled: true,
      object: { metadata: { name: testName, namespace: testNamespace, labels: JSON.parse('{"constructor":"kept"}') as unknown }, spec: {} },
    }));
    const labels = JSON.parse('{"__proto__":"x","toString":"y"}') as Record<string, string>;
    const lock = new LeaseLock({ namespace: testNamespace, name: testName, client, lockConfig: { identity: testIdentity }, labels });
    await lock.get();
    await lock.update(testRecord);
    const written = (sent[0] as Lease).metadata?.labels ?? {};
    assert.deepEqual(Object.entries(written), [
      ['constructor', 'kept'],
      ['__proto__', 'x'],
      ['toString', 'y'],
    ]);
    assert.equal(Object.getPrototypeOf(written), Object.prototype);
  });

  test('update carries the resourceVersion read: a write in between makes it a 409 Conflict', async () => {
    const { leaseLock, leases, testRecord } = setup();
    await leaseLock.create(testRecord);
    await leaseLock.get();
    const other = await leases.get(testName);
    await leases.update({ ...other, spec: { ...other.spec, holderIdentity: 'someone-else' } });
    await assert.rejects(leaseLock.update(testRecord), (err) => isConflict(err));
    assert.equal((await leaseLock.get()).record.holderIdentity, 'someone-else');
    await leaseLock.update(testRecord);
    assert.equal((await leaseLock.get()).record.holderIdentity, testIdentity);
  });
});

describe('TestLeaseSpecToLeaderElectionRecordRoundTrip', () => {
  test('spec -> record -> spec -> record is the identity', () => {
    const now = microTimeFromMillis(Date.now() + 0.789);
    const oldSpec: LeaseSpec = { holderIdentity: 'foo', leaseDurationSeconds: 10, acquireTime: now, renewTime: now, leaseTransitions: 1 };
    const oldRecord = leaseSpecToLeaderElectionRecord(oldSpec);
    const newSpec = leaderElectionRecordToLeaseSpec(oldRecord);
    assert.deepEqual(newSpec, oldSpec);
    assert.deepEqual(leaseSpecToLeaderElectionRecord(newSpec), oldRecord);
  });

  test('times read from other writers come back as UTC MicroTime; a missing spec reads as the zero record', () => {
    const r = leaseSpecToLeaderElectionRecord({ acquireTime: '2026-11-26T09:00:00.123456789+01:00', renewTime: '2026-11-26T08:00:00.5Z' });
    assert.equal(r.acquireTime, '2026-11-26T08:00:00.123456Z');
    assert.equal(r.renewTime, '2026-11-26T08:00:00.500000Z');
    assert.deepEqual(leaseSpecToLeaderElectionRecord(undefined), record());
    assert.equal(rawRecord(record()), '{"holderIdentity":"","leaseDurationSeconds":0,"acquireTime":null,"renewTime":null,"leaderTransitions":0,"strategy":"","preferredHolder":""}');
    assert.deepEqual(leaderElectionRecordToLeaseSpec(record()), { holderIdentity: '', leaseDurationSeconds: 0, acquireTime: null, renewTime: null, leaseTransitions: 0 });
  });
});
