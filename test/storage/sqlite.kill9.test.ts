import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { Store } from '../../runtime/storage/kvstore/store.js';
import { SqliteKV } from '../../runtime/storage/sqlite/kv.js';

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'storage-kill9-'));
const db = join(dir, 'state.db');
after(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the writer child until it has acknowledged `minAcks` writes plus a random delay, then kill -9. */
async function writeAndKill(round: number, minAcks: number): Promise<Map<string, number>> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'fixtures/sqliteWriter.ts'), db, String(round)], {
    cwd: resolve(here, '../..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const acked = new Map<string, number>();
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  let killed = false;
  let acks = 0;
  const extraMs = 50 + Math.floor(Math.random() * 400);
  try {
    for await (const line of createInterface({ input: child.stdout })) {
      const [tag, key, rv] = line.split(' ');
      if (tag !== 'ack' || !key || !rv) continue;
      acked.set(key, Math.max(acked.get(key) ?? 0, Number(rv)));
      if (++acks === minAcks && !killed) {
        killed = true;
        // Kill mid-flight: writes are still being issued and committed.
        setTimeout(() => child.kill('SIGKILL'), extraMs);
      }
    }
  } finally {
    if (!killed) child.kill('SIGKILL');
    await exited;
  }
  assert.equal(child.signalCode, 'SIGKILL', 'the writer must have been killed, not exited');
  return acked;
}

test('kill -9 of a process writing to SQLite loses no acknowledged write', async () => {
  const all = new Map<string, number>();
  for (let round = 0; round < 3; round++) {
    const acked = await writeAndKill(round, 200 + round * 300);
    assert.ok(acked.size > 0, 'the writer acknowledged writes before being killed');
    for (const [k, rv] of acked) all.set(k, rv);

    const check = new Database(db, { readonly: true });
    assert.equal(check.pragma('integrity_check', { simple: true }), 'ok');
    check.close();

    const kv = new SqliteKV({ path: db });
    try {
      const store = new Store({ kv, resourcePrefix: '/configmaps/' });
      const list = await store.getList('/configmaps/', { recursive: true });
      const found = new Map(list.items.map((o) => [`/configmaps/default/${o.metadata?.name}`, Number(o.metadata?.resourceVersion)]));
      for (const [key, rv] of all) {
        assert.ok(found.has(key), `acknowledged write of ${key} was lost`);
        assert.ok((found.get(key) ?? 0) >= rv, `${key}: stored revision ${found.get(key)} older than the acknowledged ${rv}`);
      }
      // Revisions keep increasing across crashes.
      const current = await store.getCurrentResourceVersion();
      assert.ok(current >= Math.max(...all.values()));
    } finally {
      await kv.close();
    }
  }
});
