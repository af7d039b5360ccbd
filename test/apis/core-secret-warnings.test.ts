// core/v1 Secret warnings: kube's warningsForSecret (pkg/registry/core/secret/strategy.go), a
// kubernetes.io/tls Secret whose tls.crt and tls.key are not a key pair gets crypto/tls's
// X509KeyPair error as a Warning on create and update. The key pair check ports the cases of
// Go's crypto/tls TestX509KeyPairErrors and TestX509MixedKeyPair; then HTTP and the real kubectl.
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { createPrivateKey, generateKeyPairSync, webcrypto } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as x509 from '@peculiar/x509';
import { SecretStrategy } from '../../apis/core/v1/strategy.js';
import { x509KeyPairError } from '../../runtime/apimachinery/crypto/x509keypair.js';
import { warningsForSecret } from '../../apis/core/v1/secret-warnings.js';
import type { Secret } from '../../apis/core/v1/types.js';
import { ok } from '../integration/assertions.js';
import { describeBackends } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { Kubectl, kubectlUnavailable } from '../integration/kubectl.js';
import { newCA, newLeaf, type KeyPair } from '../server/pki.js';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const MISMATCH = 'tls: private key does not match public key';
const pem = (type: string, der: Buffer | string): string =>
  `-----BEGIN ${type}-----\n${Buffer.from(der)
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END ${type}-----\n`;
const buf = (s: string): Buffer => Buffer.from(s, 'latin1');
const b64 = (s: string): string => Buffer.from(s).toString('base64');

/** A self-signed RSA certificate and its key (PKCS #8 and PKCS #1). */
async function rsaPair(): Promise<KeyPair & { pkcs1KeyPEM: string }> {
  const alg = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 } as const;
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=rsa',
    notBefore: new Date(Date.now() - 3_600_000),
    notAfter: new Date(Date.now() + 86_400_000),
    signingAlgorithm: alg,
    keys,
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  const pkcs1 = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }).export({ format: 'der', type: 'pkcs1' });
  return { certPEM: cert.toString('pem'), keyPEM: pem('PRIVATE KEY', pkcs8), pkcs1KeyPEM: pem('RSA PRIVATE KEY', pkcs1) };
}

/** The SEC 1 form (`EC PRIVATE KEY`) of a PKCS #8 ECDSA key. */
function sec1(keyPEM: string): string {
  return pem('EC PRIVATE KEY', createPrivateKey(keyPEM).export({ format: 'der', type: 'sec1' }));
}

const tlsSecret = (name: string, pair: { certPEM: string; keyPEM: string }): Secret & { apiVersion: string; kind: string } => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name },
  type: 'kubernetes.io/tls',
  data: { 'tls.crt': b64(pair.certPEM), 'tls.key': b64(pair.keyPEM) },
});

describe('core/v1 Secret warnings', () => {
  let ec: KeyPair;
  let otherEC: KeyPair;
  let rsa: Awaited<ReturnType<typeof rsaPair>>;
  let otherRSA: Awaited<ReturnType<typeof rsaPair>>;
  before(async () => {
    const ca = await newCA('secret-warnings');
    ec = await newLeaf(ca, { subject: 'CN=one', usage: 'server' });
    otherEC = await newLeaf(ca, { subject: 'CN=two', usage: 'server' });
    rsa = await rsaPair();
    otherRSA = await rsaPair();
  });

  it('X509KeyPair: matching pairs (PKCS #8, PKCS #1, SEC 1; a chain after the leaf) have no error', () => {
    assert.equal(x509KeyPairError(buf(ec.certPEM), buf(ec.keyPEM)), undefined);
    assert.equal(x509KeyPairError(buf(ec.certPEM), buf(sec1(ec.keyPEM))), undefined);
    assert.equal(x509KeyPairError(buf(rsa.certPEM), buf(rsa.keyPEM)), undefined);
    assert.equal(x509KeyPairError(buf(rsa.certPEM), buf(rsa.pkcs1KeyPEM)), undefined);
    assert.equal(x509KeyPairError(buf(`${ec.certPEM}\n${otherEC.certPEM}`), buf(ec.keyPEM)), undefined);
    // As Go's pem.Decode: an END line must end there, so blocks run together are not read.
    assert.equal(x509KeyPairError(buf(`${ec.certPEM.trimEnd()}${otherEC.certPEM}`), buf(ec.keyPEM)), 'tls: failed to find any PEM data in certificate input');
    // Text around the blocks, CRLF line ends and PEM headers are what Go's pem.Decode accepts.
    const crlf = `comment\r\n${ec.certPEM.replace(/\n/g, '\r\n')}`;
    const withHeaders = ec.keyPEM.replace('-----\n', '-----\nProc-Type: 4,NOTE\n\n');
    assert.equal(x509KeyPairError(buf(crlf), buf(`junk\n${withHeaders}trailer`)), undefined);
  });

  it('X509KeyPair: a key of another pair, or of another type (TestX509MixedKeyPair)', () => {
    assert.equal(x509KeyPairError(buf(ec.certPEM), buf(otherEC.keyPEM)), MISMATCH);
    assert.equal(x509KeyPairError(buf(rsa.certPEM), buf(otherRSA.pkcs1KeyPEM)), MISMATCH);
    assert.equal(x509KeyPairError(buf(rsa.certPEM), buf(ec.keyPEM)), 'tls: private key type does not match public key type');
    assert.equal(x509KeyPairError(buf(ec.certPEM), buf(rsa.keyPEM)), 'tls: private key type does not match public key type');
    const ed = generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' });
    assert.equal(x509KeyPairError(buf(ec.certPEM), buf(pem('PRIVATE KEY', ed))), 'tls: private key type does not match public key type');
  });

  it("X509KeyPair: Go's messages for missing, switched and unparsable input (TestX509KeyPairErrors)", () => {
    const cases: [string, string, string][] = [
      ['', ec.keyPEM, 'tls: failed to find any PEM data in certificate input'],
      [ec.keyPEM, ec.certPEM, 'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched'],
      [pem('FOO', 'x') + pem('BAR', 'y'), ec.keyPEM, 'tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: [FOO BAR]'],
      [ec.certPEM, '', 'tls: failed to find any PEM data in key input'],
      [ec.certPEM, 'not pem at all', 'tls: failed to find any PEM data in key input'],
      [ec.certPEM, ec.certPEM, 'tls: found a certificate rather than a key in the PEM for the private key'],
      [
        ec.certPEM,
        pem('CERTIFICATE', 'x') + pem('PUBLIC KEY', 'y'),
        'tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: [CERTIFICATE PUBLIC KEY]',
      ],
      [ec.certPEM, pem('PRIVATE KEY', 'garbage'), 'tls: failed to parse private key'],
      [pem('CERTIFICATE', 'garbage'), ec.keyPEM, 'x509: malformed certificate'],
      // A block whose base64 is broken, or whose END names another type, is skipped.
      [ec.certPEM, '-----BEGIN PRIVATE KEY-----\n@@@@\n-----END PRIVATE KEY-----\n', 'tls: failed to find any PEM data in key input'],
      [ec.certPEM, ec.keyPEM.replace('END PRIVATE KEY', 'END PUBLIC KEY'), 'tls: failed to find any PEM data in key input'],
    ];
    for (const [cert, key, message] of cases) assert.equal(x509KeyPairError(buf(cert), buf(key)), message, message);
  });

  it('X509KeyPair: hostile input (a Secret of BEGIN lines) ends, reading what Go reads where Go is linear', () => {
    // Lines with a colon are one block's headers, read once: the certificate after them is found, as in Go.
    const headers = '-----BEGIN A:B-----\n'.repeat(50_000);
    assert.equal(x509KeyPairError(buf(headers + ec.certPEM), buf(ec.keyPEM)), undefined);
    // No END line anywhere: nothing to find.
    assert.equal(x509KeyPairError(buf(ec.certPEM), buf('-----BEGIN A-----\n'.repeat(50_000))), 'tls: failed to find any PEM data in key input');
    // Many blocks all ending at one wrong END line: Go rescans to it for each (quadratic); the search gives up after 64.
    const skipped = `${'-----BEGIN A-----\n'.repeat(50_000)}-----END B-----\n`;
    assert.equal(x509KeyPairError(buf(skipped + ec.certPEM), buf(ec.keyPEM)), 'tls: failed to find any PEM data in certificate input');
  });

  it('warningsForSecret: TLS Secrets only; the strategy warns on create and on update', () => {
    assert.deepEqual(warningsForSecret(tlsSecret('ok', ec)), []);
    const bad = tlsSecret('bad', { certPEM: ec.certPEM, keyPEM: otherEC.keyPEM });
    assert.deepEqual(warningsForSecret(bad), [MISMATCH]);
    assert.deepEqual(warningsForSecret({ ...bad, type: 'Opaque' }), []);
    assert.deepEqual(warningsForSecret({ ...bad, type: undefined }), []);
    assert.deepEqual(SecretStrategy.warningsOnCreate(bad), [MISMATCH]);
    assert.deepEqual(SecretStrategy.warningsOnUpdate(bad), [MISMATCH]);
    // `__proto__` is a data key like any other, never the object's prototype.
    const proto = JSON.parse(`{"type":"kubernetes.io/tls","data":{"__proto__":"eA==","tls.crt":"${b64(ec.certPEM)}","tls.key":"${b64(ec.keyPEM)}"}}`) as Secret;
    assert.deepEqual(warningsForSecret(proto), []);
  });

  describeBackends(
    'Secret warnings over HTTP and kubectl',
    (cp) => {
      const NS = 'default';
      let c: HttpsClient;
      let kc: Kubectl;
      let dir: string;
      before(() => {
        c = new HttpsClient(cp().credentials);
        kc = new Kubectl(cp);
        dir = mkdtempSync(join(tmpdir(), 'secret-tls-'));
      });
      after(() => {
        kc.dispose();
        rmSync(dir, { recursive: true, force: true });
      });
      const warning = (h: { warning?: string | string[] }): string | undefined => (Array.isArray(h.warning) ? h.warning.join(', ') : h.warning);

      it("POST and PUT of a TLS Secret whose key is not the certificate's answer with a 299 Warning; a matching pair has none", async () => {
        const path = `/api/v1/namespaces/${NS}/secrets`;
        const created = await c.json('POST', path, tlsSecret('mismatched', { certPEM: ec.certPEM, keyPEM: otherEC.keyPEM }));
        assert.equal(created.status, 201, JSON.stringify(created.body));
        assert.equal(warning(created.headers), `299 - "${MISMATCH}"`);
        const stored = created.body as unknown as Secret;
        const updated = await c.json('PUT', `${path}/mismatched`, { ...stored, metadata: { ...stored.metadata, labels: { touched: 'yes' } } });
        assert.equal(updated.status, 200, JSON.stringify(updated.body));
        assert.equal(warning(updated.headers), `299 - "${MISMATCH}"`);
        const fine = await c.json('POST', path, tlsSecret('matched', ec));
        assert.equal(fine.status, 201, JSON.stringify(fine.body));
        assert.equal(warning(fine.headers), undefined);
      });

      it('kubectl create -f and label of such a Secret print the Warning; kubectl create secret tls checks the pair itself', { skip: kubectlUnavailable() ?? false }, async () => {
        const r = await kc.run(['-n', NS, 'create', '-f', '-'], { stdin: JSON.stringify(tlsSecret('kubectl-mismatched', { certPEM: rsa.certPEM, keyPEM: otherRSA.keyPEM })) });
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout.trim(), 'secret/kubectl-mismatched created');
        assert.equal(r.stderr.trim(), `Warning: ${MISMATCH}`);
        // An update (here a patch of a label) warns again, as kube's WarningsOnUpdate does.
        const labelled = await kc.run(['-n', NS, 'label', 'secret', 'kubectl-mismatched', 'touched=yes']);
        assert.equal(ok(labelled, cp()), 'secret/kubectl-mismatched labeled');
        assert.equal(labelled.stderr.trim(), `Warning: ${MISMATCH}`);
        writeFileSync(join(dir, 'tls.crt'), ec.certPEM);
        writeFileSync(join(dir, 'tls.key'), ec.keyPEM);
        writeFileSync(join(dir, 'other.key'), otherEC.keyPEM);
        // client-go sends this one as protobuf: the server reads the same bytes and has nothing to warn about.
        const good = await kc.run(['-n', NS, 'create', 'secret', 'tls', 'kubectl-matched', '--cert', join(dir, 'tls.crt'), '--key', join(dir, 'tls.key')]);
        assert.equal(ok(good, cp()), 'secret/kubectl-matched created');
        assert.equal(good.stderr, '');
        // kubectl runs the same X509KeyPair before sending: a mismatched pair never reaches the server.
        const refused = await kc.run(['-n', NS, 'create', 'secret', 'tls', 'kubectl-refused', '--cert', join(dir, 'tls.crt'), '--key', join(dir, 'other.key')]);
        assert.notEqual(refused.code, 0);
        assert.equal(refused.stderr.trim(), `error: ${MISMATCH}`);
      });
    },
    { only: ['sqlite'] },
  );
});
