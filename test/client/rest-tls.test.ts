// TLS of the HTTP REST client against the real control plane: the server's CA, a wrong CA, the
// insecure flag, tls-server-name, client certificates from kubeconfig files. TLS failures are
// not connection failures: they are never retried.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { stringify } from 'yaml';
import { Clientset } from '../../generated/clientset/index.js';
import { restClientFromKubeconfig } from '../../runtime/client/index.js';
import { restClientForConfig, TransportError, type Clock, type HTTPRESTClient, type RESTConfig } from '../../runtime/client/rest/index.js';
import { ensurePKI } from '../../runtime/controlplane/certs.js';
import { describeBackends } from '../integration/harness.js';

class RecordingClock implements Clock {
  readonly sleeps: number[] = [];
  now(): number {
    return Date.now();
  }
  async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
  }
}

describeBackends(
  'HTTP REST client TLS',
  (get) => {
    let dir: string;
    let otherCA: string;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'rest-tls-'));
      otherCA = (await ensurePKI(join(dir, 'other'), { hosts: [] })).caCertPEM;
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    async function getDefault(config: Omit<RESTConfig, 'host'>, host = get().url): Promise<string | undefined> {
      const rest: HTTPRESTClient = restClientForConfig({ host, ...config });
      try {
        return (await new Clientset(rest).coreV1().namespaces().get('default')).metadata?.name;
      } finally {
        rest.close();
      }
    }

    function admin(): Pick<NonNullable<RESTConfig['tls']>, 'certData' | 'keyData'> {
      const { certPEM, keyPEM } = get().credentials;
      assert.ok(certPEM && keyPEM);
      return { certData: certPEM, keyData: keyPEM };
    }

    async function tlsFailure(config: Omit<RESTConfig, 'host'>, code: RegExp, host?: string): Promise<void> {
      const clock = new RecordingClock();
      try {
        await getDefault({ ...config, clock }, host);
      } catch (e) {
        assert.ok(e instanceof TransportError, String(e));
        assert.match(e.code ?? '', code);
        assert.deepEqual(clock.sleeps, [], 'a TLS failure is not retried');
        return;
      }
      assert.fail('expected a TLS failure');
    }

    test("the server's CA and the admin certificate", async () => {
      assert.equal(await getDefault({ tls: { caData: get().credentials.caPEM, ...admin() } }), 'default');
    });

    test('a wrong CA, or none (the system roots), fails verification', async () => {
      await tlsFailure({ tls: { caData: otherCA, ...admin() } }, /UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED|UNABLE_TO_GET_ISSUER/);
      await tlsFailure({ tls: admin() }, /UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED|UNABLE_TO_GET_ISSUER/);
    });

    test('insecure skips verification', async () => {
      assert.equal(await getDefault({ tls: { insecure: true, ...admin() } }), 'default');
    });

    test('tls-server-name: the certificate is checked against it instead of the URL host', async () => {
      const ca = get().credentials.caPEM;
      assert.equal(await getDefault({ tls: { caData: ca, serverName: 'kubernetes.default.svc', ...admin() } }), 'default');
      await tlsFailure({ tls: { caData: ca, serverName: 'wrong.example.com', ...admin() } }, /ERR_TLS_CERT_ALTNAME_INVALID/);
    });

    test('a kubeconfig with relative CA, certificate and key files', async () => {
      const { caPEM, server } = get().credentials;
      const { certData, keyData } = admin();
      writeFileSync(join(dir, 'ca.crt'), caPEM);
      writeFileSync(join(dir, 'admin.crt'), String(certData));
      writeFileSync(join(dir, 'admin.key'), String(keyData));
      const path = join(dir, 'kubeconfig');
      writeFileSync(
        path,
        stringify({
          apiVersion: 'v1',
          kind: 'Config',
          'current-context': 'files',
          clusters: [{ name: 'local', cluster: { server, 'certificate-authority': 'ca.crt' } }],
          users: [{ name: 'admin', user: { 'client-certificate': 'admin.crt', 'client-key': './admin.key' } }],
          contexts: [{ name: 'files', context: { cluster: 'local', user: 'admin', namespace: 'kube-system' } }],
        }),
      );
      const { rest, namespace } = restClientFromKubeconfig({ path });
      try {
        assert.equal(namespace, 'kube-system');
        assert.equal((await new Clientset(rest).coreV1().namespaces().get(namespace)).metadata?.name, 'kube-system');
      } finally {
        rest.close();
      }
    });
  },
  { only: ['sqlite'] },
);
