// Issue 16: kube-controller-manager's root-ca-cert-publisher in the control plane command, checked
// with the real kubectl on SQLite and etcd (kube's e2e "ServiceAccounts should guarantee
// kube-root-ca.crt exist in any namespace", test/e2e/auth/service_accounts.go): every namespace
// holds kube-root-ca.crt with the CA that verifies the server (the admin kubeconfig's), it comes
// back when deleted, edits of it are undone, it is not rewritten when right, and a Terminating
// namespace does not get it back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DESCRIPTION, DESCRIPTION_ANNOTATION } from '../../runtime/controllers/rootcacertpublisher/index.js';
import { ok, until } from './assertions.js';
import { describeBackends } from './harness.js';
import { Kubectl, kubectlUnavailable } from './kubectl.js';
import { uniqueName } from './objects.js';

const noKubectl = kubectlUnavailable();
const NAME = 'kube-root-ca.crt';

interface ConfigMapJSON {
  metadata: { uid: string; resourceVersion: string; annotations?: Record<string, string> };
  data?: Record<string, string>;
}

describe('kube-root-ca.crt with kubectl', { skip: noKubectl ?? false }, () => {
  describeBackends('root-ca-cert-publisher', (cp) => {
    let kc: Kubectl;
    before(() => {
      kc = new Kubectl(cp);
    });
    after(() => kc.dispose());

    /** The namespace's kube-root-ca.crt, or undefined while it does not exist. */
    const get = async (ns: string): Promise<ConfigMapJSON | undefined> => {
      const r = await kc.run(['get', 'cm', NAME, '-n', ns, '-o', 'json']);
      if (r.code !== 0 && r.stderr.includes('NotFound')) return undefined;
      return JSON.parse(ok(r, cp())) as ConfigMapJSON;
    };
    const published = (ns: string, accept: (cm: ConfigMapJSON) => boolean = () => true): Promise<ConfigMapJSON> =>
      until(`${NAME} in ${ns}`, async () => {
        const cm = await get(ns);
        return cm !== undefined && cm.data?.['ca.crt'] === cp().credentials.caPEM && accept(cm) ? cm : undefined;
      });
    const namespace = async (prefix: string, finalizers?: string[]): Promise<string> => {
      const name = uniqueName(prefix);
      const manifest = { apiVersion: 'v1', kind: 'Namespace', metadata: { name }, ...(finalizers !== undefined ? { spec: { finalizers } } : {}) };
      ok(await kc.run(['create', '-f', '-'], { stdin: JSON.stringify(manifest) }), cp());
      return name;
    };

    it('the system namespaces and a new namespace get it: the server CA and the description, nothing else', async () => {
      for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) await published(ns);
      const ns = await namespace('rootca');
      const cm = await published(ns);
      assert.deepEqual(cm.data, { 'ca.crt': cp().credentials.caPEM });
      assert.deepEqual(cm.metadata.annotations, { [DESCRIPTION_ANNOTATION]: DESCRIPTION });
    });

    it('`kubectl delete cm kube-root-ca.crt` brings it back', async () => {
      const ns = await namespace('rootca-del');
      const first = await published(ns);
      assert.equal(ok(await kc.run(['delete', 'cm', NAME, '-n', ns]), cp()), `configmap "${NAME}" deleted`);
      const second = await published(ns, (cm) => cm.metadata.uid !== first.metadata.uid);
      assert.deepEqual(second.data, { 'ca.crt': cp().credentials.caPEM });
    });

    it('an edit of ca.crt is undone, keys added beside it removed; the annotation comes back when emptied', async () => {
      const ns = await namespace('rootca-edit');
      const first = await published(ns);
      ok(await kc.run(['patch', 'cm', NAME, '-n', ns, '--type=merge', '-p', JSON.stringify({ data: { 'ca.crt': 'tampered', extra: 'x' } })]), cp());
      const restored = await published(ns, (cm) => cm.metadata.resourceVersion !== first.metadata.resourceVersion && cm.data?.['extra'] === undefined);
      assert.deepEqual(restored.data, { 'ca.crt': cp().credentials.caPEM });
      assert.equal(restored.metadata.uid, first.metadata.uid);

      ok(await kc.run(['annotate', 'cm', NAME, '-n', ns, '--overwrite', `${DESCRIPTION_ANNOTATION}=`]), cp());
      await published(ns, (cm) => cm.metadata.annotations?.[DESCRIPTION_ANNOTATION] === DESCRIPTION);
    });

    it('left alone when up to date: a resync of its namespace writes nothing', async () => {
      const ns = await namespace('rootca-same');
      const cm = await published(ns);
      // An update of an Active namespace queues it (namespaceUpdated); the sync finds it right.
      ok(await kc.run(['label', 'namespace', ns, 'touched=yes']), cp());
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal((await get(ns))?.metadata.resourceVersion, cm.metadata.resourceVersion);
    });

    it('a Terminating namespace does not get it back once its content is deleted', async () => {
      // A finalizer of its own keeps the namespace Terminating after its content is gone.
      const ns = await namespace('rootca-term', ['kubernetes', 'example.com/hold']);
      await published(ns);
      ok(await kc.run(['delete', 'namespace', ns, '--wait=false']), cp());
      await until(`${NAME} removed from Terminating ${ns}`, async () => ((await get(ns)) === undefined ? true : undefined));
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(await get(ns), undefined);
      assert.equal(ok(await kc.run(['get', 'namespace', ns, '-o', 'jsonpath={.status.phase}']), cp()), 'Terminating');
      assert.doesNotMatch(cp().log(), /root-ca-cert-publisher: syncing/);
    });
  });
});
