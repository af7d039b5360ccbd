// kube's DynamicServingCertificateController: the TLS server gets new credentials when its pair or
// its client CAs change, once per change, both applied together.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  DynamicCertKeyPairContent,
  DynamicFileCAContent,
  DynamicServingCertificateController,
  UnionCAContent,
  StaticCAContent,
  type TLSContent,
} from '../../../runtime/server/dynamiccertificates/index.js';
import type { KeyPair, TestCA } from '../pki.js';
import { fingerprints, recordingLogger, testCredentials } from './helpers.js';

describe('DynamicServingCertificateController', () => {
  let dir: string;
  let caA: TestCA;
  let caB: TestCA;
  let pairA: KeyPair;
  let pairB: KeyPair;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kube-ts-tlsconfig-'));
    ({ caA, caB, pairA, pairB } = await testCredentials());
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('applies the credentials at start, then each change once, and logs what changed', async () => {
    const files = { cert: join(dir, 'tls.crt'), key: join(dir, 'tls.key'), ca: join(dir, 'ca.crt') };
    writeFileSync(files.cert, pairA.certPEM);
    writeFileSync(files.key, pairA.keyPEM);
    writeFileSync(files.ca, caA.certPEM);
    const logger = recordingLogger();
    const serving = new DynamicCertKeyPairContent('serving-cert', files.cert, files.key, { logger });
    const clientCA = new DynamicFileCAContent('client-ca-bundle', files.ca, { logger });
    const controller = new DynamicServingCertificateController({ serving, clientCA: new UnionCAContent(clientCA, new StaticCAContent('requestheader-client-ca-file', caB.certPEM)), logger });
    const applied: TLSContent[] = [];
    controller.start({ setSecureContext: (tls) => applied.push(tls) });
    assert.equal(applied.length, 1);
    assert.equal(applied[0]!.cert, pairA.certPEM);
    assert.deepEqual(fingerprints(applied[0]!.clientCA!), fingerprints(caA.certPEM + '\n' + caB.certPEM));

    // A change of both before the controller runs: one new context with both.
    writeFileSync(files.cert, pairB.certPEM);
    writeFileSync(files.key, pairB.keyPEM);
    serving.loadCertKeyPair();
    writeFileSync(files.ca, caB.certPEM);
    clientCA.loadCABundle();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(applied.length, 2);
    assert.equal(applied[1]!.cert, pairB.certPEM);
    assert.equal(applied[1]!.key, pairB.keyPEM);
    assert.deepEqual(fingerprints(applied[1]!.clientCA!), fingerprints(caB.certPEM + '\n' + caB.certPEM));
    assert.ok(logger.infos.includes('Loaded client CA'));
    assert.ok(logger.infos.includes('Loaded serving cert'));

    // Told without a change: nothing new.
    controller.enqueue();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(applied.length, 2);

    controller.stop();
    writeFileSync(files.ca, caA.certPEM);
    clientCA.loadCABundle();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(applied.length, 2, 'a stopped controller applies nothing');
  });

  it('a context the server refuses is logged and tried again on the next change', async () => {
    const file = join(dir, 'refused-ca.crt');
    writeFileSync(file, caA.certPEM);
    const logger = recordingLogger();
    const clientCA = new DynamicFileCAContent('client-ca-bundle', file, { logger });
    const controller = new DynamicServingCertificateController({
      serving: { name: 's', addListener: () => undefined, currentCertKeyContent: () => ({ cert: pairA.certPEM, key: pairA.keyPEM }) },
      clientCA,
      logger,
    });
    let refuse = true;
    const applied: TLSContent[] = [];
    controller.start({
      setSecureContext: (tls) => {
        if (refuse) throw new Error('refused');
        applied.push(tls);
      },
    });
    assert.equal(applied.length, 0);
    assert.equal(logger.errors.length, 1);
    refuse = false;
    controller.enqueue();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(applied.length, 1);
  });
});
