// Service-account issuer discovery (kube's openidmetadata.go and routes/openidmetadata.go): the
// documents as kube renders and serves them, and an external verifier's view: jose fetching the
// configuration and the key set over HTTPS from a local server and verifying a token with them.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { get as httpsGet, createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createRemoteJWKSet, customFetch, jwtVerify, type FetchImplementation } from 'jose';
import { adaptRequest } from '../../runtime/apimachinery/request/http.js';
import { JWKS_PATH, newOpenIDMetadata, newServiceAccountTokenIssuer, OPENID_CONFIG_PATH, openIDMetadataRoutes, PublicKeySet } from '../../runtime/authentication/serviceaccount/index.js';
import { newCA, newLeaf } from '../server/pki.js';

const ISS = 'https://kubernetes.default.svc.cluster.local';
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });

describe('the discovery documents', () => {
  it('configuration and key set as kube renders them', async () => {
    const keys = await PublicKeySet.create([rsa.publicKey, ec.privateKey, rsa.publicKey]);
    const md = newOpenIDMetadata({ issuer: ISS, externalAddress: () => '10.0.0.1:6443', keys });
    assert.equal(
      md.configJSON(),
      `{"issuer":"${ISS}","jwks_uri":"https://10.0.0.1:6443/openid/v1/jwks","response_types_supported":["id_token"],"subject_types_supported":["public"],"id_token_signing_alg_values_supported":["ES256","RS256"]}`,
    );
    const set = JSON.parse(md.keysetJSON) as { keys: Record<string, string>[] };
    assert.equal(set.keys.length, 2, 'a key listed twice is served once');
    assert.deepEqual(Object.keys(set.keys[0]!), ['use', 'kty', 'kid', 'alg', 'n', 'e'], "go-jose's field order");
    assert.deepEqual(Object.keys(set.keys[1]!), ['use', 'kty', 'kid', 'crv', 'alg', 'x', 'y']);
    assert.equal(set.keys[0]!.kid, keys.all[0]!.keyID);
    assert.ok(!('d' in set.keys[1]!), 'never the private part');
    const custom = newOpenIDMetadata({ issuer: ISS, jwksURI: 'https://keys.example/jwks', externalAddress: () => assert.fail('not read'), keys });
    assert.match(custom.configJSON(), /"jwks_uri":"https:\/\/keys.example\/jwks"/);
  });

  it("kube's refusals: the issuer must be an https URL without query or fragment, the JWKS URI https", async () => {
    const keys = await PublicKeySet.create([rsa.publicKey]);
    const make = (issuer: string, jwksURI?: string) => () => newOpenIDMetadata({ issuer, jwksURI, externalAddress: () => 'h:1', keys });
    assert.throws(make(''), /^Error: empty issuer URL$/);
    assert.throws(make('kubernetes'), /^Error: issuer URL must use https scheme, got: kubernetes$/);
    assert.throws(make('http://a'), /issuer URL must use https scheme, got: http:\/\/a/);
    assert.throws(make('https://a?x=1'), /issuer URL may not include a query, got: https:\/\/a\?x=1/);
    assert.throws(make('https://a#f'), /issuer URL may not include a fragment/);
    assert.throws(make(ISS, 'http://keys'), /jwksURI requires https scheme, parsed as: http:\/\/keys/);
    assert.throws(() => newOpenIDMetadata({ issuer: ISS, externalAddress: () => 'h:1', keys: { all: [] } as unknown as PublicKeySet }), /no keys provided for validating keyset/);
  });
});

describe("an external verifier's view", () => {
  let server: Server;
  let address: string;
  let caPEM: string;

  before(async () => {
    const ca = await newCA('discovery-ca');
    caPEM = ca.certPEM;
    const leaf = await newLeaf(ca, { subject: 'CN=localhost', usage: 'server', ips: ['127.0.0.1'] });
    const keys = await PublicKeySet.create([rsa.publicKey, ec.publicKey]);
    const routes = openIDMetadataRoutes(newOpenIDMetadata({ issuer: ISS, externalAddress: () => address, keys }));
    server = createServer({ cert: leaf.certPEM, key: leaf.keyPEM }, (raw, response) => {
      const { req, res } = adaptRequest(raw, response);
      const route = routes.find((r) => r.path === req.path);
      if (route === undefined) return void response.writeHead(404).end();
      void route.handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function fetchTLS(url: string, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
    return new Promise((resolve, reject) => {
      const req = httpsGet(url, { ca: caPEM, method }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
    });
  }

  /** What a relying party runs: fetch over TLS trusting the server's CA. */
  const tlsFetch: FetchImplementation = async (url) => {
    const r = await fetchTLS(url);
    return new Response(r.body, { status: r.status, headers: { 'content-type': String(r.headers['content-type']) } });
  };

  it('serves both documents with kube content types and cache headers', async () => {
    const cfg = await fetchTLS(`https://${address}${OPENID_CONFIG_PATH}`);
    assert.equal(cfg.status, 200);
    assert.equal(cfg.headers['content-type'], 'application/json');
    assert.equal(cfg.headers['cache-control'], 'public, max-age=3600');
    const jwks = await fetchTLS(`https://${address}${JWKS_PATH}`);
    assert.equal(jwks.headers['content-type'], 'application/jwk-set+json');
    assert.equal(jwks.headers['cache-control'], 'public, max-age=3600');
    const post = await fetchTLS(`https://${address}${JWKS_PATH}`, 'POST');
    assert.equal(post.status, 405);
    assert.equal((JSON.parse(post.body) as { reason: string }).reason, 'MethodNotAllowed');
  });

  it('a token verifies with the published configuration and keys (RSA and EC)', async () => {
    const cfg = JSON.parse((await fetchTLS(`https://${address}${OPENID_CONFIG_PATH}`)).body) as { issuer: string; jwks_uri: string };
    assert.equal(cfg.jwks_uri, `https://${address}/openid/v1/jwks`);
    const jwks = createRemoteJWKSet(new URL(cfg.jwks_uri), { [customFetch]: tlsFetch });
    for (const signingKey of [rsa.privateKey, ec.privateKey]) {
      const issuer = await newServiceAccountTokenIssuer({ issuer: ISS, signingKey, apiAudiences: [ISS], maxExpirationSeconds: 0, extendExpiration: true });
      const { token } = await issuer.issue({ namespace: 'ns', serviceAccountName: 'robot', serviceAccountUID: 'u', audiences: ['vault'], expirationSeconds: 600 });
      const { payload } = await jwtVerify(token, jwks, { issuer: cfg.issuer, audience: 'vault' });
      assert.equal(payload.sub, 'system:serviceaccount:ns:robot');
    }
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const foreign = await newServiceAccountTokenIssuer({ issuer: ISS, signingKey: stranger.privateKey, apiAudiences: [ISS], maxExpirationSeconds: 0, extendExpiration: true });
    const { token } = await foreign.issue({ namespace: 'ns', serviceAccountName: 'robot', serviceAccountUID: 'u', audiences: ['vault'], expirationSeconds: 600 });
    await assert.rejects(jwtVerify(token, jwks, { issuer: ISS, audience: 'vault' }), /no applicable key found in the JSON Web Key Set/);
  });
});
