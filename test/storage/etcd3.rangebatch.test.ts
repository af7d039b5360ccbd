// RangeBatcher: consistent single-key reads folded into one etcd transaction while another is in
// flight. Against a real etcd: batching must never return a value older than a write
// acknowledged before the read was issued (linearizability), and must survive etcd's limits
// (--max-txn-ops, gRPC's receive size) by splitting.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Etcd3 } from 'etcd3';
import { newEtcdClient } from '../../runtime/storage/etcd3/client.js';
import { RangeBatcher, etcdRangeTxn, type RangeTxn } from '../../runtime/storage/etcd3/rangeBatcher.js';
import { startEtcd, type EtcdCluster } from './etcdServer.js';

let etcd: EtcdCluster;
let client: Etcd3;
before(async () => {
  etcd = await startEtcd();
  client = newEtcdClient({ endpoints: etcd.endpoints });
});
after(async () => {
  client?.close();
  await etcd?.close();
});

/** The client's RangeTxn, recording the number of keys of every transaction it sends. */
function counted(): { send: RangeTxn; sizes: number[] } {
  const sizes: number[] = [];
  const inner = etcdRangeTxn(client);
  return { sizes, send: (keys, deadline) => (sizes.push(keys.length), inner(keys, deadline)) };
}

const soon = (): number => Date.now() + 10_000;

describe('etcd3 RangeBatcher', () => {
  test('an idle read is sent at once, alone; a missing key reads as no value', async () => {
    await client.put('/rb/idle').value('v1');
    const { send, sizes } = counted();
    const b = new RangeBatcher(send);
    const got = await b.get(Buffer.from('/rb/idle'), soon());
    assert.equal(got.kv?.value.toString(), 'v1');
    assert.ok(got.revision >= Number(got.kv?.mod_revision));
    assert.equal((await b.get(Buffer.from('/rb/none'), soon())).kv, undefined);
    assert.deepEqual(sizes, [1, 1]);
  });

  test('concurrent reads share transactions, and none sees a value older than a write acknowledged before it was issued', async () => {
    const { send, sizes } = counted();
    const b = new RangeBatcher(send);
    const key = Buffer.from('/rb/linear');
    let acked = 0;
    let stop = false;
    const writer = (async () => {
      for (let n = 1; !stop; n++) {
        await client.put(key).value(String(n));
        acked = n;
      }
    })();
    const violations: string[] = [];
    let reads = 0;
    const reader = async (): Promise<void> => {
      for (let i = 0; i < 150; i++) {
        const floor = acked;
        const got = await b.get(key, soon());
        reads++;
        const seen = Number(got.kv?.value.toString() ?? 0);
        if (seen < floor) violations.push(`read ${seen} after ${floor} was acknowledged`);
      }
    };
    await Promise.all(Array.from({ length: 32 }, reader));
    stop = true;
    await writer;
    assert.deepEqual(violations, []);
    assert.equal(reads, 32 * 150);
    assert.ok(sizes.length < reads, `${sizes.length} transactions for ${reads} reads`);
    assert.ok(Math.max(...sizes) > 1);
  });

  test('a batch over etcd’s --max-txn-ops (128) is split, and the smaller size is kept', async () => {
    await Promise.all(Array.from({ length: 300 }, (_, i) => client.put(`/rb/many/${i}`).value(String(i))));
    const { send, sizes } = counted();
    const b = new RangeBatcher(send, { maxOps: 1000 });
    const got = await Promise.all(Array.from({ length: 300 }, (_, i) => b.get(Buffer.from(`/rb/many/${i}`), soon())));
    got.forEach((g, i) => assert.equal(g.kv?.value.toString(), String(i)));
    // the first read went alone; the 299 queued behind it were refused as one transaction
    assert.ok(sizes.includes(299), String(sizes));
    const firstRound = sizes.length;
    const again = await Promise.all(Array.from({ length: 300 }, (_, i) => b.get(Buffer.from(`/rb/many/${i}`), soon())));
    assert.equal(again.length, 300);
    // the size etcd accepted is kept: no oversized transaction after the first round, and the
    // halving went no lower than half of the smallest refused batch (149)
    const later = sizes.slice(firstRound);
    assert.ok(later.every((s) => s <= 128) && Math.max(...later) === 74, String(sizes));
  });

  test('answers larger than the gRPC receive limit (4 MiB) together are split until each fits', async () => {
    const blob = 'x'.repeat(1024 * 1024);
    await Promise.all(Array.from({ length: 9 }, (_, i) => client.put(`/rb/big/${i}`).value(`${i}${blob}`)));
    const { send, sizes } = counted();
    const b = new RangeBatcher(send);
    const got = await Promise.all(Array.from({ length: 9 }, (_, i) => b.get(Buffer.from(`/rb/big/${i}`), soon())));
    got.forEach((g, i) => assert.equal(g.kv?.value.subarray(0, 1).toString(), String(i)));
    assert.ok(sizes.includes(8), `the 8 queued reads went as one transaction first: ${sizes}`);
  });

  test('a transaction that fails fails every read in it, and the next reads are sent again', async () => {
    const b = new RangeBatcher(etcdRangeTxn(client));
    const past = Date.now() - 1;
    const failed = await Promise.allSettled(Array.from({ length: 5 }, () => b.get(Buffer.from('/rb/idle'), past)));
    assert.ok(
      failed.every((r) => r.status === 'rejected'),
      JSON.stringify(failed.map((r) => r.status)),
    );
    assert.equal((await b.get(Buffer.from('/rb/idle'), soon())).kv?.value.toString(), 'v1');
  });
});
