// The real kubectl deleting with --cascade against the control plane command: foreground
// returns once the owner is gone, and its blocking Flunders went first; orphan leaves the
// Flunders without their ownerReference. Skipped (with the reason) only without kubectl.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ok } from '../integration/assertions.js';
import { describeBackends } from '../integration/harness.js';
import { Kubectl, kubectlUnavailable } from '../integration/kubectl.js';

const noKubectl = kubectlUnavailable();

describe('kubectl delete --cascade and the garbage collector', { skip: noKubectl ?? false }, () => {
  describeBackends('kubectl --cascade', (cp) => {
    let kc: Kubectl;
    before(() => {
      kc = new Kubectl(cp);
    });
    after(() => kc.dispose());

    const create = async (obj: object): Promise<void> => {
      ok(await kc.run(['create', '-f', '-'], { stdin: JSON.stringify(obj) }), cp());
    };
    const uidOf = async (args: string[]): Promise<string> => ok(await kc.run(['get', ...args, '-o', 'jsonpath={.metadata.uid}']), cp());
    /** A Fischer and Flunders in default that it owns (blockOwnerDeletion, as controllers set it). */
    const ownerWithFlunders = async (owner: string, flunders: string[]): Promise<void> => {
      await create({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Fischer', metadata: { name: owner } });
      const uid = await uidOf(['fischer', owner]);
      for (const name of flunders) {
        await create({
          apiVersion: 'wardle.example.com/v1alpha1',
          kind: 'Flunder',
          metadata: { name, namespace: 'default', ownerReferences: [{ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Fischer', name: owner, uid, blockOwnerDeletion: true }] },
        });
      }
    };
    const names = async (args: string[]): Promise<string[]> =>
      ok(await kc.run(['get', ...args, '-o', 'name', '--ignore-not-found']), cp())
        .split('\n')
        .filter((l) => l !== '');

    it('delete --cascade=foreground returns once the owner is gone, its Flunders gone before it', async () => {
      await ownerWithFlunders('fg-owner', ['fg-1', 'fg-2']);
      ok(await kc.run(['delete', 'fischer', 'fg-owner', '--cascade=foreground']), cp());
      assert.deepEqual(await names(['fischer', 'fg-owner']), []);
      assert.deepEqual(await names(['flunders', 'fg-1', 'fg-2', '-n', 'default']), []);
    });

    it('delete --cascade=orphan leaves the Flunders without the ownerReference', async () => {
      await ownerWithFlunders('orphan-owner', ['orph-1', 'orph-2']);
      ok(await kc.run(['delete', 'fischer', 'orphan-owner', '--cascade=orphan']), cp());
      assert.deepEqual(await names(['fischer', 'orphan-owner']), []);
      for (const name of ['orph-1', 'orph-2']) {
        const refs = ok(await kc.run(['get', 'flunder', name, '-n', 'default', '-o', 'jsonpath={.metadata.ownerReferences}']), cp());
        assert.equal(refs, '', `${name} still has ownerReferences: ${refs}`);
      }
    });

    it('delete (background, the default) removes the Flunders after the owner', async () => {
      await ownerWithFlunders('bg-owner', ['bg-1']);
      ok(await kc.run(['delete', 'fischer', 'bg-owner']), cp());
      ok(await kc.run(['wait', '--for=delete', 'flunder/bg-1', '-n', 'default', '--timeout=60s']), cp());
    });
  });
});
