// kube-apiserver's --tls-cert-file and --tls-private-key-file on the control plane: the server
// presents the given certificate (one naming a load balancer in front of replicas, say) instead of
// the one it signs in <data-dir>/pki, the pair is checked at start as kube's serving-content loader
// checks it (Go's tls.X509KeyPair), and the two flags come together.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { ensureCA, ensureLeaf } from '../../runtime/controlplane/certs.js';
import { startControlPlane, type ControlPlane } from '../../runtime/controlplane/controlplane.js';
import { completeOptions, OptionsError, parseServerRunOptions } from '../../runtime/controlplane/options.js';

const LB_NAME = 'apiserver-lb.kube-ts.test';

/** The certificate the server at `port` presents when asked for `servername`, verified against `ca`. */
function presented(port: number, servername: string, ca: string): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, servername, ca }, () => {
      const raw = socket.getPeerCertificate().raw;
      socket.end();
      resolve(new X509Certificate(raw));
    });
    socket.once('error', reject);
  });
}

describe('--tls-cert-file and --tls-private-key-file', () => {
  let dir: string;
  let ca: string;
  let pair: { certFile: string; keyFile: string };
  let otherKeyFile: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kube-ts-serving-cert-'));
    const certs = join(dir, 'certs');
    mkdirSync(certs);
    const issuer = await ensureCA(certs, 'lb-ca', 'load-balancer-ca');
    ca = issuer.cert.toString('pem');
    await ensureLeaf(certs, 'lb', issuer, { subject: `CN=${LB_NAME}`, server: true, hosts: [LB_NAME, '127.0.0.1'] });
    await ensureLeaf(certs, 'other', issuer, { subject: 'CN=other', server: true, hosts: ['127.0.0.1'] });
    pair = { certFile: join(certs, 'lb.crt'), keyFile: join(certs, 'lb.key') };
    otherKeyFile = join(certs, 'other.key');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  describe('a given pair', () => {
    let cp: ControlPlane;
    before(async () => {
      cp = await startControlPlane({ dataDir: join(dir, 'data'), securePort: 0, bindAddress: '127.0.0.1', tlsCertFile: pair.certFile, tlsPrivateKeyFile: pair.keyFile });
    });
    after(() => cp.stop());

    it('is the certificate the server presents, verified by its own CA for the name the load balancer has', async () => {
      const cert = await presented(cp.port, LB_NAME, ca);
      assert.equal(cert.subject, `CN=${LB_NAME}`);
      assert.equal(cert.checkHost(LB_NAME), LB_NAME);
    });

    it('does not change whom the server trusts: the admin kubeconfig still works', async () => {
      const version = await cp.loopback.request<{ major?: string }>({ method: 'GET', path: '/version' });
      assert.equal(version.major, '1');
    });
  });

  it('a certificate and a key that are not a pair fail the start with kube’s words', async () => {
    await assert.rejects(startControlPlane({ dataDir: join(dir, 'mismatch'), securePort: 0, bindAddress: '127.0.0.1', tlsCertFile: pair.certFile, tlsPrivateKeyFile: otherKeyFile }), (err: Error) => {
      assert.match(err.message, /^invalid serving cert keypair \(--tls-cert-file .*lb\.crt, --tls-private-key-file .*other\.key\): tls: private key does not match public key$/);
      return true;
    });
  });

  it('a missing file fails naming its flag', async () => {
    await assert.rejects(
      startControlPlane({ dataDir: join(dir, 'missing'), securePort: 0, bindAddress: '127.0.0.1', tlsCertFile: join(dir, 'absent.crt'), tlsPrivateKeyFile: pair.keyFile }),
      /^Error: --tls-cert-file: ENOENT/,
    );
  });

  it('one flag without the other is a usage error', () => {
    for (const argv of [
      ['--tls-cert-file', pair.certFile],
      ['--tls-private-key-file', pair.keyFile],
    ]) {
      assert.throws(
        () => completeOptions(parseServerRunOptions(argv)),
        (err: Error) => err instanceof OptionsError && err.message.includes('--tls-cert-file and --tls-private-key-file must be given together'),
      );
    }
  });
});

describe('--advertise-address', () => {
  const complete = (...argv: string[]): ReturnType<typeof completeOptions> => completeOptions(parseServerRunOptions(argv), () => {});
  it('takes an IP; the unspecified address means "not given", as kube reads it', () => {
    assert.equal(complete('--advertise-address', '10.1.2.3').advertiseAddress, '10.1.2.3');
    assert.equal(complete('--advertise-address=fd00::7').advertiseAddress, 'fd00::7');
    assert.equal(complete('--advertise-address', '0.0.0.0').advertiseAddress, undefined);
    assert.equal(complete('--advertise-address', '::').advertiseAddress, undefined);
    assert.equal(complete().advertiseAddress, undefined);
  });
  it('refuses what is not an IP', () => {
    assert.throws(
      () => complete('--advertise-address', 'apiserver.example'),
      (e: unknown) => e instanceof OptionsError && e.message === '--advertise-address: "apiserver.example" is not an IP address',
    );
  });
});
