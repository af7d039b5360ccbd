// Issue 16's acceptance: a Secret written through the API (data and stringData) is not readable
// in plain text in the SQLite file (database and WAL, history included) or in etcd when
// --encryption-provider-config names secrets, and reads back in the clear through the API.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { backends, ControlPlane, etcdUnavailable } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { rawValue } from '../integration/stored.js';

const MARKER = `secret-plain-text-${randomBytes(6).toString('hex')}`;
const STRING_MARKER = `string-data-${randomBytes(6).toString('hex')}`;
const config = `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
      - aescbc:
          keys:
            - {name: key1, secret: ${randomBytes(32).toString('base64')}}
      - identity: {}
`;

/** Every byte the SQLite store has on disk. */
function sqliteBytes(cp: ControlPlane): Buffer {
  return Buffer.concat(
    readdirSync(cp.dataDir)
      .filter((f) => f.startsWith('kube.db'))
      .map((f) => readFileSync(join(cp.dataDir, f))),
  );
}

for (const backend of backends) {
  const skip = backend === 'etcd3' ? etcdUnavailable() : undefined;
  describe(`Secrets encrypted at rest on ${backend}`, { skip: skip ?? false }, () => {
    const file = join(tmpdir(), `secret-encryption-${backend}-${randomBytes(4).toString('hex')}.yaml`);
    let cp: ControlPlane | undefined;
    after(async () => {
      await cp?.stop();
      rmSync(file, { force: true });
    });

    test('data and stringData are stored encrypted and read back decoded', async () => {
      writeFileSync(file, config);
      cp = await ControlPlane.start({ backend, extraArgs: ['--encryption-provider-config', file] });
      const c = new HttpsClient(cp.credentials);
      try {
        const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'enc' }, data: { password: Buffer.from(MARKER).toString('base64') }, stringData: { token: STRING_MARKER } };
        const created = await c.json('POST', '/api/v1/namespaces/default/secrets', secret);
        assert.equal(created.status, 201, JSON.stringify(created.body));
        const got = await c.json('GET', '/api/v1/namespaces/default/secrets/enc');
        const data = got.body['data'] as Record<string, string>;
        assert.equal(Buffer.from(data['password'] ?? '', 'base64').toString(), MARKER);
        assert.equal(Buffer.from(data['token'] ?? '', 'base64').toString(), STRING_MARKER);
        assert.equal(got.body['stringData'], undefined);
        assert.equal(got.body['type'], 'Opaque');
      } finally {
        c.close();
      }
      await cp.terminate();
      const raw = (await rawValue(cp, 'secrets/default/enc')) ?? assert.fail('no stored secret');
      assert.ok(raw.toString('latin1').startsWith('k8s:enc:aescbc:v1:key1:'), raw.subarray(0, 40).toString('latin1'));
      for (const m of [MARKER, STRING_MARKER, Buffer.from(MARKER).toString('base64')]) {
        assert.equal(raw.includes(m), false);
        if (backend === 'sqlite') assert.equal(sqliteBytes(cp).includes(m), false, 'the SQLite files never hold the plain text');
      }
    });
  });
}
