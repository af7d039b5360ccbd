// `kubectl apply --prune` (issue 16) on SQLite and etcd. With an allowlist of what this server
// serves (ConfigMaps, Secrets, Services), objects of the label set that left the manifests are
// deleted and the others kept. kubectl's default allowlist also names workload kinds (Pods,
// PersistentVolumeClaims, Deployments, …) that a control plane without nodes does not serve, as
// kube's own generic control plane does not: kubectl then stops at its first unknown kind, with
// its own message, before deleting anything.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ok } from './assertions.js';
import { describeBackends } from './harness.js';
import { Kubectl, kubectlUnavailable } from './kubectl.js';

const NS = 'prune';
const dir = mkdtempSync(join(tmpdir(), 'kubectl-prune-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const configMap = (name: string): object => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NS, labels: { app: 'pruned' } }, data: { k: name } });
const secret = (name: string): object => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: NS, labels: { app: 'pruned' } }, stringData: { k: name } });

/** Writes the manifests `kubectl apply -f` reads, one List. */
function manifests(file: string, ...items: object[]): string {
  const path = join(dir, file);
  writeFileSync(path, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  return path;
}

describe('kubectl apply --prune', { skip: kubectlUnavailable() ?? false }, () => {
  describeBackends('prune', (cp) => {
    let kc: Kubectl;
    before(async () => {
      kc = new Kubectl(cp);
      ok(await kc.createNamespace(NS), cp());
    });
    after(() => kc.dispose());
    const names = async (kind: string): Promise<string[]> =>
      ok(await kc.run(['-n', NS, 'get', kind, '-l', 'app=pruned', '-o', 'jsonpath={.items[*].metadata.name}']), cp())
        .split(' ')
        .filter((n) => n !== '');
    const allowlist = ['--prune-allowlist=core/v1/ConfigMap', '--prune-allowlist=core/v1/Secret', '--prune-allowlist=core/v1/Service'];

    it('deletes what left the manifests among the allowlisted kinds, and keeps the rest', async () => {
      const first = manifests(`first-${cp().port}.json`, configMap('a'), configMap('b'), secret('s1'), secret('s2'));
      ok(await kc.run(['-n', NS, 'apply', '--prune', '-l', 'app=pruned', ...allowlist, '-f', first]), cp());
      assert.deepEqual(await names('configmaps'), ['a', 'b']);
      assert.deepEqual(await names('secrets'), ['s1', 's2']);

      const second = manifests(`second-${cp().port}.json`, configMap('a'), secret('s2'));
      const out = ok(await kc.run(['-n', NS, 'apply', '--prune', '-l', 'app=pruned', ...allowlist, '-f', second]), cp());
      assert.match(out, /^configmap\/b pruned$/m);
      assert.match(out, /^secret\/s1 pruned$/m);
      assert.deepEqual(await names('configmaps'), ['a']);
      assert.deepEqual(await names('secrets'), ['s2']);
    });

    it('the default allowlist names kinds a control plane without nodes does not serve: kubectl stops before deleting anything', async () => {
      const third = manifests(`third-${cp().port}.json`, secret('s2'));
      const r = await kc.run(['-n', NS, 'apply', '--prune', '-l', 'app=pruned', '-f', third]);
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /error: error retrieving RESTMappings to prune: invalid resource .*: no matches for kind "\w+" in version "[\w/]+"/);
      assert.deepEqual(await names('configmaps'), ['a']);
    });
  });
});
