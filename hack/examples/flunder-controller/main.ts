// The example Flunder controller as a command: finds its server like kubectl (--kubeconfig,
// else KUBECONFIG, else ~/.kube/config, else the pod's service account) and runs until SIGINT
// or SIGTERM. Against this repository's server: `npm start`, then
//   node --conditions=source --import tsx hack/examples/flunder-controller/main.ts --kubeconfig .kube-ts/admin.kubeconfig
// Against any cluster: `kubectl apply -f generated/crds/` first.
import { parseArgs } from 'node:util';
import { Clientset } from '../../../generated/clientset/index.js';
import { SharedInformerFactory } from '../../../generated/informers/factory.js';
import { newSharedInformerFactoryCore, restClientFromKubeconfig } from '../../../runtime/client/index.js';
import { runFlunderController } from './controller.js';

const USAGE = `Usage: flunder-controller [--kubeconfig FILE] [--context NAME] [--namespace NS] [--workers N] [--resync MS]

Writes status.conditions (ReferenceResolved, Allowed) of every Flunder (wardle.example.com/v1alpha1).
  --kubeconfig FILE   Default: KUBECONFIG, else ~/.kube/config, else the in-cluster service account.
  --context NAME      A context of the kubeconfig other than its current one.
  --namespace NS      Only Flunders of this namespace (default: all namespaces).
  --workers N         Flunders reconciled at once (default 2).
  --resync MS         Re-reconcile every Flunder this often (default 0: only on changes).
`;

function options(): { kubeconfig?: string; context?: string; namespace?: string; workers: number; resyncMs: number } {
  const { values } = parseArgs({
    options: {
      kubeconfig: { type: 'string' },
      context: { type: 'string' },
      namespace: { type: 'string', short: 'n' },
      workers: { type: 'string' },
      resync: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const int = (flag: string, v: string | undefined, dflt: number): number => {
    if (v === undefined) return dflt;
    if (!/^\d+$/.test(v)) throw new Error(`--${flag}: ${JSON.stringify(v)} is not a non-negative integer\n\n${USAGE}`);
    return Number(v);
  };
  return {
    ...(values.kubeconfig !== undefined ? { kubeconfig: values.kubeconfig } : {}),
    ...(values.context !== undefined ? { context: values.context } : {}),
    ...(values.namespace !== undefined ? { namespace: values.namespace } : {}),
    workers: int('workers', values.workers, 2),
    resyncMs: int('resync', values.resync, 0),
  };
}

async function main(): Promise<void> {
  const o = options();
  const { rest, context } = restClientFromKubeconfig({
    ...(o.kubeconfig !== undefined ? { path: o.kubeconfig } : {}),
    ...(o.context !== undefined ? { context: o.context } : {}),
  });
  const clientset = new Clientset(rest);
  const informers = new SharedInformerFactory(
    clientset,
    newSharedInformerFactoryCore({
      defaultResyncMs: o.resyncMs,
      ...(o.namespace !== undefined ? { namespace: o.namespace } : {}),
    }),
  );
  const stop = new AbortController();
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => stop.abort());
  process.stdout.write(
    `flunder-controller: ${rest.config.baseURL.href} (context ${context === '' ? 'in-cluster' : context}), ` + `${o.namespace === undefined ? 'all namespaces' : `namespace ${o.namespace}`}\n`,
  );
  try {
    await runFlunderController({ clientset, informers, workers: o.workers }, stop.signal);
  } finally {
    rest.close();
  }
  process.stdout.write('flunder-controller: stopped\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`flunder-controller: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
