// A first start's PKI made on a thread of its own (runtime/controlplane/pki-thread.ts): the same
// files and PEM as ensurePKI makes in the calling thread; an existing PKI read with no thread; the
// thread's failure as the calling thread's would be; a thread that dies fails the start instead of
// hanging it; concurrent makers on one fresh directory (threads, processes, a process left dead
// holding the lock) leave one CA that signs every leaf. Then `npm start`'s bundle on a fresh data
// dir, which must find the thread's entry beside it.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { after, describe, it } from 'node:test';
import { ensurePKI, pkiPlan, type PKI } from '../../runtime/controlplane/certs.js';
import { ensurePKIOffThread, makeOnThread } from '../../runtime/controlplane/pki-thread.js';
import { ControlPlane } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';

const root = mkdtempSync(join(tmpdir(), 'kube-ts-pki-worker-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = (): string => join(root, `d${++n}`);

/** Threads started while `f` runs. */
async function threadsDuring<T>(f: () => Promise<T>): Promise<{ value: T; threads: number }> {
  let threads = 0;
  const count = (_: Worker): void => void threads++;
  process.on('worker', count);
  try {
    return { value: await f(), threads };
  } finally {
    process.off('worker', count);
  }
}

/** Every certificate of the PKI checks against the CA files now on disk. */
function assertSignedByFilesOnDisk(pki: PKI): void {
  const ca = new X509Certificate(readFileSync(join(pki.dir, 'ca.crt')));
  const frontProxyCA = new X509Certificate(readFileSync(join(pki.dir, 'front-proxy-ca.crt')));
  assert.equal(pki.caCertPEM, readFileSync(join(pki.dir, 'ca.crt'), 'utf8'));
  for (const pem of [pki.servingCertPEM, pki.adminCertPEM]) assert.ok(new X509Certificate(pem).verify(ca.publicKey));
  assert.ok(new X509Certificate(pki.frontProxyClientCertPEM).verify(frontProxyCA.publicKey));
  assert.equal(readFileSync(join(pki.dir, 'apiserver.crt'), 'utf8'), pki.servingCertPEM);
  assert.equal(readFileSync(join(pki.dir, 'apiserver.key'), 'utf8'), pki.servingKeyPEM);
}

describe('the PKI made on a thread', () => {
  it('makes every file ensurePKI makes, keys readable by the owner only, and answers what it wrote', async () => {
    const dir = freshDir();
    const { value: pki, threads } = await threadsDuring(() => ensurePKIOffThread(dir, { hosts: ['10.1.2.3'] }));
    assert.equal(threads, 1);
    assert.deepEqual(readdirSync(join(dir, 'pki')).sort(), [
      'admin.crt',
      'admin.key',
      'apiserver.crt',
      'apiserver.key',
      'ca.crt',
      'ca.key',
      'front-proxy-ca.crt',
      'front-proxy-ca.key',
      'front-proxy-client.crt',
      'front-proxy-client.key',
      'sa.key',
      'sa.pub',
    ]);
    for (const key of ['ca.key', 'apiserver.key', 'admin.key', 'front-proxy-ca.key', 'front-proxy-client.key', 'sa.key']) {
      assert.equal(statSync(join(dir, 'pki', key)).mode & 0o777, 0o600, key);
    }
    assertSignedByFilesOnDisk(pki);
    assert.equal(new X509Certificate(pki.servingCertPEM).checkIP('10.1.2.3'), '10.1.2.3');
    // The calling thread's ensurePKI reads the same PKI back.
    assert.deepEqual(await ensurePKI(dir, { hosts: ['10.1.2.3'] }), pki);
  });

  it('reads an existing PKI with no thread; a host the serving certificate lacks is made on one', async () => {
    const dir = freshDir();
    const made = await ensurePKI(dir, { hosts: [] });
    const read = await threadsDuring(() => ensurePKIOffThread(dir, { hosts: [] }));
    assert.equal(read.threads, 0);
    assert.deepEqual(read.value, made);

    const remade = await threadsDuring(() => ensurePKIOffThread(dir, { hosts: ['10.9.9.9'] }));
    assert.equal(remade.threads, 1);
    assert.notEqual(remade.value.servingCertPEM, made.servingCertPEM);
    assert.deepEqual({ ...remade.value, servingCertPEM: '', servingKeyPEM: '' }, { ...made, servingCertPEM: '', servingKeyPEM: '' });
    assertSignedByFilesOnDisk(remade.value);
  });

  it("fails as the calling thread would: a broken CA file's error, a file where its directory goes", async () => {
    const dir = freshDir();
    await ensurePKI(dir, { hosts: [] });
    // A leaf to make, and the CA that must sign it broken.
    rmSync(join(dir, 'pki', 'admin.crt'));
    writeFileSync(join(dir, 'pki', 'ca.crt'), '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n');
    const here = await ensurePKI(dir, { hosts: [] }).then(
      () => assert.fail('ensurePKI took a broken CA'),
      (err: Error) => err,
    );
    await assert.rejects(ensurePKIOffThread(dir, { hosts: [] }), (err: Error) => {
      assert.equal(err.message, here.message);
      assert.equal(err.name, here.name);
      return true;
    });

    // <data-dir>/pki a file: no directory to make the PKI in.
    const notDir = freshDir();
    mkdirSync(notDir);
    writeFileSync(join(notDir, 'pki'), '');
    const failed = await ensurePKI(notDir, { hosts: [] }).then(
      () => assert.fail('ensurePKI made a PKI in a file'),
      (err: NodeJS.ErrnoException) => err,
    );
    assert.equal(typeof failed.code, 'string');
    await assert.rejects(ensurePKIOffThread(notDir, { hosts: [] }), (err: NodeJS.ErrnoException) => {
      assert.equal(err.message, failed.message);
      assert.equal(err.code, failed.code);
      return true;
    });
  });

  it('a thread that dies without answering fails the start instead of hanging it', async () => {
    const entry = join(root, 'dies.mjs');
    writeFileSync(entry, 'process.exit(7);\n');
    await assert.rejects(makeOnThread({ dir: join(freshDir(), 'pki'), plan: pkiPlan([]) }, pathToFileURL(entry)), /exited with code 7 before it answered/);
    const throws = join(root, 'throws.mjs');
    writeFileSync(throws, 'throw new RangeError("the thread broke");\n');
    await assert.rejects(makeOnThread({ dir: join(freshDir(), 'pki'), plan: pkiPlan([]) }, pathToFileURL(throws)), { name: 'RangeError', message: 'the thread broke' });
  });

  it('makers on one fresh directory at once leave one CA signing every leaf', async () => {
    const dir = freshDir();
    const all = await Promise.all([ensurePKIOffThread(dir, { hosts: [] }), ensurePKIOffThread(dir, { hosts: [] }), ensurePKI(dir, { hosts: [] })]);
    for (const pki of all) {
      assert.deepEqual(pki, all[0]);
      assertSignedByFilesOnDisk(pki);
    }
    assert.deepEqual(
      readdirSync(join(dir, 'pki')).filter((f) => f.endsWith('.tmp') || f === '.lock'),
      [],
    );
  });

  /** The PKIs `n` processes at once make in `dir`, each through ensurePKIOffThread. */
  async function makeInProcesses(dir: string, n: number): Promise<PKI[]> {
    // .mts: an ES module (top-level await) outside any package.json.
    const script = join(root, 'make.mts');
    writeFileSync(
      script,
      `import { ensurePKIOffThread } from ${JSON.stringify(pathToFileURL(join(import.meta.dirname, '../../runtime/controlplane/pki-thread.ts')).href)};\n` +
        `process.stdout.write(JSON.stringify(await ensurePKIOffThread(process.argv[2], { hosts: [] })));\n`,
    );
    return Promise.all(
      Array.from(
        { length: n },
        () =>
          new Promise<PKI>((resolve, reject) => {
            const child = spawn(process.execPath, ['--import', 'tsx', script, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
            let out = '';
            let err = '';
            child.stdout.on('data', (d: Buffer) => (out += d.toString()));
            child.stderr.on('data', (d: Buffer) => (err += d.toString()));
            child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as PKI) : reject(new Error(`maker exited ${code}: ${err}`))));
          }),
      ),
    );
  }

  it('two processes starting on one fresh data dir end with the same PKI', async () => {
    const dir = freshDir();
    const [a, b] = await makeInProcesses(dir, 2);
    assert.deepEqual(b, a);
    assertSignedByFilesOnDisk(a!);
  });

  it('a lock left by a process that is gone is taken over, by one of several makers at a time', async () => {
    const dir = freshDir();
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    mkdirSync(join(dir, 'pki'), { recursive: true });
    writeFileSync(join(dir, 'pki', '.lock'), gone.stdout);
    assertSignedByFilesOnDisk(await ensurePKIOffThread(dir, { hosts: [] }));
    // Each maker judges the dead lock stale; only one may remove it (pki/.lock.takeover), or a
    // second would remove the lock the first had just taken and both would make a CA. The window
    // is microseconds: this shows the outcome (one CA, nothing left behind), and did not catch the
    // interleaving on the code without the takeover lock (3 runs of 3).
    const racing = freshDir();
    mkdirSync(join(racing, 'pki'), { recursive: true });
    writeFileSync(join(racing, 'pki', '.lock'), gone.stdout);
    const all = await makeInProcesses(racing, 3);
    for (const pki of all) {
      assert.deepEqual(pki, all[0]);
      assertSignedByFilesOnDisk(pki);
    }
    assert.deepEqual(
      readdirSync(join(racing, 'pki')).filter((f) => f.startsWith('.lock')),
      [],
    );
  });
});

describe('npm start on a fresh data dir', () => {
  let cp: ControlPlane | undefined;
  after(async () => {
    await cp?.stop();
  });

  it('finds the thread entry beside the bundle and serves with the PKI it made', async () => {
    cp = await ControlPlane.start({ backend: 'sqlite', bundled: true, readyTimeoutMs: 180_000 });
    const client = new HttpsClient(cp.credentials);
    try {
      assert.equal((await client.json('GET', '/api/v1/namespaces/default')).status, 200);
    } finally {
      client.close();
    }
    const ca = new X509Certificate(readFileSync(join(cp.dataDir, 'pki', 'ca.crt')));
    assert.ok(new X509Certificate(readFileSync(join(cp.dataDir, 'pki', 'apiserver.crt'))).verify(ca.publicKey));
  });
});
