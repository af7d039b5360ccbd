// The example Flunder controller as a command: finds its server like kubectl (--kubeconfig,
// else KUBECONFIG, else ~/.kube/config, else the pod's service account) and runs until SIGINT
// or SIGTERM. As kube's controllers, it runs under leader election by default: replicas campaign
// for the Lease kube-system/flunder-controller and only the leader's workers run. Against this
// repository's server: `npm start`, then
//   node --conditions=source --import tsx hack/examples/flunder-controller/main.ts --kubeconfig .kube-ts/admin.kubeconfig
// Against any cluster: `kubectl apply -f generated/crds/` first.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { Clientset } from '../../../generated/clientset/index.js';
import { SharedInformerFactory } from '../../../generated/informers/factory.js';
import { leaderelection, newSharedInformerFactoryCore, parseGoDuration, record, restClientFromKubeconfig } from '../../../runtime/client/index.js';
import { runFlunderController } from './controller.js';

const USAGE = `Usage: flunder-controller [--kubeconfig FILE] [--context NAME] [--namespace NS] [--workers N] [--resync MS] [--leader-elect=false] [--leader-elect-* ...]

Writes status.conditions (ReferenceResolved, Allowed) of every Flunder (wardle.example.com/v1alpha1).
  --kubeconfig FILE   Default: KUBECONFIG, else ~/.kube/config, else the in-cluster service account.
  --context NAME      A context of the kubeconfig other than its current one.
  --namespace NS      Only Flunders of this namespace (default: all namespaces).
  --workers N         Flunders reconciled at once (default 2).
  --resync MS         Re-reconcile every Flunder this often (default 0: only on changes).
  --leader-elect                        Run only while leading an election among replicas (default true).
  --leader-elect-lease-duration D       How long followers wait before taking over an unrenewed lease (default 15s).
  --leader-elect-renew-deadline D       How long the leader retries renewing before it stops leading (default 10s).
  --leader-elect-retry-period D         The wait between tries to acquire or renew (default 2s).
  --leader-elect-resource-name NAME     The Lease's name (default flunder-controller).
  --leader-elect-resource-namespace NS  The Lease's namespace (default kube-system).
`;

interface Options {
  kubeconfig?: string;
  context?: string;
  namespace?: string;
  workers: number;
  resyncMs: number;
  leaderElect: boolean;
  leaseDuration: number;
  renewDeadline: number;
  retryPeriod: number;
  leaseName: string;
  leaseNamespace: string;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      kubeconfig: { type: 'string' },
      context: { type: 'string' },
      namespace: { type: 'string', short: 'n' },
      workers: { type: 'string' },
      resync: { type: 'string' },
      'leader-elect': { type: 'string' },
      'leader-elect-lease-duration': { type: 'string', default: '15s' },
      'leader-elect-renew-deadline': { type: 'string', default: '10s' },
      'leader-elect-retry-period': { type: 'string', default: '2s' },
      'leader-elect-resource-name': { type: 'string', default: 'flunder-controller' },
      'leader-elect-resource-namespace': { type: 'string', default: 'kube-system' },
      help: { type: 'boolean', short: 'h' },
    },
    // `--leader-elect` alone means true, as Go's boolean flags: parseArgs reads it as a string flag without a value.
    args: process.argv.slice(2).map((a) => (a === '--leader-elect' ? '--leader-elect=true' : a)),
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
  const duration = (flag: string, v: string): number => {
    try {
      return parseGoDuration(v);
    } catch (e) {
      throw new Error(`invalid argument ${JSON.stringify(v)} for "--${flag}" flag: ${e instanceof Error ? e.message : String(e)}\n\n${USAGE}`, { cause: e });
    }
  };
  const elect = values['leader-elect'] ?? 'true';
  if (!/^(true|false)$/.test(elect)) throw new Error(`invalid argument ${JSON.stringify(elect)} for "--leader-elect" flag: not true or false\n\n${USAGE}`);
  return {
    ...(values.kubeconfig !== undefined ? { kubeconfig: values.kubeconfig } : {}),
    ...(values.context !== undefined ? { context: values.context } : {}),
    ...(values.namespace !== undefined ? { namespace: values.namespace } : {}),
    workers: int('workers', values.workers, 2),
    resyncMs: int('resync', values.resync, 0),
    leaderElect: elect === 'true',
    leaseDuration: duration('leader-elect-lease-duration', values['leader-elect-lease-duration']),
    renewDeadline: duration('leader-elect-renew-deadline', values['leader-elect-renew-deadline']),
    retryPeriod: duration('leader-elect-retry-period', values['leader-elect-retry-period']),
    leaseName: values['leader-elect-resource-name'],
    leaseNamespace: values['leader-elect-resource-namespace'],
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
  // client-go's election identity: unique per process, so replicas on one host are told apart.
  // It is also the events' reporting instance, which says which replica did what.
  const identity = o.leaderElect ? `${hostname()}_${randomUUID()}` : hostname();
  const events = record.newBroadcaster();
  events.startRecordingToSink(new record.RESTEventSink(rest));
  const recorder = events.newRecorder({ component: 'flunder-controller', host: identity });

  // SIGTERM stops the workers first, then the election (which releases the lease), so a
  // successor never runs while this process still writes.
  const stopWorkers = new AbortController();
  const stopElection = new AbortController();
  let workers: Promise<void> = Promise.resolve();
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      stopWorkers.abort();
      void workers.finally(() => stopElection.abort());
    });
  }
  process.stdout.write(
    `flunder-controller: ${rest.config.baseURL.href} (context ${context === '' ? 'in-cluster' : context}), ` + `${o.namespace === undefined ? 'all namespaces' : `namespace ${o.namespace}`}\n`,
  );
  const run = (signal: AbortSignal): Promise<void> => runFlunderController({ clientset, informers, workers: o.workers, recorder }, signal);
  try {
    if (!o.leaderElect) {
      await run(stopWorkers.signal);
    } else {
      process.stdout.write(`flunder-controller: leader election on lease ${o.leaseNamespace}/${o.leaseName} as ${identity}\n`);
      const lock = new leaderelection.LeaseLock({ namespace: o.leaseNamespace, name: o.leaseName, client: rest, lockConfig: { identity, eventRecorder: recorder } });
      const elector = new leaderelection.LeaderElector({
        lock,
        name: o.leaseName,
        leaseDuration: o.leaseDuration,
        renewDeadline: o.renewDeadline,
        retryPeriod: o.retryPeriod,
        releaseOnCancel: true,
        callbacks: {
          onStartedLeading: (leading) => {
            process.stdout.write(`flunder-controller: started leading as ${identity}\n`);
            workers = run(AbortSignal.any([leading, stopWorkers.signal]));
            return workers;
          },
          onStoppedLeading: () => {
            // As kube's controller-manager: a lost lease ends the process, since the workers may
            // not have stopped yet while another replica already leads.
            if (!stopElection.signal.aborted) {
              process.stderr.write('flunder-controller: leaderelection lost\n');
              process.exit(1);
            }
          },
        },
      });
      await elector.run(stopElection.signal);
      await workers;
    }
  } finally {
    events.shutdown();
    rest.close();
  }
  process.stdout.write('flunder-controller: stopped\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`flunder-controller: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
