// Encryption at rest end to end (issue 14, "Data at rest"): the control plane with
// --encryption-provider-config on SQLite and on etcd. Objects written through the API are not
// readable in the SQLite file or in etcd, read back through the API, and after a rotation (new key
// first, old key second, restart) a rewrite (PUT) stores them under the new key; a value whose key
// is gone is kube's 500 InternalError for that object, not a crash.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Etcd3 } from 'etcd3';
import { fails, ok } from '../integration/assertions.js';
import { backends, ControlPlane, etcdUnavailable } from '../integration/harness.js';
import { Kubectl, kubectlUnavailable } from '../integration/kubectl.js';
import { rawValue } from '../integration/stored.js';

const MARKER = `plain-text-marker-${randomBytes(6).toString('hex')}`;
const keys = { key1: randomBytes(32).toString('base64'), key2: randomBytes(32).toString('base64'), key3: randomBytes(32).toString('base64') };

/** Services (one resource of the core group) and everything of wardle.example.com (a `*.<group>` rule). */
function config(providers: string, wardleProviders = providers): string {
  return `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [services]
    providers:
${providers}
  - resources: ['*.wardle.example.com']
    providers:
${wardleProviders}
`;
}
const aesgcm = (...names: Array<keyof typeof keys>): string => `      - aesgcm:\n          keys:\n${names.map((n) => `            - {name: ${n}, secret: ${keys[n]}}\n`).join('')}`;
const identity = '      - identity: {}\n';

const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'enc-web', namespace: 'default', annotations: { note: MARKER } }, spec: { ports: [{ port: 80, targetPort: 8080 }] } };
const flunder = { apiVersion: 'wardle.example.com/v1beta1', kind: 'Flunder', metadata: { name: 'enc-fl', namespace: 'default', annotations: { note: MARKER } }, spec: {} };
const objects = [
  { resource: 'service', name: 'enc-web', path: 'services/default/enc-web', manifest: service },
  { resource: 'flunders.wardle.example.com', name: 'enc-fl', path: 'wardle.example.com/flunders/default/enc-fl', manifest: flunder },
] as const;

/** Every byte the SQLite store has on disk (database and WAL), for a search of plain text anywhere, history included. */
function sqliteBytes(cp: ControlPlane): Buffer {
  return Buffer.concat(
    readdirSync(cp.dataDir)
      .filter((f) => f.startsWith('kube.db'))
      .map((f) => readFileSync(join(cp.dataDir, f))),
  );
}

/** Every value under the server's etcd prefix, history excluded (etcd keeps old revisions until compaction; the current ones are what a reader sees). */
async function etcdValues(cp: ControlPlane): Promise<Buffer> {
  const client = new Etcd3({ hosts: cp.etcd?.endpoints ?? [] });
  try {
    const all = await client.getAll().prefix(`${cp.etcdPrefix}/`).buffers();
    return Buffer.concat(Object.values(all));
  } finally {
    client.close();
  }
}

const skipKubectl = kubectlUnavailable();
for (const backend of backends) {
  const skip = skipKubectl ?? (backend === 'etcd3' ? etcdUnavailable() : undefined);
  describe(`encryption at rest on ${backend}`, { skip: skip ?? false }, () => {
    const file = join(process.env['TMPDIR'] ?? '/tmp', `encryption-e2e-${backend}-${randomBytes(4).toString('hex')}.yaml`);
    let cp: ControlPlane | undefined;
    const server = (): ControlPlane => cp ?? assert.fail('control plane not started');
    const kubectl = new Kubectl(server);
    const run = (args: string[], stdin?: string) => kubectl.run(args, stdin === undefined ? {} : { stdin });
    after(async () => {
      await cp?.stop();
      kubectl.dispose();
      rmSync(file, { force: true });
    });

    /** Restarts on the same data with `text` as the configuration file. */
    async function restartWith(text: string): Promise<void> {
      writeFileSync(file, text);
      cp = await server().restart();
    }

    test('values written through the API are stored encrypted with the first key and read back', async () => {
      writeFileSync(file, config(aesgcm('key1') + identity));
      cp = await ControlPlane.start({ backend, extraArgs: ['--encryption-provider-config', file] });
      for (const o of objects) ok(await run(['create', '-f', '-'], JSON.stringify(o.manifest)), server());
      for (const o of objects) assert.equal(ok(await run(['get', o.resource, o.name, '-o', 'jsonpath={.metadata.annotations.note}']), server()), MARKER);
      // A resource no rule names (namespaces) is stored as is.
      if (backend === 'etcd3') {
        assert.equal((await etcdValues(server())).includes(MARKER), false, 'no value in etcd holds the plain text');
        assert.ok((await rawValue(server(), 'namespaces/default'))?.toString().startsWith('{'));
      } else {
        assert.equal(sqliteBytes(server()).includes(MARKER), false, 'the SQLite files (history included) never hold the plain text');
      }
      await server().terminate();
      if (backend === 'sqlite') assert.equal(sqliteBytes(server()).includes(MARKER), false, 'nor after the WAL was checkpointed');
      for (const o of objects) {
        const raw = await rawValue(server(), o.path);
        assert.ok(raw?.toString('latin1').startsWith('k8s:enc:aesgcm:v1:key1:'), `${o.path}: ${raw?.subarray(0, 40).toString('latin1')}`);
        assert.equal(raw?.includes(MARKER), false);
      }
    });

    test('rotation: new key first, old key second; reads still work, a PUT rewrites under the new key', async () => {
      await restartWith(config(aesgcm('key2', 'key1') + identity));
      for (const o of objects) {
        const current = ok(await run(['get', o.resource, o.name, '-o', 'json']), server());
        assert.equal((JSON.parse(current) as typeof service).metadata.annotations.note, MARKER);
        // An unchanged object: the write happens only because the stored value is stale.
        ok(await run(['replace', '-f', '-'], current), server());
      }
      await server().terminate();
      for (const o of objects) {
        const raw = await rawValue(server(), o.path);
        assert.ok(raw?.toString('latin1').startsWith('k8s:enc:aesgcm:v1:key2:'), `${o.path}: ${raw?.subarray(0, 40).toString('latin1')}`);
        assert.equal(raw?.includes(MARKER), false);
      }
    });

    test("a value whose key is no longer configured is kube's 500 InternalError for that object; the server keeps serving", async () => {
      await restartWith(config(aesgcm('key2') + identity, aesgcm('key3')));
      const r = await run(['get', 'flunders.wardle.example.com', 'enc-fl']);
      fails(r, 'Error from server (InternalError): Internal error occurred: no matching key was found for the provided AES transformer');
      assert.equal(ok(await run(['get', 'service', 'enc-web', '-o', 'jsonpath={.metadata.annotations.note}']), server()), MARKER);
      assert.equal(server().exited(), undefined);
    });
  });
}
