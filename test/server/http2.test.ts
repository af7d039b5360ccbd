// HTTP/2 on a generic server's TLS port: node hands every HTTP/2 stream its own view of the
// connection's socket, so per-connection state must be keyed by the connection (connectionOf):
// a client certificate is verified once per connection, not once per request, and every stream
// of the connection is still that certificate's user.
import assert from 'node:assert/strict';
import type { X509Certificate } from 'node:crypto';
import { connect } from 'node:http2';
import { describe, it } from 'node:test';
import { x509Authenticator } from '../../runtime/authentication/x509.js';
import { CABundle, ClientCertificateVerifier } from '../../runtime/authentication/clientcert.js';
import { startServer } from './harness.js';
import { newCA, newLeaf } from './pki.js';

/** Counts the chain verifications (signature checks) the verifier asks for. */
class CountingBundle extends CABundle {
  verifications = 0;

  override verify(certs: readonly X509Certificate[], now: number): X509Certificate[] {
    this.verifications++;
    return super.verify(certs, now);
  }
}

describe('HTTP/2 serving', () => {
  it('verifies a client certificate once per connection, and every stream is its user', async () => {
    const ca = await newCA('cluster-ca');
    const serving = await newLeaf(ca, { subject: 'CN=kube-apiserver', usage: 'server', ips: ['127.0.0.1'] });
    const jane = await newLeaf(ca, { subject: 'CN=jane, O=dev' });
    const bundle = new CountingBundle(ca.certPEM, 'ca.crt');
    const t = await startServer({
      config: { authenticator: x509Authenticator(new ClientCertificateVerifier(bundle)) },
      serving: { tls: { cert: serving.certPEM, key: serving.keyPEM, clientCA: ca.certPEM } },
      setup: (s) => s.mux.handle('/whoami', async (req, res) => res.writeJSON(200, { user: req.user?.name, protocol: req.raw.httpVersion })),
    });
    const session = connect(t.url, { ca: ca.certPEM, cert: jane.certPEM, key: jane.keyPEM });
    session.on('error', () => undefined);
    try {
      const ask = (): Promise<unknown> =>
        new Promise((resolve, reject) => {
          const stream = session.request({ ':path': '/whoami' });
          let body = '';
          stream.setEncoding('utf8');
          stream.on('data', (c: string) => (body += c));
          stream.on('end', () => resolve(JSON.parse(body)));
          stream.on('error', reject);
          stream.end();
        });
      const answers = await Promise.all(Array.from({ length: 20 }, ask));
      for (const a of answers) assert.deepEqual(a, { user: 'jane', protocol: '2.0' });
      assert.equal(bundle.verifications, 1);
    } finally {
      session.close();
      await t.close();
    }
  });
});
