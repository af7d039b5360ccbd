// The upstream server of the side-by-side benches and probes (kube-compare, hack/compare-upstream.ts):
// k8s.io/apiextensions-apiserver's standalone server (BENCH_KUBE_APISERVER), the code kube-apiserver
// embeds to serve custom resources, on a fresh etcd of its own, with delegated authentication and
// authorization to one of our control planes (`core`, which also holds its namespaces).
// Priority and fairness is off (it needs FlowSchemas from a kube-apiserver); BENCH_KUBE_ARGS adds
// flags, space-separated. Only the processes started here are signalled.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ControlPlane, Credentials } from '../../integration/harness.js';
import { freePort, startEtcd, type EtcdCluster } from '../../storage/etcdServer.js';
import { etcdPids, postNamespace, type Subject } from './crontab-workload.js';
import { LoadClient } from './load.js';

/** The upstream binary on a fresh etcd, delegating to `core`; ready once /readyz answers 200. */
export async function upstream(bin: string, core: ControlPlane): Promise<Subject> {
  const etcd: EtcdCluster = await startEtcd();
  const certDir = mkdtempSync(join(tmpdir(), 'kube-compare-'));
  const port = await freePort();
  const args = [
    `--etcd-servers=${etcd.endpoints.join(',')}`,
    '--etcd-prefix=/registry',
    '--bind-address=127.0.0.1',
    `--secure-port=${port}`,
    `--cert-dir=${certDir}`,
    `--client-ca-file=${join(core.dataDir, 'pki', 'ca.crt')}`,
    '--authentication-skip-lookup',
    `--authentication-kubeconfig=${core.kubeconfigPath}`,
    `--authorization-kubeconfig=${core.kubeconfigPath}`,
    `--kubeconfig=${core.kubeconfigPath}`,
    '--enable-priority-and-fairness=false',
    '--feature-gates=APIPriorityAndFairness=false',
    // Our control planes serve no webhook configurations: webhook admission, which calls none
    // while none is configured, is left out rather than waiting for their informers.
    '--disable-admission-plugins=MutatingAdmissionWebhook,ValidatingAdmissionWebhook,ValidatingAdmissionPolicy',
    ...(process.env['BENCH_KUBE_ARGS'] ?? '').split(' ').filter(Boolean),
  ];
  const proc: ChildProcess = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  proc.stderr?.on('data', (d: Buffer) => void (log = (log + d.toString()).slice(-8192)));
  const stop = async (): Promise<void> => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
    }
    await etcd.close();
    rmSync(certDir, { recursive: true, force: true });
  };
  try {
    // Its serving certificate is self-signed into --cert-dir at start; trust that one.
    const deadline = Date.now() + 60_000;
    let credentials: Credentials | undefined;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`${bin} exited (${proc.exitCode}): ${log}`);
      try {
        credentials = { ...core.credentials, server: `https://127.0.0.1:${port}`, caPEM: readFileSync(join(certDir, 'apiserver.crt'), 'utf8') };
        const probe = new LoadClient(credentials, 1);
        try {
          await probe.expect(200, 'GET', '/readyz');
        } finally {
          await probe.close();
        }
        break;
      } catch (e) {
        if (Date.now() > deadline) throw new Error(`${bin} not ready in 60 s: ${String(e)}\n${log}`, { cause: e });
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    const coreLoad = new LoadClient(core.credentials, 1);
    return {
      credentials,
      pid: proc.pid ?? -1,
      storePids: etcdPids(etcd),
      // NamespaceLifecycle looks namespaces up in the delegation core.
      namespace: async (ns) => {
        if ((await coreLoad.get(`/api/v1/namespaces/${ns}`)).status === 404) await postNamespace(coreLoad, ns);
      },
      stop: async () => {
        await coreLoad.close();
        await stop();
      },
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
