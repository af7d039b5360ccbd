// The control plane's PKI in <data-dir>/pki (kubeadm's layout): made once, then reused as is so
// clients keep trusting the server; a serving certificate that does not name a host asked for now
// (a changed --bind-address) is made again by the same CA.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ensurePKI } from '../../runtime/controlplane/certs.js';

describe('ensurePKI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kube-ts-pki-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('makes a CA, a serving certificate it signs for loopback and the given hosts, admin and front-proxy pairs', async () => {
    const pki = await ensurePKI(dir, { hosts: ['10.1.2.3'] });
    const ca = new X509Certificate(pki.caCertPEM);
    const serving = new X509Certificate(pki.servingCertPEM);
    assert.ok(serving.verify(ca.publicKey));
    for (const ip of ['127.0.0.1', '::1', '10.1.2.3']) assert.equal(serving.checkIP(ip), ip);
    for (const name of ['localhost', 'kubernetes.default.svc']) assert.equal(serving.checkHost(name, { subject: 'never' }), name);
    assert.ok(new X509Certificate(pki.adminCertPEM).verify(ca.publicKey));
    assert.ok(new X509Certificate(pki.frontProxyClientCertPEM).verify(new X509Certificate(pki.frontProxyCACertPEM).publicKey));
  });

  it('a second start reads every file as it is', async () => {
    const first = await ensurePKI(dir, { hosts: ['10.1.2.3'] });
    const second = await ensurePKI(dir, { hosts: ['10.1.2.3'] });
    assert.deepEqual(second, first);
  });

  it('a host the serving certificate does not name replaces it, signed by the same CA; the rest stays', async () => {
    const before = await ensurePKI(dir, { hosts: ['10.1.2.3'] });
    const after = await ensurePKI(dir, { hosts: ['10.9.9.9'] });
    assert.notEqual(after.servingCertPEM, before.servingCertPEM);
    assert.equal(new X509Certificate(after.servingCertPEM).checkIP('10.9.9.9'), '10.9.9.9');
    assert.ok(new X509Certificate(after.servingCertPEM).verify(new X509Certificate(before.caCertPEM).publicKey));
    assert.deepEqual({ ...after, servingCertPEM: '', servingKeyPEM: '' }, { ...before, servingCertPEM: '', servingKeyPEM: '' });
  });
});
