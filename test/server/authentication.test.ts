// The built-in authenticators (client certificate, request header, static token, anonymous)
// behind a real HTTPS server, with certificates from throwaway CAs.
import assert from 'node:assert/strict';
import type { OutgoingHttpHeaders } from 'node:http';
import { X509Certificate } from 'node:crypto';
import { Agent, request as httpsRequest } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { newBuiltInAuthenticator, type BuiltInAuthenticationConfig } from '../../runtime/authentication/builtin.js';
import { parseTokenFile } from '../../runtime/authentication/tokenfile.js';
import { CABundle, ClientCertificateVerifier } from '../../runtime/authentication/clientcert.js';
import { startServer, type TestServer } from './harness.js';
import { newCA, newLeaf, type KeyPair, type TestCA } from './pki.js';

const DAY = 24 * 3_600_000;
const ANONYMOUS = { name: 'system:anonymous', groups: ['system:unauthenticated'] };

interface Seen {
  user: unknown;
  headers: Record<string, unknown>;
  distinct: string[];
  rawHeaders: string[];
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

function get(url: string, opts: { ca: string; client?: KeyPair; headers?: OutgoingHttpHeaders }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(`${url}/whoami`, { ca: opts.ca, cert: opts.client?.certPEM, key: opts.client?.keyPEM, headers: opts.headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
    });
    req.on('error', reject);
    req.end();
  });
}

function seen(a: Answer): Seen {
  assert.equal(a.status, 200, JSON.stringify(a.body));
  return a.body as unknown as Seen;
}

function assertUnauthorized(a: Answer): void {
  assert.equal(a.status, 401, JSON.stringify(a.body));
  assert.equal(a.body['kind'], 'Status');
  assert.equal(a.body['reason'], 'Unauthorized');
  assert.equal(a.body['message'], 'Unauthorized');
}

describe('built-in authentication', () => {
  let clusterCA: TestCA;
  let frontProxyCA: TestCA;
  let otherCA: TestCA;
  let serving: KeyPair;
  const clients: Record<string, KeyPair> = {};
  const servers: TestServer[] = [];

  /** A server whose /whoami answers the user and the headers the handler got. */
  async function serve(
    config: Omit<BuiltInAuthenticationConfig, 'clientCertificates' | 'requestHeader'> & { requestHeader?: Partial<NonNullable<BuiltInAuthenticationConfig['requestHeader']>> },
  ): Promise<string> {
    const t = await startServer({
      config: {
        authenticator: newBuiltInAuthenticator({
          ...config,
          clientCertificates: new ClientCertificateVerifier(new CABundle(clusterCA.certPEM, 'client CA')),
          requestHeader: {
            verifier: new ClientCertificateVerifier(new CABundle(frontProxyCA.certPEM, 'requestheader CA')),
            allowedNames: ['front-proxy-client'],
            usernameHeaders: ['X-Remote-User'],
            groupHeaders: ['X-Remote-Group'],
            extraHeaderPrefixes: ['X-Remote-Extra-'],
            ...config.requestHeader,
          },
        }),
      },
      serving: { tls: { cert: serving.certPEM, key: serving.keyPEM, clientCA: clusterCA.certPEM + frontProxyCA.certPEM } },
      setup: (s) =>
        s.mux.handle('/whoami', async (req, res) =>
          res.writeJSON(200, { user: req.user, headers: req.headers, distinct: Object.keys(req.raw.headersDistinct), rawHeaders: req.raw.rawHeaders } satisfies Seen),
        ),
    });
    servers.push(t);
    return t.url;
  }

  let open: string;
  let closed: string;
  let anyProxy: string;

  before(async () => {
    [clusterCA, frontProxyCA, otherCA] = await Promise.all([newCA('cluster-ca'), newCA('front-proxy-ca'), newCA('other-ca')]);
    serving = await newLeaf(clusterCA, { subject: 'CN=kube-apiserver', usage: 'server', ips: ['127.0.0.1'] });
    const intermediate = await newLeaf(clusterCA, { subject: 'CN=intermediate-ca', ca: true, usage: 'none' });
    const viaIntermediate = await newLeaf(intermediate.asIssuer, { subject: 'CN=carol, O=via-intermediate' });
    Object.assign(clients, {
      jane: await newLeaf(clusterCA, { subject: 'CN=jane, O=dev, O=ops' }),
      admin: await newLeaf(clusterCA, { subject: 'CN=system:admin, O=system:masters' }),
      noEKU: await newLeaf(clusterCA, { subject: 'CN=legacy', usage: 'none' }),
      noCN: await newLeaf(clusterCA, { subject: 'O=dev' }),
      serverOnly: await newLeaf(clusterCA, { subject: 'CN=jane', usage: 'server' }),
      expired: await newLeaf(clusterCA, { subject: 'CN=jane', notBefore: new Date(Date.now() - 2 * DAY), notAfter: new Date(Date.now() - DAY) }),
      notYetValid: await newLeaf(clusterCA, { subject: 'CN=jane', notBefore: new Date(Date.now() + DAY), notAfter: new Date(Date.now() + 2 * DAY) }),
      foreign: await newLeaf(otherCA, { subject: 'CN=jane, O=system:masters' }),
      carol: { certPEM: `${viaIntermediate.certPEM}\n${intermediate.certPEM}\n`, keyPEM: viaIntermediate.keyPEM },
      carolWithoutIntermediate: viaIntermediate,
      frontProxy: await newLeaf(frontProxyCA, { subject: 'CN=front-proxy-client' }),
      otherProxy: await newLeaf(frontProxyCA, { subject: 'CN=other-proxy' }),
      forgedProxy: await newLeaf(otherCA, { subject: 'CN=front-proxy-client' }),
    } satisfies Record<string, KeyPair>);
    const tokens = parseTokenFile('jane-token,jane,uid-1,"dev,ops"\nbob-token,bob,uid-2\n', 'tokens.csv');
    open = await serve({ anonymous: true, tokens });
    closed = await serve({ anonymous: false, tokens });
    anyProxy = await serve({
      anonymous: true,
      requestHeader: { allowedNames: [], usernameHeaders: ['X-Proxy-User', 'X-Remote-User'], groupHeaders: ['X-Proxy-Group'], extraHeaderPrefixes: ['X-Proxy-Extra-', 'X-Remote-Extra-'] },
    });
  });
  after(async () => {
    for (const t of servers) await t.close();
  });

  describe('client certificates (x509)', () => {
    it('a certificate the client CA signed names the user: CN, every O as a group, and system:authenticated', async () => {
      assert.deepEqual(seen(await get(open, { ca: clusterCA.certPEM, client: clients['jane'] })).user, { name: 'jane', groups: ['dev', 'ops', 'system:authenticated'] });
      assert.deepEqual(seen(await get(open, { ca: clusterCA.certPEM, client: clients['admin'] })).user, {
        name: 'system:admin',
        groups: ['system:masters', 'system:authenticated'],
      });
    });

    it('chains through an intermediate the client sends; without it the certificate is untrusted', async () => {
      assert.deepEqual(seen(await get(open, { ca: clusterCA.certPEM, client: clients['carol'] })).user, { name: 'carol', groups: ['via-intermediate', 'system:authenticated'] });
      assertUnauthorized(await get(open, { ca: clusterCA.certPEM, client: clients['carolWithoutIntermediate'] }));
    });

    it('a certificate without extended key usages is good for client auth, as in Go', async () => {
      assert.deepEqual(seen(await get(open, { ca: clusterCA.certPEM, client: clients['noEKU'] })).user, { name: 'legacy', groups: ['system:authenticated'] });
    });

    it('401, not anonymous, for a certificate from another CA, expired, not yet valid, or for servers only', async () => {
      for (const name of ['foreign', 'expired', 'notYetValid', 'serverOnly']) {
        assertUnauthorized(await get(open, { ca: clusterCA.certPEM, client: clients[name] }));
      }
    });

    it('a verified certificate without a CN names nobody: anonymous when nothing refused it', async () => {
      const t = await startServer({
        config: { authenticator: newBuiltInAuthenticator({ anonymous: true, clientCertificates: new ClientCertificateVerifier(new CABundle(clusterCA.certPEM, 'client CA')) }) },
        serving: { tls: { cert: serving.certPEM, key: serving.keyPEM, clientCA: clusterCA.certPEM } },
        setup: (s) => s.mux.handle('/whoami', async (req, res) => res.writeJSON(200, { user: req.user })),
      });
      try {
        assert.deepEqual(seen(await get(t.url, { ca: clusterCA.certPEM, client: clients['noCN'] })).user, ANONYMOUS);
      } finally {
        await t.close();
      }
      // As in kube, the request-header authenticator refuses any certificate its CA did not sign,
      // and with no other authenticator naming a user that refusal stands.
      assertUnauthorized(await get(open, { ca: clusterCA.certPEM, client: clients['noCN'] }));
    });
  });

  describe('certificate verification (CABundle, ClientCertificateVerifier)', () => {
    it('words failures as Go crypto/x509 does', () => {
      const bundle = new CABundle(clusterCA.certPEM, 'client CA');
      const cert = (k: KeyPair): X509Certificate[] =>
        k.certPEM
          .split(/(?<=-----END CERTIFICATE-----)\s*/)
          .filter((b) => b !== '')
          .map((b) => new X509Certificate(b));
      const now = Date.now();
      assert.equal(bundle.verify(cert(clients['carol']!), now).length, 3);
      assert.throws(() => bundle.verify(cert(clients['foreign']!), now), { name: 'CertificateVerificationError', message: 'x509: certificate signed by unknown authority' });
      assert.throws(() => bundle.verify(cert(clients['serverOnly']!), now), { message: 'x509: certificate specifies an incompatible key usage' });
      assert.throws(
        () => bundle.verify(cert(clients['jane']!), now + 2 * DAY),
        /^CertificateVerificationError: x509: certificate has expired or is not yet valid: current time \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ is after /,
      );
      assert.throws(() => bundle.verify(cert(clients['jane']!), now - 2 * DAY), /is before /);
      assert.throws(() => new CABundle('not a certificate', '/etc/ca.crt'), /\/etc\/ca.crt: no certificates found/);
    });

    it('a connection verified once is checked again when its certificate expires', async () => {
      let clock = Date.now();
      const t = await startServer({
        config: { authenticator: newBuiltInAuthenticator({ anonymous: true, clientCertificates: new ClientCertificateVerifier(new CABundle(clusterCA.certPEM, 'client CA'), { now: () => clock }) }) },
        serving: { tls: { cert: serving.certPEM, key: serving.keyPEM, clientCA: clusterCA.certPEM } },
        setup: (s) => s.mux.handle('/whoami', async (req, res) => res.writeJSON(200, { user: req.user })),
      });
      const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: clusterCA.certPEM, cert: clients['jane']!.certPEM, key: clients['jane']!.keyPEM });
      const ask = (): Promise<number> =>
        new Promise((resolve, reject) => {
          const req = httpsRequest(`${t.url}/whoami`, { agent }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          });
          req.on('error', reject);
          req.end();
        });
      try {
        assert.equal(await ask(), 200);
        assert.equal(await ask(), 200);
        clock += 2 * DAY;
        assert.equal(await ask(), 401);
      } finally {
        agent.destroy();
        await t.close();
      }
    });
  });

  describe('anonymous', () => {
    it('no credential: system:anonymous in system:unauthenticated', async () => {
      assert.deepEqual(seen(await get(open, { ca: clusterCA.certPEM })).user, ANONYMOUS);
    });

    it('with anonymous auth off, no credential is 401 and credentials still work', async () => {
      assertUnauthorized(await get(closed, { ca: clusterCA.certPEM }));
      assert.deepEqual(seen(await get(closed, { ca: clusterCA.certPEM, client: clients['jane'] })).user, { name: 'jane', groups: ['dev', 'ops', 'system:authenticated'] });
    });

    it('the default of a generic server is anonymous for everyone', async () => {
      const t = await startServer({ setup: (s) => s.mux.handle('/whoami', async (req, res) => res.writeJSON(200, { user: req.user })) });
      try {
        const r = await fetch(`${t.url}/whoami`, { headers: { authorization: 'Bearer anything', 'x-remote-user': 'mallory' } });
        assert.deepEqual(((await r.json()) as { user: unknown }).user, ANONYMOUS);
      } finally {
        await t.close();
      }
    });
  });

  describe('request header (front proxy)', () => {
    const proxied: OutgoingHttpHeaders = {
      'X-Remote-User': 'alice',
      'X-Remote-Group': ['team-a', 'team-b'],
      'X-Remote-Extra-Acme.com%2Fproject': ['p1', 'p2'],
      'X-Remote-Extra-Scopes': 'view',
      'X-Remote-Extra-%zz': 'kept',
      'X-Other': 'kept',
    };

    it('a trusted proxy names the user, groups (repeated headers), and extra (lower-cased, percent-decoded keys)', async () => {
      const s = seen(await get(open, { ca: clusterCA.certPEM, client: clients['frontProxy'], headers: proxied }));
      assert.deepEqual(s.user, {
        name: 'alice',
        groups: ['team-a', 'team-b', 'system:authenticated'],
        extra: { 'acme.com/project': ['p1', 'p2'], scopes: ['view'], '%zz': ['kept'] },
      });
    });

    it('the headers it used are gone from the request the handler sees', async () => {
      const s = seen(await get(open, { ca: clusterCA.certPEM, client: clients['frontProxy'], headers: proxied }));
      const remote = (names: readonly string[]): string[] => names.filter((h) => /^x-remote-/i.test(h));
      assert.deepEqual(remote(Object.keys(s.headers)), []);
      assert.deepEqual(remote(s.distinct), []);
      assert.deepEqual(remote(s.rawHeaders.filter((_, i) => i % 2 === 0)), []);
      assert.equal(s.headers['x-other'], 'kept');
    });

    it('without a front-proxy certificate the headers are not believed (and not passed on)', async () => {
      const none = seen(await get(open, { ca: clusterCA.certPEM, headers: proxied }));
      assert.deepEqual(none.user, ANONYMOUS);
      assert.equal(none.headers['x-remote-user'], undefined);
      const jane = seen(await get(open, { ca: clusterCA.certPEM, client: clients['jane'], headers: proxied }));
      assert.deepEqual(jane.user, { name: 'jane', groups: ['dev', 'ops', 'system:authenticated'] });
      assert.equal(jane.headers['x-remote-user'], undefined);
    });

    it('401 for a proxy certificate whose CN is not allowed, or that another CA signed', async () => {
      assertUnauthorized(await get(open, { ca: clusterCA.certPEM, client: clients['otherProxy'], headers: proxied }));
      assertUnauthorized(await get(open, { ca: clusterCA.certPEM, client: clients['forgedProxy'], headers: proxied }));
    });

    it('a trusted proxy that names no user is not a user itself: its certificate is not a client certificate', async () => {
      assertUnauthorized(await get(open, { ca: clusterCA.certPEM, client: clients['frontProxy'] }));
    });

    it('with no allowed names any CN the request-header CA signed is trusted; header names are configurable', async () => {
      const s = seen(
        await get(anyProxy, {
          ca: clusterCA.certPEM,
          client: clients['otherProxy'],
          headers: { 'X-Proxy-User': 'dave', 'X-Remote-User': 'ignored', 'X-Proxy-Group': ['g1', ''], 'X-Remote-Extra-A': '1', 'X-Proxy-Extra-A': '0' },
        }),
      );
      assert.deepEqual(s.user, { name: 'dave', groups: ['g1', 'system:authenticated'], extra: { a: ['0', '1'] } });
      assert.deepEqual(
        Object.keys(s.headers).filter((h) => h.startsWith('x-proxy-') || h.startsWith('x-remote-')),
        [],
      );
      // the second username header is used when the first is absent
      assert.equal((seen(await get(anyProxy, { ca: clusterCA.certPEM, client: clients['frontProxy'], headers: { 'X-Remote-User': 'erin' } })).user as { name: string }).name, 'erin');
    });
  });

  describe('static tokens (--token-auth-file)', () => {
    it('a known bearer token names its user, uid and groups', async () => {
      assert.deepEqual(seen(await get(open, { ca: clusterCA.certPEM, headers: { Authorization: 'Bearer jane-token' } })).user, {
        name: 'jane',
        uid: 'uid-1',
        groups: ['dev', 'ops', 'system:authenticated'],
      });
      const bob = seen(await get(closed, { ca: clusterCA.certPEM, headers: { Authorization: 'bearer bob-token' } }));
      assert.deepEqual(bob.user, { name: 'bob', uid: 'uid-2', groups: ['system:authenticated'] });
      assert.equal(bob.headers['authorization'], undefined);
    });

    it('without a token file a bearer token is still a credential: 401, not anonymous (kube always has a token authenticator)', async () => {
      const noTokens = await serve({ anonymous: true });
      assertUnauthorized(await get(noTokens, { ca: clusterCA.certPEM, headers: { Authorization: 'Bearer anything' } }));
      assert.deepEqual(seen(await get(noTokens, { ca: clusterCA.certPEM, headers: { Authorization: 'Basic YTpi' } })).user, ANONYMOUS);
      assert.deepEqual(seen(await get(noTokens, { ca: clusterCA.certPEM })).user, ANONYMOUS);
    });

    it('an unknown token is 401 even with anonymous auth; a non-bearer Authorization is no credential', async () => {
      assertUnauthorized(await get(open, { ca: clusterCA.certPEM, headers: { Authorization: 'Bearer nope' } }));
      assert.deepEqual(seen(await get(open, { ca: clusterCA.certPEM, headers: { Authorization: 'Basic YTpi' } })).user, ANONYMOUS);
      assertUnauthorized(await get(closed, { ca: clusterCA.certPEM, headers: { Authorization: 'Basic YTpi' } }));
    });

    it('parses the CSV as kube: quoted group lists, empty tokens skipped, at least three columns', () => {
      const tokens = parseTokenFile('t1,u1,id1\n\n,skipped,x\n"t,2",u2,id2,"a,b",ignored\nt1,u3,id3,\n', 'f.csv');
      assert.deepEqual(
        [...tokens],
        [
          ['t1', { name: 'u3', uid: 'id3', groups: [''] }],
          ['t,2', { name: 'u2', uid: 'id2', groups: ['a', 'b'] }],
        ],
      );
      assert.throws(() => parseTokenFile('t1,u1\n', 'f.csv'), /token file 'f.csv' must have at least 3 columns \(token, user name, user uid\), found 2/);
      assert.throws(() => parseTokenFile('"t1,u1,id\n', 'f.csv'), /token file 'f.csv'/);
    });
  });
});
