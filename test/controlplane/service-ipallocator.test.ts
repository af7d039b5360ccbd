// The service IP range allocator on real storage (SQLite and etcd): kube's ipallocator semantics,
// several allocators (API server replicas) sharing one store never hand out one IP twice, and
// allocations survive a new allocator (a restart).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { parseCIDR, type CIDR } from '../../runtime/registry/allocator/cidr.js';
import { IPRangeAllocator, PortRangeAllocator, RangeAllocationError } from '../../runtime/registry/allocator/range.js';
import { parseServiceClusterIPRange, parseServiceNodePortRange } from '../../runtime/controlplane/service/ranges.js';
import type { Interface, StorageConfig } from '../../runtime/storage/index.js';
import { startEtcd, type EtcdCluster } from '../storage/etcdServer.js';
import { newEnv, type Env } from '../registry/helpers.js';

const etcdMissing =
  spawnSync('sh', ['-c', 'command -v etcd'], { stdio: 'ignore' }).status !== 0 && spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status !== 0
    ? 'etcd is not installed and hack/install-etcd cannot install it here'
    : false;

const cidr = (text: string): CIDR => {
  const c = parseCIDR(text);
  assert.ok(c, text);
  return c;
};

const rejectsWith =
  (reason: RangeAllocationError['reason'], message: string) =>
  (err: unknown): boolean => {
    assert.ok(err instanceof RangeAllocationError, String(err));
    assert.equal(err.reason, reason);
    assert.equal(err.message, message);
    return true;
  };

describe('--service-cluster-ip-range parsing', () => {
  test('kube default, dual-stack, canonical text, and kube words for bad values', () => {
    const [v4] = parseServiceClusterIPRange('10.0.0.0/24') as CIDR[];
    assert.equal(v4?.text, '10.0.0.0/24');
    assert.equal((parseServiceClusterIPRange('10.96.0.5/12') as CIDR[])[0]?.text, '10.96.0.0/12');
    assert.deepEqual(
      (parseServiceClusterIPRange('10.0.0.0/24,fd00:0:0::/108') as CIDR[]).map((c) => [c.family, c.text]),
      [
        ['IPv4', '10.0.0.0/24'],
        ['IPv6', 'fd00::/108'],
      ],
    );
    assert.equal(parseServiceClusterIPRange('10.0.0.0/8'), 'specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12');
    assert.equal(parseServiceClusterIPRange('fd00::/64'), 'specified --service-cluster-ip-range is too large; for 128-bit addresses, the mask must be >= 108');
    assert.equal(parseServiceClusterIPRange('nope'), '--service-cluster-ip-range: invalid CIDR address: nope');
    assert.equal(parseServiceClusterIPRange('10.0.0.0/24,10.1.0.0/24'), '--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family');
    assert.deepEqual(parseServiceNodePortRange('30000-32767'), { base: 30000, size: 2768 });
    assert.deepEqual(parseServiceNodePortRange('31000'), { base: 31000, size: 1 });
    assert.equal(typeof parseServiceNodePortRange('32767-30000'), 'string');
  });
});

for (const backend of ['sqlite', 'etcd3'] as const) {
  describe(`service IP range allocator on ${backend}`, { skip: backend === 'etcd3' ? etcdMissing : false }, () => {
    let etcd: EtcdCluster | undefined;
    let env: Env;
    let storage: Interface;
    let n = 0;
    /** A fresh key per test: each test gets its own range. */
    const allocator = (range: string, key = `/ranges/test${n}`): IPRangeAllocator => new IPRangeAllocator({ cidr: cidr(range), storage, key });
    before(async () => {
      let config: StorageConfig['backend'] | undefined;
      if (backend === 'etcd3') {
        etcd = await startEtcd();
        config = { backend: 'etcd3', endpoints: etcd.endpoints, compactionIntervalMs: 0 };
      }
      env = await newEnv(config);
      storage = await env.factory.forResource({ resourcePrefix: '/ranges/', watchCache: false });
    });
    after(async () => {
      await env?.close();
      await etcd?.close();
    });

    test('specific IPs: taken once, refused twice, out of range refused with kube words; network and broadcast never handed out', async () => {
      n++;
      const a = allocator('10.0.0.0/24');
      assert.equal(a.ipAt(0), '10.0.0.1');
      await a.allocate('10.0.0.1', { dryRun: false });
      await assert.rejects(a.allocate('10.0.0.1', { dryRun: false }), rejectsWith('Allocated', 'provided IP is already allocated'));
      await assert.rejects(a.allocate('1.1.1.1', { dryRun: false }), rejectsWith('NotInRange', 'the provided IP (1.1.1.1) is not in the valid range. The range of valid IPs is 10.0.0.0/24'));
      await assert.rejects(a.allocate('10.0.0.0', { dryRun: false }), rejectsWith('NotInRange', 'the provided IP (10.0.0.0) is not in the valid range. The range of valid IPs is 10.0.0.0/24'));
      await assert.rejects(a.allocate('10.0.0.255', { dryRun: false }), rejectsWith('NotInRange', 'the provided IP (10.0.0.255) is not in the valid range. The range of valid IPs is 10.0.0.0/24'));
      await a.allocate('10.0.0.7', { dryRun: true });
      assert.equal(await a.has('10.0.0.7'), false, 'a dry run allocates nothing');
      await a.release('10.0.0.1');
      await a.allocate('10.0.0.1', { dryRun: false });
    });

    test('allocateNext fills the range exactly (IPv4 /29: 6 usable), then says so; a released IP is handed out again', async () => {
      n++;
      const a = allocator('10.96.0.0/29');
      const got = new Set<string>();
      for (let i = 0; i < 6; i++) got.add(await a.allocateNext({ dryRun: false }));
      assert.deepEqual([...got].sort(), ['10.96.0.1', '10.96.0.2', '10.96.0.3', '10.96.0.4', '10.96.0.5', '10.96.0.6']);
      await assert.rejects(a.allocateNext({ dryRun: false }), rejectsWith('Full', 'range is full'));
      await a.release('10.96.0.4');
      assert.equal(await a.allocateNext({ dryRun: false }), '10.96.0.4');
    });

    test('IPv6: only the network address is kept back', async () => {
      n++;
      const a = allocator('fd00::/126');
      const got = [];
      for (let i = 0; i < 3; i++) got.push(await a.allocateNext({ dryRun: false }));
      assert.deepEqual(got.sort(), ['fd00::1', 'fd00::2', 'fd00::3']);
      await assert.rejects(a.allocateNext({ dryRun: false }), rejectsWith('Full', 'range is full'));
    });

    test('three replicas allocating concurrently from one stored range never share an IP; a new allocator (restart) sees them all', async () => {
      n++;
      const key = `/ranges/test${n}`;
      const replicas = [allocator('10.1.0.0/24', key), allocator('10.1.0.0/24', key), allocator('10.1.0.0/24', key)];
      const ips = await Promise.all(Array.from({ length: 60 }, (_, i) => (replicas[i % 3] as IPRangeAllocator).allocateNext({ dryRun: false })));
      assert.equal(new Set(ips).size, 60, `duplicates in ${ips.join(' ')}`);
      const restarted = allocator('10.1.0.0/24', key);
      assert.deepEqual((await restarted.allocated()).sort(), [...ips].sort());
      await assert.rejects(restarted.allocate(ips[0] as string, { dryRun: false }), rejectsWith('Allocated', 'provided IP is already allocated'));
    });

    test('a stored range of another CIDR is refused, not silently reused', async () => {
      n++;
      const key = `/ranges/test${n}`;
      await allocator('10.2.0.0/24', key).allocateNext({ dryRun: false });
      await assert.rejects(allocator('10.3.0.0/24', key).allocateNext({ dryRun: false }), (err: unknown) => err instanceof RangeAllocationError && err.reason === 'MismatchedNetwork');
    });

    test('node ports: kube words for taken and out-of-range ports, the whole range handed out once', async () => {
      n++;
      const ports = new PortRangeAllocator({ range: { base: 30000, size: 20 }, storage, key: `/ranges/test${n}` });
      await ports.allocate(30005, { dryRun: false });
      await assert.rejects(ports.allocate(30005, { dryRun: false }), rejectsWith('Allocated', 'provided port is already allocated'));
      await assert.rejects(ports.allocate(30020, { dryRun: false }), rejectsWith('NotInRange', 'provided port is not in the valid range. The range of valid ports is 30000-30019'));
      const got = await Promise.all(Array.from({ length: 19 }, () => ports.allocateNext({ dryRun: false })));
      assert.equal(new Set([...got, 30005]).size, 20);
      await assert.rejects(ports.allocateNext({ dryRun: false }), rejectsWith('Full', 'range is full'));
    });

    test('repair marks IPs in use and frees leaked ones', async () => {
      n++;
      const a = allocator('10.4.0.0/24');
      const leaked = await a.allocateNext({ dryRun: false });
      assert.equal(await a.repair(['10.4.0.9', '10.4.0.10', '192.168.0.1'], [leaked]), 2);
      assert.deepEqual((await a.allocated()).sort(), ['10.4.0.10', '10.4.0.9']);
    });
  });
}
