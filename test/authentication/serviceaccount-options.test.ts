// The service-account token flags (server/options/serviceaccount.ts, kube's
// ServiceAccountAuthenticationOptions and the signing key): parsing, kube's validation messages,
// kubeadm's defaults over the data dir's PKI (ensureServiceAccountKeyPair), and the key files.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ensureServiceAccountKeyPair } from '../../runtime/controlplane/certs.js';
import { OptionsError, parseFlags } from '../../runtime/server/options/flags.js';
import {
  completeServiceAccountOptions,
  DEFAULT_SERVICE_ACCOUNT_ISSUER,
  loadServiceAccountKeys,
  newServiceAccountTokens,
  SERVICE_ACCOUNT_FLAGS,
  SERVICE_ACCOUNT_USAGE,
  serviceAccountOptionsFromFlags,
  type ServiceAccountOptions,
} from '../../runtime/server/options/serviceaccount.js';
import { given } from '../../runtime/server/options/flags.js';
import { newCA, newLeaf } from '../server/pki.js';

const dir = mkdtempSync(join(tmpdir(), 'sa-options-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const PKI = join(dir, 'pki');

function options(argv: string[]): ServiceAccountOptions {
  return given<ServiceAccountOptions>(serviceAccountOptionsFromFlags(parseFlags(argv, SERVICE_ACCOUNT_FLAGS, SERVICE_ACCOUNT_USAGE)));
}

function complete(argv: string[]) {
  return completeServiceAccountOptions(options(argv), { pkiDir: PKI });
}

function refused(argv: string[], message: string): void {
  assert.throws(
    () => complete(argv),
    (e: Error) => e instanceof OptionsError && e.message === message,
    message,
  );
}

describe('flags', () => {
  it("defaults: kubeadm's issuer, sa.key/sa.pub of the PKI, the issuers as audiences, no maximum, extension on", () => {
    assert.deepEqual(complete([]), {
      issuers: [DEFAULT_SERVICE_ACCOUNT_ISSUER],
      keyFiles: [join(PKI, 'sa.pub')],
      signingKeyFile: join(PKI, 'sa.key'),
      apiAudiences: [DEFAULT_SERVICE_ACCOUNT_ISSUER],
      maxTokenExpirationSeconds: 0,
      extendTokenExpiration: true,
      jwksURI: undefined,
    });
  });

  it('issuers and key files repeat and never split at commas; audiences are a string slice', () => {
    const o = complete([
      '--service-account-issuer=https://a.example/x,y',
      '--service-account-issuer',
      'https://b.example',
      '--service-account-key-file=k1.pub',
      '--service-account-key-file=k2,pub',
      '--service-account-signing-key-file=s.key',
      '--api-audiences=one,two',
      '--api-audiences',
      'three',
      '--service-account-max-token-expiration=24h',
      '--service-account-extend-token-expiration=false',
      '--service-account-jwks-uri=https://keys.example/jwks',
    ]);
    assert.deepEqual(o.issuers, ['https://a.example/x,y', 'https://b.example']);
    assert.deepEqual(o.keyFiles, [join(process.cwd(), 'k1.pub'), join(process.cwd(), 'k2,pub')]);
    assert.equal(o.signingKeyFile, join(process.cwd(), 's.key'));
    assert.deepEqual(o.apiAudiences, ['one', 'two', 'three']);
    assert.equal(o.maxTokenExpirationSeconds, 86400);
    assert.equal(o.extendTokenExpiration, false);
    assert.equal(o.jwksURI, 'https://keys.example/jwks');
    assert.deepEqual(complete(['--service-account-issuer=https://a', '--service-account-issuer=b']).apiAudiences, ['https://a', 'b'], 'audiences default to every issuer');
  });

  it("kube's validation messages", () => {
    refused(['--service-account-issuer=ht tp://x'], `service-account-issuer "ht tp://x" contained a ':' but was not a valid URL: parse "ht tp://x": first path segment in URL cannot contain colon`);
    refused(['--service-account-issuer='], 'service-account-issuer should not be an empty string');
    refused(['--service-account-issuer=https://a', '--service-account-issuer=https://a'], 'service-account-issuer "https://a" is already specified');
    refused(['--service-account-jwks-uri=http://keys'], 'service-account-jwks-uri requires https scheme, parsed as: http://keys');
    refused(['--service-account-jwks-uri=https://a b'], 'service-account-jwks-uri must be a valid URL: parse "https://a b": invalid character " " in host name');
    refused(['--service-account-max-token-expiration=59m'], 'the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
    refused([`--service-account-max-token-expiration=${2 ** 32 + 1}s`], 'the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
    refused(['--service-account-signing-key-file=s.key'], 'service-account-key-file is a required flag');
    refused(['--service-account-issuer=', '--service-account-signing-key-file=s.key'], '[service-account-issuer should not be an empty string, service-account-key-file is a required flag]');
    assert.equal(complete(['--service-account-max-token-expiration=1h']).maxTokenExpirationSeconds, 3600);
    assert.equal(complete(['--service-account-issuer=kubernetes/serviceaccount']).issuers[0], 'kubernetes/serviceaccount', 'a plain string is an issuer too');
    assert.throws(() => options(['--service-account-extend-token-expiration=yes']), /--service-account-extend-token-expiration must be true or false/);
    assert.throws(() => options(['--service-account-max-token-expiration=1x']), /--service-account-max-token-expiration: /);
  });

  it('the usage names every flag', () => {
    for (const flag of Object.keys(SERVICE_ACCOUNT_FLAGS)) assert.ok(SERVICE_ACCOUNT_USAGE.includes(`--${flag}`), flag);
  });
});

describe('key files (keyutil.ParsePublicKeysPEM / ParsePrivateKeyPEM)', () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const file = (name: string, content: string) => {
    const p = join(dir, name);
    writeFileSync(p, content);
    return p;
  };
  const load = (signing: string, keyFiles: string[]) => loadServiceAccountKeys({ ...complete([]), signingKeyFile: signing, keyFiles });
  const ecParams = '-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n';

  it('public and private keys, PKCS#1, SEC1 (with parameters), PKCS#8 and certificates; the signing key is a verification key too', async () => {
    const ca = await newCA('sa-ca');
    const leaf = await newLeaf(ca, { subject: 'CN=signer', usage: 'client' });
    const rsaKey = file('rsa.key', rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
    const ecKey = file('ec.key', ecParams + ec.privateKey.export({ type: 'sec1', format: 'pem' }).toString());
    const pkcs8 = file('pkcs8.key', ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    const combined = file('both.pub', `${rsa.publicKey.export({ type: 'pkcs1', format: 'pem' }).toString()}\n${ec.publicKey.export({ type: 'spki', format: 'pem' }).toString()}`);
    const cert = file('leaf.crt', leaf.certPEM);
    assert.equal((await load(rsaKey, [combined])).publicKeys.all.length, 2, 'the signing key is one of the two');
    assert.equal((await load(ecKey, [rsaKey])).publicKeys.all.length, 2, 'a private key file verifies with its public half');
    assert.equal((await load(pkcs8, [cert])).publicKeys.all.length, 2, "a certificate's key");
    const { signingKey } = await load(ecKey, [combined]);
    assert.equal(signingKey.asymmetricKeyType, 'ec');
  });

  it('unusable files name the flag and the file', async () => {
    const empty = file('empty.pem', '');
    const pub = file('only.pub', rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString());
    const ok = file('ok.key', rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    await assert.rejects(
      load(ok, [empty]),
      (e: Error) => e instanceof OptionsError && e.message === `--service-account-key-file: error reading public key file ${empty}: data does not contain any valid RSA or ECDSA public keys`,
    );
    await assert.rejects(
      load(pub, [pub]),
      (e: Error) =>
        e.message ===
        `--service-account-signing-key-file: failed to parse service-account-issuer-key-file: error reading private key file ${pub}: data does not contain a valid RSA or ECDSA private key`,
    );
    await assert.rejects(load(join(dir, 'missing.key'), [pub]), /^OptionsError: --service-account-signing-key-file: ENOENT: no such file or directory/);
    await assert.rejects(load(ok, [join(dir, 'missing.pub')]), /^OptionsError: --service-account-key-file: ENOENT/);
    const k1 = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
    const odd = file('k1.key', k1.privateKey.export({ type: 'sec1', format: 'pem' }).toString());
    await assert.rejects(load(odd, [pub]), /failed to build token generator: unknown private key curve, must be 256, 384, or 521/);
  });
});

describe("the data dir's key pair (ensurePKI)", () => {
  it('is made once (ECDSA P-256, SEC1 and PKIX, the key private), kept across restarts, and its public half rewritten when lost', () => {
    ensureServiceAccountKeyPair(dir);
    const key = readFileSync(join(dir, 'sa.key'), 'utf8');
    const pub = readFileSync(join(dir, 'sa.pub'), 'utf8');
    assert.match(key, /^-----BEGIN EC PRIVATE KEY-----/);
    assert.match(pub, /^-----BEGIN PUBLIC KEY-----/);
    assert.equal(statSync(join(dir, 'sa.key')).mode & 0o777, 0o600);
    ensureServiceAccountKeyPair(dir);
    assert.equal(readFileSync(join(dir, 'sa.key'), 'utf8'), key);
    unlinkSync(join(dir, 'sa.pub'));
    ensureServiceAccountKeyPair(dir);
    assert.equal(readFileSync(join(dir, 'sa.pub'), 'utf8'), pub);
  });

  it('the defaults sign and verify end to end (newServiceAccountTokens)', async () => {
    const getter = { getServiceAccount: async () => ({ uid: 'u1' }), getBoundObject: async () => undefined };
    const o = completeServiceAccountOptions({}, { pkiDir: dir });
    const sa = await newServiceAccountTokens(o, { getter, externalAddress: () => '127.0.0.1:6443' });
    const { token } = await sa.issuer.issue({ namespace: 'default', serviceAccountName: 'default', serviceAccountUID: 'u1', audiences: sa.issuer.defaultAudiences, expirationSeconds: 3600 });
    assert.equal((await sa.authenticator.authenticateToken(token, []))?.user.name, 'system:serviceaccount:default:default');
    assert.deepEqual(
      sa.discoveryRoutes.map((r) => r.path),
      ['/.well-known/openid-configuration', '/openid/v1/jwks'],
    );
    assert.equal(sa.discoveryError, undefined);
    // An issuer that is no https URL still signs and verifies; kube only leaves discovery out, and says why.
    const plain = await newServiceAccountTokens(completeServiceAccountOptions({ issuers: ['kubernetes/serviceaccount'] }, { pkiDir: dir }), { getter, externalAddress: () => 'h:1' });
    assert.deepEqual(plain.discoveryRoutes, []);
    assert.equal(
      plain.discoveryError,
      'Could not construct pre-rendered responses for ServiceAccountIssuerDiscovery endpoints. Endpoints will not be enabled. Error: issuer URL must use https scheme, got: kubernetes/serviceaccount',
    );
  });
});
