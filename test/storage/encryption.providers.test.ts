// Encryption at rest, the providers (k8s.io/apiserver/pkg/storage/value/encrypt/{aes,secretbox,
// identity} and value.PrefixTransformers): round trips, kube's byte layout, wrong keys, tampering,
// the storage key as authenticated data (aesgcm), staleness by order (rotation), kube's errors.
import assert from 'node:assert/strict';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import nacl from 'tweetnacl';
import { newCBCTransformer, newGCMTransformer } from '../../runtime/storage/value/aes.js';
import { encryptCheckTransformer } from '../../runtime/storage/value/identity.js';
import { groupResourceOfPrefix, newResourceTransformers, type ProviderConfig } from '../../runtime/storage/value/resources.js';
import { newSecretboxTransformer } from '../../runtime/storage/value/secretbox.js';
import type { ValueTransformer } from '../../runtime/storage/transformer.js';

const KEY = '/registry/services/default/web';
const ctx = { key: KEY };
const plain = Buffer.from('{"kind":"Service","apiVersion":"v1","metadata":{"name":"web"}}');

function flip(data: Buffer, at: number): Buffer {
  const out = Buffer.from(data);
  out[at] = (out[at] as number) ^ 0x01;
  return out;
}

const providers: Array<{ name: string; make: (key: Buffer) => ValueTransformer; keySizes: number[]; authenticatesKey: boolean }> = [
  { name: 'aesgcm', make: newGCMTransformer, keySizes: [16, 24, 32], authenticatesKey: true },
  { name: 'aescbc', make: newCBCTransformer, keySizes: [16, 24, 32], authenticatesKey: false },
  { name: 'secretbox', make: newSecretboxTransformer, keySizes: [32], authenticatesKey: false },
];

for (const p of providers) {
  describe(`${p.name} provider`, () => {
    test('round trip with every key size; the ciphertext differs each time and never holds the plain text', () => {
      for (const size of p.keySizes) {
        const t = p.make(randomBytes(size));
        const a = t.transformToStorage(plain, ctx);
        const b = t.transformToStorage(plain, ctx);
        assert.notDeepEqual(a, b, 'a fresh nonce or IV per write');
        assert.equal(a.includes(Buffer.from('Service')), false);
        assert.deepEqual(t.transformFromStorage(a, ctx), { data: plain, stale: false });
      }
    });

    test('an empty value round trips', () => {
      const t = p.make(randomBytes(32));
      assert.deepEqual(t.transformFromStorage(t.transformToStorage(Buffer.alloc(0), ctx), ctx).data, Buffer.alloc(0));
    });

    test('a wrong key does not read the value', () => {
      const data = p.make(randomBytes(32)).transformToStorage(plain, ctx);
      const other = p.make(randomBytes(32));
      let read: Buffer | undefined;
      try {
        read = other.transformFromStorage(data, ctx).data;
      } catch {
        read = undefined;
      }
      // CBC has no integrity: a wrong key fails the padding check or yields garbage, never the value.
      assert.notDeepEqual(read, plain);
    });

    test('tampered ciphertext is refused (or, for unauthenticated CBC, never yields the value)', () => {
      const t = p.make(randomBytes(32));
      const data = t.transformToStorage(plain, ctx);
      for (const at of [0, Math.floor(data.length / 2), data.length - 1]) {
        let read: Buffer | undefined;
        try {
          read = t.transformFromStorage(flip(data, at), ctx).data;
        } catch {
          read = undefined;
        }
        if (p.name === 'aescbc') assert.notDeepEqual(read, plain, `byte ${at}`);
        else assert.equal(read, undefined, `byte ${at} must fail authentication`);
      }
    });

    test(`moving the value to another storage key ${p.authenticatesKey ? 'fails (the key is authenticated data)' : 'still reads, as kube (no additional data)'}`, () => {
      const t = p.make(randomBytes(32));
      const data = t.transformToStorage(plain, ctx);
      const moved = { key: '/registry/services/default/other' };
      if (p.authenticatesKey) assert.throws(() => t.transformFromStorage(data, moved), { message: 'cipher: message authentication failed' });
      else assert.deepEqual(t.transformFromStorage(data, moved).data, plain);
    });

    test('truncated data: kube\'s "shorter than the required size"', () => {
      const t = p.make(randomBytes(32));
      assert.throws(() => t.transformFromStorage(Buffer.alloc(3), ctx), { message: 'the stored data was shorter than the required size' });
    });
  });
}

describe("kube's byte layouts (data moves between kube-apiserver and this server)", () => {
  test('aesgcm: 12-byte nonce, ciphertext, 16-byte tag; the storage key is the additional data', () => {
    const key = randomBytes(32);
    const data = newGCMTransformer(key).transformToStorage(plain, ctx);
    assert.equal(data.length, 12 + plain.length + 16);
    const d = createDecipheriv('aes-256-gcm', key, data.subarray(0, 12));
    d.setAAD(Buffer.from(KEY));
    d.setAuthTag(data.subarray(data.length - 16));
    assert.deepEqual(Buffer.concat([d.update(data.subarray(12, data.length - 16)), d.final()]), plain);
  });

  test('aescbc: 16-byte IV, then PKCS#7-padded blocks (a full block of padding when aligned)', () => {
    const key = randomBytes(16);
    const aligned = Buffer.alloc(32, 0x61);
    const data = newCBCTransformer(key).transformToStorage(aligned, ctx);
    assert.equal(data.length, 16 + 48);
    const d = createDecipheriv('aes-128-cbc', key, data.subarray(0, 16)).setAutoPadding(false);
    const padded = Buffer.concat([d.update(data.subarray(16)), d.final()]);
    assert.deepEqual(padded, Buffer.concat([aligned, Buffer.alloc(16, 16)]));
  });

  test("aescbc: bad padding and unaligned data get kube's errors", () => {
    const key = randomBytes(32);
    const t = newCBCTransformer(key);
    const iv = randomBytes(16);
    const seal = (block: Buffer): Buffer => {
      const c = createCipheriv('aes-256-cbc', key, iv).setAutoPadding(false);
      return Buffer.concat([iv, c.update(block), c.final()]);
    };
    assert.throws(() => t.transformFromStorage(seal(Buffer.concat([Buffer.alloc(15, 0x61), Buffer.from([0])])), ctx), { message: 'invalid PKCS7 data (empty or not padded)' });
    assert.throws(() => t.transformFromStorage(seal(Buffer.concat([Buffer.alloc(14, 0x61), Buffer.from([1, 2])])), ctx), { message: 'invalid padding on input' });
    assert.throws(() => t.transformFromStorage(Buffer.concat([iv, Buffer.alloc(20)]), ctx), { message: 'the stored data is not a multiple of the block size' });
  });

  test('secretbox: 24-byte nonce, then the NaCl box', () => {
    const key = randomBytes(32);
    const data = newSecretboxTransformer(key).transformToStorage(plain, ctx);
    assert.equal(data.length, 24 + plain.length + 16);
    assert.deepEqual(Buffer.from(nacl.secretbox.open(data.subarray(24), data.subarray(0, 24), key) ?? []), plain);
    assert.throws(() => newSecretboxTransformer(randomBytes(32)).transformFromStorage(data, ctx), { message: 'output array was not large enough for encryption' });
  });

  test('key sizes: AES takes 16, 24 or 32 bytes, secretbox 32', () => {
    assert.throws(() => newGCMTransformer(randomBytes(20)), { message: 'crypto/aes: invalid key size 20' });
    assert.throws(() => newSecretboxTransformer(randomBytes(16)), { message: 'expected key size 32 for secretbox provider, got 16' });
  });
});

describe('identity (kube encrypt-check transformer)', () => {
  test('stores as is and refuses encrypted data', () => {
    assert.deepEqual(encryptCheckTransformer.transformToStorage(plain, ctx), plain);
    assert.deepEqual(encryptCheckTransformer.transformFromStorage(plain, ctx), { data: plain, stale: false });
    assert.throws(() => encryptCheckTransformer.transformFromStorage(Buffer.from('k8s:enc:aescbc:v1:k:xyz'), ctx), { message: 'identity transformer tried to read encrypted data' });
  });
});

describe('prefix transformers: the order of providers and keys', () => {
  const k1 = randomBytes(32);
  const k2 = randomBytes(32);
  const services = { group: '', resource: 'services' };
  const forServices = (...providers: ProviderConfig[]): ValueTransformer => newResourceTransformers([{ resources: [services], providers }]).transformerForResource(services);

  test("the first provider and its first key write, with kube's prefixes", () => {
    for (const [type, prefix] of [
      ['aesgcm', 'k8s:enc:aesgcm:v1:new:'],
      ['aescbc', 'k8s:enc:aescbc:v1:new:'],
      ['secretbox', 'k8s:enc:secretbox:v1:new:'],
    ] as const) {
      const t = forServices(
        {
          type,
          keys: [
            { name: 'new', secret: k1 },
            { name: 'old', secret: k2 },
          ],
        },
        { type: 'identity' },
      );
      const data = t.transformToStorage(plain, ctx);
      assert.equal(data.subarray(0, prefix.length).toString(), prefix);
      assert.deepEqual(t.transformFromStorage(data, ctx), { data: plain, stale: false });
    }
    assert.deepEqual(forServices({ type: 'identity' }, { type: 'aesgcm', keys: [{ name: 'k', secret: k1 }] }).transformToStorage(plain, ctx), plain);
  });

  test('rotation: data written by a key that is not first reads as stale, so the next update rewrites it', () => {
    const before = forServices({ type: 'aesgcm', keys: [{ name: 'k1', secret: k1 }] });
    const written = before.transformToStorage(plain, ctx);
    const rotated = forServices({
      type: 'aesgcm',
      keys: [
        { name: 'k2', secret: k2 },
        { name: 'k1', secret: k1 },
      ],
    });
    assert.deepEqual(rotated.transformFromStorage(written, ctx), { data: plain, stale: true });
    const rewritten = rotated.transformToStorage(plain, ctx);
    assert.ok(rewritten.toString('latin1').startsWith('k8s:enc:aesgcm:v1:k2:'));
    assert.deepEqual(rotated.transformFromStorage(rewritten, ctx), { data: plain, stale: false });
    // A provider that is not first: stale too (migrating to another provider, or to/from identity).
    const migrated = forServices({ type: 'secretbox', keys: [{ name: 's', secret: k2 }] }, { type: 'aesgcm', keys: [{ name: 'k1', secret: k1 }] }, { type: 'identity' });
    assert.deepEqual(migrated.transformFromStorage(written, ctx), { data: plain, stale: true });
    assert.deepEqual(migrated.transformFromStorage(plain, ctx), { data: plain, stale: true });
  });

  test('the same provider twice with different keys: a failure in the first does not hide the second', () => {
    const written = forServices({ type: 'aescbc', keys: [{ name: 'k', secret: k2 }] }).transformToStorage(plain, ctx);
    const t = forServices({ type: 'aescbc', keys: [{ name: 'k', secret: k1 }] }, { type: 'aescbc', keys: [{ name: 'k', secret: k2 }] });
    assert.deepEqual(t.transformFromStorage(written, ctx).data, plain);
  });

  test("unknown prefixes and failed decryption: kube's errors", () => {
    const t = forServices({ type: 'aesgcm', keys: [{ name: 'k1', secret: k1 }] });
    assert.throws(() => t.transformFromStorage(plain, ctx), { message: 'no matching prefix found' });
    assert.throws(() => t.transformFromStorage(Buffer.from('k8s:enc:aesgcm:v1:gone:abcdefghijklmnopqrstuvwxyz0123'), ctx), { message: 'no matching key was found for the provided AES transformer' });
    const foreign = forServices({ type: 'aesgcm', keys: [{ name: 'k1', secret: k2 }] }).transformToStorage(plain, ctx);
    assert.throws(() => t.transformFromStorage(foreign, ctx), { message: 'cipher: message authentication failed' });
    const sb = forServices({ type: 'secretbox', keys: [{ name: 'k1', secret: k1 }] });
    assert.throws(() => sb.transformFromStorage(Buffer.from('k8s:enc:secretbox:v1:x:abc'), ctx), { message: 'no matching key was found for the provided Secretbox transformer' });
    // identity behind a provider: encrypted data it cannot read is left to the others' errors.
    const withIdentity = forServices({ type: 'identity' }, { type: 'aesgcm', keys: [{ name: 'k1', secret: k1 }] });
    assert.throws(() => withIdentity.transformFromStorage(foreign, ctx), { message: 'cipher: message authentication failed' });
  });
});

describe('transformers per resource: the most specific rule wins', () => {
  const key = (n: number): ProviderConfig => ({ type: 'aesgcm', keys: [{ name: `k${n}`, secret: randomBytes(32) }] });
  const prefixOf = (t: ValueTransformer): string => t.transformToStorage(plain, ctx).subarray(0, 21).toString('latin1');

  test('resource, then *.<group>, then *.*, else stored as is (refusing encrypted data)', () => {
    const t = newResourceTransformers([
      {
        resources: [
          { group: '', resource: 'services' },
          { group: 'wardle.example.com', resource: 'flunders' },
        ],
        providers: [key(1)],
      },
      { resources: [{ group: 'wardle.example.com', resource: '*' }], providers: [key(2)] },
      { resources: [{ group: '*', resource: '*' }], providers: [key(3)] },
    ]);
    assert.equal(prefixOf(t.transformerForResource({ group: '', resource: 'services' })), 'k8s:enc:aesgcm:v1:k1:');
    assert.equal(prefixOf(t.transformerForResource({ group: 'wardle.example.com', resource: 'flunders' })), 'k8s:enc:aesgcm:v1:k1:');
    assert.equal(prefixOf(t.transformerForResource({ group: 'wardle.example.com', resource: 'fischers' })), 'k8s:enc:aesgcm:v1:k2:');
    assert.equal(prefixOf(t.transformerForResource({ group: 'apps', resource: 'deployments' })), 'k8s:enc:aesgcm:v1:k3:');
    const none = newResourceTransformers([{ resources: [{ group: '', resource: 'services' }], providers: [key(1)] }]).transformerForResource({ group: '', resource: 'namespaces' });
    assert.deepEqual(none.transformToStorage(plain, ctx), plain);
    assert.throws(() => none.transformFromStorage(Buffer.from('k8s:enc:aesgcm:v1:k1:xx'), ctx), { message: 'identity transformer tried to read encrypted data' });
  });

  test("a resource listed in two rules gets both rules' providers, in order", () => {
    const a = key(1);
    const b = key(2);
    const sec = { group: '', resource: 'services' };
    const written = newResourceTransformers([{ resources: [sec], providers: [b] }])
      .transformerForResource(sec)
      .transformToStorage(plain, ctx);
    const t = newResourceTransformers([
      { resources: [sec], providers: [a] },
      { resources: [sec], providers: [b] },
    ]).transformerForResource(sec);
    assert.equal(prefixOf(t), 'k8s:enc:aesgcm:v1:k1:');
    assert.deepEqual(t.transformFromStorage(written, ctx), { data: plain, stale: true });
  });

  test("a rule after *.<group> or *.* for its resource is masked: kube's error", () => {
    assert.throws(
      () =>
        newResourceTransformers([
          { resources: [{ group: '', resource: '*' }], providers: [key(1)] },
          { resources: [{ group: '', resource: 'services' }], providers: [key(2)] },
        ]),
      { message: 'resource "services" is masked by earlier rule "*."' },
    );
    assert.throws(
      () =>
        newResourceTransformers([
          { resources: [{ group: '*', resource: '*' }], providers: [key(1)] },
          { resources: [{ group: 'wardle.example.com', resource: 'flunders' }], providers: [key(2)] },
        ]),
      { message: 'resource "flunders.wardle.example.com" is masked by earlier rule "*.*"' },
    );
  });

  test('the group and resource of a storage prefix', () => {
    assert.deepEqual(groupResourceOfPrefix('/services/'), { group: '', resource: 'services' });
    assert.deepEqual(groupResourceOfPrefix('/wardle.example.com/flunders/'), { group: 'wardle.example.com', resource: 'flunders' });
    assert.deepEqual(groupResourceOfPrefix('/ranges/'), { group: '', resource: 'ranges' });
  });
});
