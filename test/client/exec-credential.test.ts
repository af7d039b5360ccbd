// Exec credential plugins against a real control plane (SQLite, anonymous requests refused, so
// a request that succeeds proves the plugin's credential was used): tokens in v1 and v1beta1,
// client certificates signed by the cluster CA, caching until expiry, one run shared by
// concurrent requests, a new run after a 401, rotation of the TLS client certificate, and the
// kubeconfig path end to end through the generated clientset.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, test } from 'node:test';
import { stringify } from 'yaml';
import { Clientset } from '../../generated/clientset/index.js';
import { isUnauthorized } from '../../runtime/apimachinery/errors/index.js';
import { restClientForConfig, restClientFromKubeconfig, type HTTPRESTClient, type RESTConfig } from '../../runtime/client/index.js';
import type { ExecConfig } from '../../runtime/client/exec/index.js';
import { realClock, type Clock } from '../../runtime/client/rest/index.js';
import { ensureCA, ensureLeaf, type KeyPairPEM } from '../../runtime/controlplane/certs.js';
import { describeBackends } from '../integration/harness.js';
import { certAnswer, tokenAnswer, writePlugin, type TestPlugin } from './exec-credential-plugin.js';

const dir = mkdtempSync(join(tmpdir(), 'exec-credential-'));
process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
const tokenCSV = join(dir, 'tokens.csv');
writeFileSync(tokenCSV, ['exec-token-a,exec-user-a,uid-a,"system:masters"', 'exec-token-b,exec-user-b,uid-b,"system:masters"', ''].join('\n'));

const V1 = 'client.authentication.k8s.io/v1';
const V1BETA1 = 'client.authentication.k8s.io/v1beta1';
const HOUR = 3600_000;

/** A clock whose time the test sets; waits are real. */
class TestClock implements Clock {
  constructor(public t: number) {}
  now(): number {
    return this.t;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return realClock.sleep(ms, signal);
  }
}

function plugin(...answers: Parameters<TestPlugin['answer']>): TestPlugin {
  const p = writePlugin(dir);
  p.answer(...answers);
  return p;
}

describeBackends(
  'exec credential plugins against the control plane',
  (get) => {
    const clients: HTTPRESTClient[] = [];
    after(() => {
      for (const c of clients) c.close();
    });
    const client = (exec: ExecConfig, o: Partial<RESTConfig> = {}): HTTPRESTClient => {
      const { server, caPEM } = get().credentials;
      const rest = restClientForConfig({ host: server, tls: { caData: caPEM }, maxRetries: 0, execProvider: exec, execPlugin: { stderr: 'ignore' }, ...o });
      clients.push(rest);
      return rest;
    };
    const exec = (p: TestPlugin, o: Partial<ExecConfig> = {}): ExecConfig => ({ command: p.command, apiVersion: V1, interactiveMode: 'Never', ...o });
    const getDefault = async (rest: HTTPRESTClient): Promise<void> => {
      const ns = await new Clientset(rest).coreV1().namespaces().get('default');
      assert.equal(ns.metadata?.name, 'default');
    };
    /** A client certificate of the given CA (the cluster's by default), in system:masters. */
    const clientCert = async (name: string, caDir = join(get().dataDir, 'pki')): Promise<KeyPairPEM> => {
      const ca = await ensureCA(caDir, 'ca', 'kube-ts-ca');
      return ensureLeaf(dir, name, ca, { subject: `CN=${name}, O=system:masters`, server: false, hosts: [] });
    };

    test('without credentials the server answers 401 (anonymous is off), so every success below is the plugin’s', async () => {
      const { server, caPEM } = get().credentials;
      const anonymous = restClientForConfig({ host: server, tls: { caData: caPEM }, maxRetries: 0 });
      clients.push(anonymous);
      await assert.rejects(getDefault(anonymous), isUnauthorized);
    });

    test('a v1 token plugin; a v1beta1 one', async () => {
      const v1 = plugin(tokenAnswer('exec-token-a'));
      await getDefault(client(exec(v1)));
      assert.equal(v1.invocations().length, 1);
      const beta = plugin(tokenAnswer('exec-token-b', { apiVersion: V1BETA1 }));
      await getDefault(client(exec(beta, { apiVersion: V1BETA1, interactiveMode: 'IfAvailable' })));
      assert.deepEqual(beta.invocations()[0]?.info, { kind: 'ExecCredential', apiVersion: V1BETA1, spec: { interactive: false } });
    });

    test('the answer is cached: concurrent requests share one run, later ones reuse it', async () => {
      const p = plugin(tokenAnswer('exec-token-a'));
      const rest = client(exec(p));
      await Promise.all(Array.from({ length: 8 }, () => getDefault(rest)));
      for (let i = 0; i < 3; i++) await getDefault(rest);
      const watch = await new Clientset(rest).coreV1().namespaces().watch({ timeoutSeconds: 1 });
      watch.stop();
      assert.equal(p.invocations().length, 1);
    });

    test('until its expirationTimestamp: after it, the plugin runs again', async () => {
      const expires = new Date(Date.now() + HOUR);
      const p = plugin(tokenAnswer('exec-token-a', { expires }), tokenAnswer('exec-token-b'));
      const clock = new TestClock(expires.getTime() - 1000);
      const rest = client(exec(p), { clock });
      await getDefault(rest);
      clock.t = expires.getTime();
      await getDefault(rest);
      assert.equal(p.invocations().length, 1, 'valid up to and including the timestamp');
      clock.t = expires.getTime() + 1;
      await getDefault(rest);
      await getDefault(rest);
      assert.equal(p.invocations().length, 2, 'expired: one new run, whose answer has no expiry');
    });

    test('a 401 drops the credential: the request fails, the next one runs the plugin again', async () => {
      const p = plugin(tokenAnswer('revoked-token'), tokenAnswer('exec-token-b'));
      const rest = client(exec(p));
      await assert.rejects(getDefault(rest), isUnauthorized);
      assert.equal(p.invocations().length, 1);
      await getDefault(rest);
      await getDefault(rest);
      assert.equal(p.invocations().length, 2);
    });

    test('a client certificate from the plugin is presented on the TLS connection, and replaced when it rotates', async () => {
      const good = await clientCert('exec-cert-user');
      const foreignCA = mkdtempSync(join(dir, 'foreign-ca-'));
      const foreign = await clientCert('exec-foreign-user', foreignCA);
      const again = await clientCert('exec-cert-user-2');
      const expires = new Date(Date.now() + HOUR);
      const p = plugin(certAnswer(good, { expires }), certAnswer(foreign), certAnswer(again));
      const clock = new TestClock(expires.getTime() - 1000);
      const rest = client(exec(p), { clock });
      await getDefault(rest);
      await getDefault(rest);
      assert.equal(p.invocations().length, 1);
      clock.t = expires.getTime() + 1;
      // The rotated certificate is one the cluster CA did not sign: the server must see it, not the kept-alive connection of the first.
      await assert.rejects(getDefault(rest), isUnauthorized);
      assert.equal(p.invocations().length, 2);
      await getDefault(rest);
      assert.equal(p.invocations().length, 3);
    });

    test('from a kubeconfig, through the generated clientset: a relative command, env, provideClusterInfo with the cluster’s exec extension', async () => {
      const { server, caPEM } = get().credentials;
      const p = plugin(tokenAnswer('exec-token-a', { apiVersion: V1BETA1 }));
      const kubeconfig = join(dir, 'kubeconfig');
      writeFileSync(
        kubeconfig,
        stringify({
          apiVersion: 'v1',
          kind: 'Config',
          clusters: [
            {
              name: 'c',
              cluster: { server, 'certificate-authority-data': Buffer.from(caPEM).toString('base64'), extensions: [{ name: 'client.authentication.k8s.io/exec', extension: { audience: 'kube-ts' } }] },
            },
          ],
          users: [
            {
              name: 'plugin-user',
              user: { exec: { apiVersion: V1BETA1, command: `./${relative(dir, p.command)}`, args: ['get-token'], env: [{ name: 'PLUGIN_EXTRA', value: 'x' }], provideClusterInfo: true } },
            },
          ],
          contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'plugin-user', namespace: 'kube-system' } }],
          'current-context': 'ctx',
        }),
      );
      const { rest, namespace } = restClientFromKubeconfig({ path: kubeconfig, options: { execPlugin: { stderr: 'ignore', stdinIsTerminal: () => false } } });
      clients.push(rest);
      assert.equal(namespace, 'kube-system');
      await getDefault(rest);
      const [run] = p.invocations();
      assert.deepEqual(run?.args, ['get-token']);
      assert.equal(run?.env, 'x');
      assert.deepEqual(run?.info, {
        kind: 'ExecCredential',
        apiVersion: V1BETA1,
        spec: { cluster: { server, 'certificate-authority-data': Buffer.from(caPEM).toString('base64'), config: { audience: 'kube-ts' } }, interactive: false },
      });
    });

    test('a token configured beside the plugin wins, as kubectl --token does: the plugin never runs', async () => {
      const p = plugin({ exit: 1 });
      await getDefault(client(exec(p), { bearerToken: 'exec-token-a' }));
      assert.equal(p.invocations().length, 0);
    });
  },
  { only: ['sqlite'], extraArgs: ['--token-auth-file', tokenCSV, '--anonymous-auth=false'] },
);
