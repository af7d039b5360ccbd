// kube's dynamiccertificates file contents: a CA bundle and a serving pair read again when their
// files change (replaced by rename, as tools do) and on a periodic resync; a change that does not
// parse or does not pair is refused and the last good content kept; listeners hear only of real changes.
import assert from 'node:assert/strict';
import { linkSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DynamicCertKeyPairContent, DynamicFileCAContent, StaticCAContent, UnionCAContent } from '../../../runtime/server/dynamiccertificates/index.js';
import type { KeyPair, TestCA } from '../pki.js';
import { eventually, recordingLogger, replaceFile, testCredentials } from './helpers.js';

describe('dynamic certificate contents', () => {
  let dir: string;
  let caA: TestCA;
  let caB: TestCA;
  let pairA: KeyPair;
  let pairB: KeyPair;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kube-ts-dyncerts-'));
    ({ caA, caB, pairA, pairB } = await testCredentials());
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe('DynamicFileCAContent', () => {
    it('is named by purpose and file, and the first read fails the construction', () => {
      const file = join(dir, 'first-ca.crt');
      writeFileSync(file, caA.certPEM);
      const c = new DynamicFileCAContent('client-ca-bundle', file, { logger: recordingLogger() });
      assert.equal(c.name, `client-ca-bundle::${file}`);
      assert.equal(c.currentCABundleContent(), caA.certPEM);
      assert.equal(c.currentCABundle().roots.length, 1);
      writeFileSync(join(dir, 'empty.crt'), '');
      assert.throws(() => new DynamicFileCAContent('client-ca-bundle', join(dir, 'empty.crt')), /^Error: missing content for CA bundle "client-ca-bundle::.*empty\.crt"$/);
      writeFileSync(join(dir, 'garbage.crt'), 'not a certificate');
      assert.throws(
        () => new DynamicFileCAContent('client-ca-bundle', join(dir, 'garbage.crt')),
        /error loading CA bundle for "client-ca-bundle::.*garbage\.crt": data does not contain any valid RSA or ECDSA certificates/,
      );
      assert.throws(() => new DynamicFileCAContent('client-ca-bundle', join(dir, 'absent.crt')), /ENOENT/);
    });

    it('follows a file replaced by rename, keeps the last good bundle on garbage, and tells listeners only of changes', async () => {
      const file = join(dir, 'ca.crt');
      writeFileSync(file, caA.certPEM);
      const logger = recordingLogger();
      const c = new DynamicFileCAContent('client-ca-bundle', file, { logger, resyncMs: 60_000 });
      let told = 0;
      c.addListener({ enqueue: () => told++ });
      c.start();
      try {
        replaceFile(file, caB.certPEM);
        await eventually('the new CA', () => c.currentCABundleContent() === caB.certPEM);
        assert.equal(told, 1);
        assert.ok(c.currentCABundle().roots[0]!.subject.includes('CN=ca-b'));
        assert.ok(logger.infos.includes('Loaded a new CA Bundle and Verifier'));

        replaceFile(file, 'garbage');
        await eventually('the refusal logged', () => logger.errors.some((e) => e.startsWith('key failed with : error loading CA bundle for')));
        assert.equal(c.currentCABundleContent(), caB.certPEM);

        // The same bytes again (a touch, a rewrite): no change to tell of.
        replaceFile(file, caB.certPEM);
        replaceFile(file, caB.certPEM);
        await new Promise((resolve) => setTimeout(resolve, 300));
        assert.equal(told, 1);

        replaceFile(file, caA.certPEM + caB.certPEM);
        await eventually('both CAs', () => c.currentCABundle().roots.length === 2);
        assert.equal(told, 2);
      } finally {
        await c.stop();
      }
    });

    it('follows a Secret volume, whose files change by a swap of the ..data symlink they point through', async () => {
      const volume = mkdtempSync(join(dir, 'volume-'));
      const version = (name: string, pem: string): void => {
        mkdirSync(join(volume, name));
        writeFileSync(join(volume, name, 'ca.crt'), pem);
      };
      version('..2026_01', caA.certPEM);
      symlinkSync('..2026_01', join(volume, '..data'));
      symlinkSync('..data/ca.crt', join(volume, 'ca.crt'));
      const c = new DynamicFileCAContent('client-ca-bundle', join(volume, 'ca.crt'), { logger: recordingLogger(), resyncMs: 60_000 });
      c.start();
      try {
        version('..2026_02', caB.certPEM);
        symlinkSync('..2026_02', join(volume, '..data_tmp'));
        renameSync(join(volume, '..data_tmp'), join(volume, '..data'));
        rmSync(join(volume, '..2026_01'), { recursive: true });
        await eventually('the new CA', () => c.currentCABundleContent() === caB.certPEM);
      } finally {
        await c.stop();
      }
    });

    it('a change the watch misses is read on the resync', async () => {
      // Written through a hard link in another directory: the same inode, which the watch on the
      // first directory does not hear of.
      const watched = mkdtempSync(join(dir, 'watched-'));
      const elsewhere = mkdtempSync(join(dir, 'elsewhere-'));
      const file = join(watched, 'ca.crt');
      writeFileSync(file, caA.certPEM);
      linkSync(file, join(elsewhere, 'ca.crt'));
      const slow = new DynamicFileCAContent('request-header', file, { logger: recordingLogger(), resyncMs: 60_000 });
      const fast = new DynamicFileCAContent('request-header', file, { logger: recordingLogger(), resyncMs: 100 });
      slow.start();
      fast.start();
      try {
        await new Promise((resolve) => setTimeout(resolve, 100));
        writeFileSync(join(elsewhere, 'ca.crt'), caB.certPEM);
        await eventually('the new CA', () => fast.currentCABundleContent() === caB.certPEM);
        assert.equal(slow.currentCABundleContent(), caA.certPEM, 'the watch did see the change: this test proves nothing');
      } finally {
        await slow.stop();
        await fast.stop();
      }
    });
  });

  describe('DynamicCertKeyPairContent', () => {
    it('refuses a pair whose key is not the certificate’s, at the start and on reload, serving the last good one', async () => {
      const certFile = join(dir, 'tls.crt');
      const keyFile = join(dir, 'tls.key');
      writeFileSync(certFile, pairA.certPEM);
      writeFileSync(keyFile, pairB.keyPEM);
      assert.throws(() => new DynamicCertKeyPairContent('serving-cert', certFile, keyFile), /^Error: tls: private key does not match public key$/);

      writeFileSync(keyFile, pairA.keyPEM);
      const logger = recordingLogger();
      const c = new DynamicCertKeyPairContent('serving-cert', certFile, keyFile, { logger });
      assert.equal(c.name, `serving-cert::${certFile}::${keyFile}`);
      let told = 0;
      c.addListener({ enqueue: () => told++ });
      c.start();
      try {
        replaceFile(keyFile, pairB.keyPEM);
        await eventually('the mismatch logged', () => logger.errors.some((e) => e === 'key failed with : tls: private key does not match public key'));
        assert.equal(c.currentCertKeyContent().cert, pairA.certPEM);
        assert.equal(told, 0);

        // The other half arrives: the pair is whole again and is loaded.
        replaceFile(certFile, pairB.certPEM);
        await eventually('the new pair', () => c.currentCertKeyContent().cert === pairB.certPEM);
        assert.equal(c.currentCertKeyContent().key, pairB.keyPEM);
        assert.equal(told, 1);
        assert.ok(logger.infos.includes('Loaded a new cert/key pair'));

        replaceFile(certFile, 'garbage');
        await eventually('the garbage refused', () => logger.errors.some((e) => e === 'key failed with : tls: failed to find any PEM data in certificate input'));
        assert.equal(c.currentCertKeyContent().cert, pairB.certPEM);
      } finally {
        await c.stop();
      }
    });
  });

  it('UnionCAContent joins the bundles in order and passes listeners to each', () => {
    const file = join(dir, 'union-ca.crt');
    writeFileSync(file, caB.certPEM.trimEnd());
    const dynamic = new DynamicFileCAContent('client-ca-bundle', file, { logger: recordingLogger() });
    const union = new UnionCAContent(dynamic, new StaticCAContent('requestheader-client-ca-file', caA.certPEM));
    assert.equal(union.name, `client-ca-bundle::${file},requestheader-client-ca-file`);
    assert.deepEqual(
      union.currentCABundle().roots.map((r) => r.subject),
      ['CN=ca-b', 'CN=ca-a'],
    );
    let told = 0;
    union.addListener({ enqueue: () => told++ });
    writeFileSync(file, caA.certPEM);
    dynamic.loadCABundle();
    assert.equal(told, 1);
    assert.equal(union.currentCABundle().roots.length, 1 + 0 + 1);
  });
});
