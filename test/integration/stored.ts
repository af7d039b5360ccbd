// What the control plane stored for a key, read around the server: for tests and benches that
// check the bytes at rest (encryption, the storage encoding of managedFields).
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Etcd3 } from 'etcd3';
import type { ControlPlane } from './harness.js';

/** The stored bytes of a REST key (`services/default/x`). SQLite: only while the server is stopped (it holds the file exclusively). */
export async function rawValue(cp: ControlPlane, path: string): Promise<Buffer | undefined> {
  if (cp.backend === 'sqlite') {
    const db = new Database(join(cp.dataDir, 'kube.db'), { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare('SELECT value FROM current WHERE key = ?').get(`/registry/${path}`) as { value: Buffer } | undefined;
      return row?.value;
    } finally {
      db.close();
    }
  }
  const client = new Etcd3({ hosts: cp.etcd?.endpoints ?? [] });
  try {
    return (await client.get(`${cp.etcdPrefix}/${path}`).buffer()) ?? undefined;
  } finally {
    client.close();
  }
}
