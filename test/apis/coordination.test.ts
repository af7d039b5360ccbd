// coordination.k8s.io/v1 Lease: kube's pkg/apis/coordination/validation TestValidateLeaseSpec and
// TestValidateLeaseSpecUpdate by name (they call the strategy's validation), the Lease strategy
// (PUT creates, coordinated leader election's fields dropped as kube 1.32 does with the feature
// off) through the generic store on SQLite, MicroTime as kube writes it, the protobuf field
// numbers of k8s.io/api/coordination/v1/generated.proto, and kube's table (NAME HOLDER AGE).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { coordinationGroup } from '../../generated/registry/coordination.js';
import { metaV1Protobuf } from '../../generated/protobuf/meta/v1.js';
import { coordinationV1Protobuf } from '../../generated/protobuf/coordination/v1.js';
import { setLeaseDefaults } from '../../apis/coordination/v1/defaults.js';
import { normalizeMicroTime } from '../../runtime/apimachinery/microtime.js';
import { LeaseStrategy } from '../../apis/coordination/v1/strategy.js';
import type { Lease, LeaseSpec } from '../../apis/coordination/v1/types.js';
import { StatusError } from '../../runtime/apimachinery/errors/index.js';
import { decodeProtobufObject, encodeProtobufObject, ProtobufScheme } from '../../runtime/apimachinery/serializer/protobuf/index.js';
import { formatFieldError } from '../../runtime/apimachinery/validation/field.js';
import { newTableConvertor, type TableSource } from '../../runtime/endpoints/table/convertor.js';
import type { KubeObject } from '../../runtime/registry/rest.js';
import { allow, allowBoth, ctx, newEnv, put, write, type Env } from '../registry/helpers.js';

const lease = (spec: LeaseSpec, name = 'holder'): KubeObject => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace: 'holder-namespace' }, spec }) as KubeObject;
const errors = (spec: LeaseSpec) => LeaseStrategy.validate({ spec }).map(formatFieldError);

describe('coordination.k8s.io/v1 Lease', () => {
  let env: Env;
  before(async () => {
    env = await newEnv();
  });
  after(async () => {
    await env.close();
  });

  test('TestValidateLeaseSpec', () => {
    const valid: LeaseSpec = { holderIdentity: 'holder', leaseDurationSeconds: 10, acquireTime: '2024-05-01T10:00:00.000000Z', renewTime: '2024-05-01T10:00:00.000000Z', leaseTransitions: 20 };
    assert.deepEqual(errors(valid), []);
    assert.deepEqual(errors({ ...valid, leaseDurationSeconds: 0, leaseTransitions: -1 }), [
      'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
      'spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0',
    ]);
    const cases: Record<string, [LeaseSpec, string[]]> = {
      'preferredHolder without strategy': [{ ...valid, preferredHolder: 'holder2' }, ['spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined']],
      'kube-defined strategy': [{ ...valid, strategy: 'OldestEmulationVersion', preferredHolder: 'holder2' }, []],
      'custom strategy': [{ ...valid, strategy: 'foo.com/foo' }, []],
      'unknown strategy': [{ ...valid, strategy: 'foo' }, ['spec.strategy.strategy: Unsupported value: "foo": supported values: "OldestEmulationVersion"']],
      'invalid custom strategy': [{ ...valid, strategy: 'foo.com/-foo' }, [expect('spec.strategy.strategy', '"foo.com/-foo"')]],
    };
    for (const [name, [spec, want]] of Object.entries(cases)) {
      const got = errors(spec);
      if (name === 'invalid custom strategy') assert.equal(got.length > 0 && got.every((e) => e.startsWith(want[0] ?? '')), true, `${name}: ${got.join('; ')}`);
      else assert.deepEqual(got, want, name);
    }
  });

  test('TestValidateLeaseSpecUpdate', async () => {
    const { main } = await env.storages(coordinationGroup, 'Lease');
    const created = await main.create(ctx('holder-namespace'), lease({ holderIdentity: 'oldHolder', leaseDurationSeconds: 10, leaseTransitions: 2 }), allow, write);
    const bad = { ...created, spec: { holderIdentity: 'holder', leaseDurationSeconds: 0, leaseTransitions: -1 } };
    await assert.rejects(
      main.update(ctx('holder-namespace'), 'holder', put(bad), allowBoth, { ...write, forceAllowCreate: false }),
      (e) => e instanceof StatusError && e.code === 422 && e.status.details?.causes?.length === 2,
    );
    const good = { ...created, spec: { holderIdentity: 'holder', leaseDurationSeconds: 10, leaseTransitions: 20 } };
    const updated = await main.update(ctx('holder-namespace'), 'holder', put(good), allowBoth, { ...write, forceAllowCreate: false });
    assert.equal((updated.object as Lease).spec?.holderIdentity, 'holder');
  });

  test('PUT creates a Lease, a PUT without resourceVersion on an existing one is refused; strategy and preferredHolder are dropped (CoordinatedLeaderElection off)', async () => {
    const { main } = await env.storages(coordinationGroup, 'Lease');
    const spec = { holderIdentity: 'a', leaseDurationSeconds: 15, strategy: 'OldestEmulationVersion', preferredHolder: 'b' };
    const made = await main.update(ctx('holder-namespace'), 'put-created', put(lease(spec, 'put-created')), allowBoth, { ...write, forceAllowCreate: false });
    assert.equal(made.created, true);
    assert.deepEqual((made.object as Lease).spec, { holderIdentity: 'a', leaseDurationSeconds: 15 });
    await assert.rejects(
      main.update(ctx('holder-namespace'), 'put-created', put(lease(spec, 'put-created')), allowBoth, { ...write, forceAllowCreate: false }),
      (e) => e instanceof StatusError && e.code === 422 && /metadata.resourceVersion: Invalid value: 0x0: must be specified for an update/.test(e.message),
    );
  });

  test('MicroTime: UTC with six fraction digits, as metav1.MicroTime marshals', () => {
    assert.equal(normalizeMicroTime('2024-05-01T10:00:00Z'), '2024-05-01T10:00:00.000000Z');
    assert.equal(normalizeMicroTime('2024-05-01T12:00:00.1234567+02:00'), '2024-05-01T10:00:00.123456Z');
    assert.equal(normalizeMicroTime('not a time'), 'not a time');
    const l: Lease = { spec: { renewTime: '2024-05-01T10:00:00.5Z', acquireTime: '2024-04-30T23:00:00-01:00' } };
    setLeaseDefaults(l);
    assert.deepEqual(l.spec, { renewTime: '2024-05-01T10:00:00.500000Z', acquireTime: '2024-05-01T00:00:00.000000Z' });
  });

  test("protobuf: k8s.io/api/coordination/v1's field numbers", () => {
    const scheme = new ProtobufScheme([metaV1Protobuf, coordinationV1Protobuf]);
    const spec: LeaseSpec = { holderIdentity: 'h', leaseDurationSeconds: 15, acquireTime: '2024-05-01T10:00:00.000001Z', renewTime: '2024-05-01T10:00:01.123456Z', leaseTransitions: 3 };
    const bytes = encodeProtobufObject({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec }, scheme);
    // LeaseSpec as Go writes it: 1 holderIdentity, 2 leaseDurationSeconds, 3 acquireTime, 4 renewTime, 5 leaseTransitions.
    const specBytes = Buffer.from([
      ...[0x0a, 0x01, 0x68],
      ...[0x10, 0x0f],
      ...[0x1a, 0x09, 0x08, ...varint(1714557600), 0x10, ...varint(1000)],
      ...[0x22, 0x0b, 0x08, ...varint(1714557601), 0x10, ...varint(123456000)],
      ...[0x28, 0x03],
    ]);
    assert.ok(Buffer.from(bytes).includes(Buffer.concat([Buffer.from([0x12, specBytes.length]), specBytes])), Buffer.from(bytes).toString('hex'));
    const decoded = decodeProtobufObject(bytes, { into: { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' }, scheme }) as Lease;
    assert.deepEqual(decoded.spec, spec);
  });

  test("kube's table: NAME HOLDER AGE", () => {
    const resource = coordinationGroup.versions[0]!.resources.find((r) => r.kind === 'Lease')!;
    assert.deepEqual([resource.plural, resource.singular, resource.namespaced, resource.shortNames], ['leases', 'lease', true, []]);
    const convertor = newTableConvertor(resource.printerColumns, () => Date.parse('2024-05-01T10:00:30Z'));
    const source = { metadata: { name: 'l', creationTimestamp: '2024-05-01T10:00:00Z' }, spec: { holderIdentity: 'me' } } as TableSource;
    const table = convertor.convertToTable(source, { noHeaders: false, isList: false });
    assert.deepEqual(
      table.columnDefinitions?.map((c) => c.name),
      ['Name', 'Holder', 'Age'],
    );
    assert.deepEqual(table.rows[0]?.cells, ['l', 'me', '30s']);
  });
});

function expect(field: string, value: string): string {
  return `${field}: Invalid value: ${value}: `;
}

function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return out;
}
