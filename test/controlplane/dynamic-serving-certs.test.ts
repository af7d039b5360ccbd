// kube-apiserver follows the files of --tls-cert-file/--tls-private-key-file and --client-ca-file
// while it runs (dynamiccertificates): a replaced pair is what new TLS handshakes get, while open
// connections keep theirs; a broken replacement (not a certificate, a key of another) leaves the
// last good pair served; a replaced client CA decides which client certificates authenticate and
// is published in kube-system/extension-apiserver-authentication, and so is a replaced front-proxy CA.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { Agent } from 'node:https';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureCA, ensureLeaf } from '../../runtime/controlplane/certs.js';
import { startControlPlane, type ControlPlane } from '../../runtime/controlplane/controlplane.js';
import { eventually, fingerprints, get, presentedSubject, replaceFile, certDirs, servingPairs } from '../server/dynamiccertificates/helpers.js';

describe('serving certificate and client CA reloaded from their files', () => {
  let dir: string;
  let cp: ControlPlane;
  let servingCA: string;
  const src: Record<string, string> = {};
  const served = { cert: '', key: '', clientCA: '', requestHeaderCA: '' };
  let alice: Record<'a' | 'b', { certPEM: string; keyPEM: string }>;
  let proxy: Record<'a' | 'b', { certPEM: string; keyPEM: string }>;
  let clientCAs: Record<'a' | 'b', string>;
  let proxyCAs: Record<'a' | 'b', string>;

  before(async () => {
    let made: string, flags: string;
    ({ dir, made, flags } = certDirs('kube-ts-dynamic-certs-'));
    const serving = await servingPairs(made, 'serving');
    servingCA = serving.ca;
    Object.assign(src, serving.pem);
    const caA = await ensureCA(made, 'client-ca-a', 'client-ca-a');
    const caB = await ensureCA(made, 'client-ca-b', 'client-ca-b');
    clientCAs = { a: caA.cert.toString('pem'), b: caB.cert.toString('pem') };
    alice = {
      a: await ensureLeaf(made, 'alice-a', caA, { subject: 'CN=alice, O=system:masters', server: false, hosts: [] }),
      b: await ensureLeaf(made, 'alice-b', caB, { subject: 'CN=alice, O=system:masters', server: false, hosts: [] }),
    };
    const proxyCAA = await ensureCA(made, 'proxy-ca-a', 'proxy-ca-a');
    const proxyCAB = await ensureCA(made, 'proxy-ca-b', 'proxy-ca-b');
    proxyCAs = { a: proxyCAA.cert.toString('pem'), b: proxyCAB.cert.toString('pem') };
    proxy = {
      a: await ensureLeaf(made, 'proxy-a', proxyCAA, { subject: 'CN=front-proxy', server: false, hosts: [] }),
      b: await ensureLeaf(made, 'proxy-b', proxyCAB, { subject: 'CN=front-proxy', server: false, hosts: [] }),
    };
    served.requestHeaderCA = join(flags, 'front-proxy-ca.crt');
    replaceFile(served.requestHeaderCA, proxyCAs.a);
    served.cert = join(flags, 'tls.crt');
    served.key = join(flags, 'tls.key');
    served.clientCA = join(flags, 'client-ca.crt');
    replaceFile(served.cert, src['cert-a']!);
    replaceFile(served.key, src['key-a']!);
    replaceFile(served.clientCA, clientCAs.a);
    cp = await startControlPlane({
      dataDir: join(dir, 'data'),
      securePort: 0,
      bindAddress: '127.0.0.1',
      tlsCertFile: served.cert,
      tlsPrivateKeyFile: served.key,
      clientCAFile: served.clientCA,
      requestheaderClientCAFile: served.requestHeaderCA,
    });
  });
  after(async () => {
    await cp?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('new handshakes get a replaced pair; an open connection keeps the certificate it was given', async () => {
    assert.equal(await presentedSubject(cp.port, servingCA), 'CN=serving-a');
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await get(cp.port, servingCA, '/livez', undefined, agent);
      assert.equal(first.status, 200);
      // The key first, then the certificate, each renamed into place: the first load in between is refused as a mismatch.
      replaceFile(served.key, src['key-b']!);
      replaceFile(served.cert, src['cert-b']!);
      await eventually('the new certificate served', async () => (await presentedSubject(cp.port, servingCA)) === 'CN=serving-b');
      const again = await get(cp.port, servingCA, '/livez', undefined, agent);
      assert.equal(again.status, 200);
      assert.equal(again.socket, first.socket, 'the kept-alive connection was reused');
      assert.equal(again.peer, 'CN=serving-a');
    } finally {
      agent.destroy();
    }
  });

  it('a broken replacement leaves the last good pair served', async () => {
    replaceFile(served.cert, 'not a certificate\n');
    // Nothing to wait for but time: the refusal is only a log line. The server must still answer with the old pair.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(await presentedSubject(cp.port, servingCA), 'CN=serving-b');
    replaceFile(served.cert, src['cert-a']!);
    // Certificate a with key b: not a pair, refused.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.equal(await presentedSubject(cp.port, servingCA), 'CN=serving-b');
    assert.equal((await get(cp.port, servingCA, '/livez')).status, 200);
    // The matching key makes it whole again.
    replaceFile(served.key, src['key-a']!);
    await eventually('the repaired pair served', async () => (await presentedSubject(cp.port, servingCA)) === 'CN=serving-a');
  });

  it('a replaced client CA decides which client certificates authenticate, and is published in the ConfigMap', async () => {
    assert.equal((await get(cp.port, servingCA, '/api/v1/namespaces', alice.a)).status, 200);
    assert.equal((await get(cp.port, servingCA, '/api/v1/namespaces', alice.b)).status, 401);

    replaceFile(served.clientCA, clientCAs.b);
    await eventually('a certificate of the new CA accepted', async () => (await get(cp.port, servingCA, '/api/v1/namespaces', alice.b)).status === 200);
    assert.equal((await get(cp.port, servingCA, '/api/v1/namespaces', alice.a)).status, 401, 'the removed CA is no longer trusted');

    const [caB] = fingerprints(clientCAs.b);
    await eventually('the ConfigMap publishing the new CA', async () => {
      const cm = await cp.loopback.request<{ data?: Record<string, string> }>({ method: 'GET', path: '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication' });
      return fingerprints(cm.data?.['client-ca-file'] ?? '').includes(caB!);
    });
    // The file itself was not touched by the server.
    assert.equal(readFileSync(served.clientCA, 'utf8'), clientCAs.b);
  });

  it('a replaced front-proxy CA decides which front proxy is believed, and is published in the ConfigMap', async () => {
    const asCarol = { 'X-Remote-User': 'carol', 'X-Remote-Group': 'system:masters' };
    const namespaces = (via: { certPEM: string; keyPEM: string }) => get(cp.port, servingCA, '/api/v1/namespaces', via, undefined, asCarol);
    assert.equal((await namespaces(proxy.a)).status, 200);
    assert.equal((await namespaces(proxy.b)).status, 401);

    replaceFile(served.requestHeaderCA, proxyCAs.b);
    await eventually('the new front proxy believed', async () => (await namespaces(proxy.b)).status === 200);
    assert.equal((await namespaces(proxy.a)).status, 401, 'the removed CA is no longer trusted');

    const [caB] = fingerprints(proxyCAs.b);
    await eventually('the ConfigMap publishing the new front-proxy CA', async () => {
      const cm = await cp.loopback.request<{ data?: Record<string, string> }>({ method: 'GET', path: '/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication' });
      return fingerprints(cm.data?.['requestheader-client-ca-file'] ?? '').includes(caB!);
    });
  });
});
