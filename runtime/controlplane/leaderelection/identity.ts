import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** Where the identity is kept, beside the certificates and the SQLite file. */
export const IDENTITY_FILE = 'leader-election-identity';

/**
 * The identity this process campaigns with: client-go's `<hostname>_<uuid>`, but the uuid is
 * made once per data dir and kept there, and `suffix` (if any) is appended as `_<suffix>`.
 *
 * Why not a new uuid per process, as kube-controller-manager does: a restarted process with a
 * new identity must wait out its predecessor's lease (15 s by default) after a crash before its
 * garbage collector and namespace controller run, and this server is restarted on the same data
 * dir all the time (embedded in tests and tools). A data dir belongs to one server at a time
 * (its SQLite file, its serving certificate), so a process that finds its own identity in the
 * Lease is that server's successor and may renew at once: its predecessor is gone. Processes
 * that do share a data dir at the same time (the workers of one server) must be told apart by
 * `suffix` (the worker's index), or they would all believe they lead.
 */
export function electionIdentity(dataDir: string, suffix = ''): string {
  const path = join(dataDir, IDENTITY_FILE);
  let id: string;
  try {
    id = readFileSync(path, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    id = '';
  }
  if (!isIdentity(id)) {
    id = `${hostname()}_${randomUUID()}`;
    // wx: of two processes racing on a fresh data dir, the second reads the first's.
    try {
      writeFileSync(path, `${id}\n`, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const theirs = readFileSync(path, 'utf8').trim();
      if (isIdentity(theirs)) id = theirs;
      else writeFileSync(path, `${id}\n`, { mode: 0o600 });
    }
  }
  return suffix === '' ? id : `${id}_${suffix}`;
}

/** A holder identity as this function writes it: printable, one line, bounded. */
function isIdentity(s: string): boolean {
  return s.length > 0 && s.length <= 256 && /^[\x21-\x7e]+$/.test(s);
}
