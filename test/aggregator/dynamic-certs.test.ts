// The standalone aggregated server follows its --tls-cert-file/--tls-private-key-file,
// --client-ca-file and --requestheader-client-ca-file while it runs, as the control plane does:
// new handshakes get a replaced pair, a broken one is refused, and client certificates verify
// against the CA file as it is now.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { wardleGroup } from '../../generated/registry/wardle.js';
import { startAggregatedServer, type AggregatedServer } from '../../runtime/aggregated/server.js';
import { ensureCA, ensureLeaf } from '../../runtime/controlplane/certs.js';
import { eventually, get, presentedSubject, replaceFile, certDirs, servingPairs } from '../server/dynamiccertificates/helpers.js';

describe('aggregated server: certificates reloaded from their files', () => {
  let dir: string;
  let server: AggregatedServer;
  let servingCA: string;
  const pem: Record<string, string> = {};
  const files = { cert: '', key: '', clientCA: '', requestHeaderCA: '' };
  let bob: Record<'a' | 'b', { certPEM: string; keyPEM: string }>;

  before(async () => {
    let made: string, flags: string;
    ({ dir, made, flags } = certDirs('kube-ts-aggregated-dyncerts-'));
    const serving = await servingPairs(made, 'wardle');
    servingCA = serving.ca;
    Object.assign(pem, serving.pem);
    const caA = await ensureCA(made, 'client-ca-a', 'client-ca-a');
    const caB = await ensureCA(made, 'client-ca-b', 'client-ca-b');
    const proxyCA = await ensureCA(made, 'front-proxy-ca', 'front-proxy-ca');
    pem['client-ca-a'] = caA.cert.toString('pem');
    pem['client-ca-b'] = caB.cert.toString('pem');
    bob = {
      a: await ensureLeaf(made, 'bob-a', caA, { subject: 'CN=bob', server: false, hosts: [] }),
      b: await ensureLeaf(made, 'bob-b', caB, { subject: 'CN=bob', server: false, hosts: [] }),
    };
    Object.assign(files, { cert: join(flags, 'tls.crt'), key: join(flags, 'tls.key'), clientCA: join(flags, 'client-ca.crt'), requestHeaderCA: join(flags, 'front-proxy-ca.crt') });
    replaceFile(files.cert, pem['cert-a']!);
    replaceFile(files.key, pem['key-a']!);
    replaceFile(files.clientCA, pem['client-ca-a']!);
    replaceFile(files.requestHeaderCA, proxyCA.cert.toString('pem'));
    server = await startAggregatedServer([wardleGroup], {
      dataDir: join(dir, 'data'),
      securePort: 0,
      bindAddress: '127.0.0.1',
      tlsCertFile: files.cert,
      tlsPrivateKeyFile: files.key,
      clientCAFile: files.clientCA,
      requestheaderClientCAFile: files.requestHeaderCA,
      anonymousAuth: false,
    });
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('new handshakes get a replaced pair; a key that is not the certificate’s is refused', async () => {
    assert.equal(await presentedSubject(server.port, servingCA), 'CN=wardle-a');
    replaceFile(files.cert, pem['cert-b']!);
    // Certificate b with key a: refused, a still served.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(await presentedSubject(server.port, servingCA), 'CN=wardle-a');
    replaceFile(files.key, pem['key-b']!);
    await eventually('the new pair served', async () => (await presentedSubject(server.port, servingCA)) === 'CN=wardle-b');
  });

  it('client certificates verify against the CA file as it is now', async () => {
    const path = '/apis/wardle.example.com/v1alpha1/namespaces/default/flunders';
    assert.equal((await get(server.port, servingCA, path, bob.a)).status, 200);
    assert.equal((await get(server.port, servingCA, path, bob.b)).status, 401);
    replaceFile(files.clientCA, pem['client-ca-b']!);
    await eventually('a certificate of the new CA accepted', async () => (await get(server.port, servingCA, path, bob.b)).status === 200);
    assert.equal((await get(server.port, servingCA, path, bob.a)).status, 401);
  });
});
