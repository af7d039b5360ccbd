import type { APIGroupDefinition } from '../registry/types.js';
import type { ControlPlane, ControlPlaneOptions } from './controlplane.js';
import { runServerCommand } from './command.js';
import { prepareDataDirEarly } from './datadir.js';
import { parseServerRunOptions, USAGE } from './options.js';
import { workerEntry } from './workers/entry.js';
import { workerConnections } from './workers/handoff.js';
import { resolveWorkers } from './workers/flag.js';
import { workerIndex, workerPort, workerReady } from './workers/messages.js';
import { startPrimary } from './workers/primary.js';

const NAME = 'kube-ts-apiserver';

export interface RunControlPlaneOptions {
  /**
   * The project's API groups (its generated index); the built-in groups are always served. A
   * loader (a function that imports the project's generated index and returns its groups) is
   * called only in a process that serves: a --workers primary, which only supervises, then never
   * loads them.
   */
  readonly groups: readonly APIGroupDefinition[] | (() => Promise<readonly APIGroupDefinition[]>);
  /** The command line's flags; default the process's. */
  readonly argv?: readonly string[];
}

/**
 * The control plane command (kube-apiserver + apiextensions-apiserver + kube-aggregator in one
 * process) serving a project's groups: parses the flags, starts, prints the ready lines (the last
 * one with the time since the process started), and shuts down on SIGTERM or SIGINT.
 *
 * With --workers N (N > 1) this process only supervises N worker processes that each run the
 * whole control plane on the same port (workers/); a worker runs this same function and knows
 * itself by the index its primary gave it.
 */
export function runControlPlane({ groups, argv = process.argv.slice(2) }: RunControlPlaneOptions): void {
  const index = workerIndex();
  if (index !== undefined) {
    runWorker(groups, argv, index);
    return;
  }
  runServerCommand(
    {
      name: NAME,
      usage: USAGE,
      parse: parseServerRunOptions,
      async start(options) {
        const workers = resolveWorkers(options.workers);
        if (workers > 1) return startPrimary({ options, workers, exec: workerEntry(import.meta.url), args: argv });
        // Begun before the project's groups and the control plane load: a first start makes its
        // certificates on another thread meanwhile.
        const pki = prepareDataDirEarly(options);
        const cp = await startServing({ ...options, groups: await groupsOf(groups), ...(pki !== undefined ? { pki } : {}) });
        return {
          readyLines: [`serving on ${cp.url} (storage: ${cp.storageDescription})`, `ready in ${Math.round(performance.now())} ms. Try: kubectl --kubeconfig ${cp.kubeconfigPath} api-resources`],
          stop: () => cp.stop(),
        };
      },
    },
    argv,
  );
}

/**
 * One worker of --workers: the whole control plane, on the SQLite file in shared mode, campaigning
 * for the singleton controllers' Leases as `<identity>_<index>`; it serves the connections its
 * primary hands it (workers/handoff.ts) and only once ready (a restarted worker gets no connection
 * its /readyz would refuse), tells its primary when it serves instead of printing the ready lines,
 * and stops on the SIGTERM its primary forwards.
 */
function runWorker(groups: RunControlPlaneOptions['groups'], argv: readonly string[], index: number): void {
  // A terminal's Ctrl-C reaches every process of the group: the primary handles it for all.
  process.on('SIGINT', () => {});
  let ready: { url: string; storageDescription: string; kubeconfigPath: string } | undefined;
  runServerCommand(
    {
      name: `${NAME} worker ${index}`,
      usage: USAGE,
      parse: parseServerRunOptions,
      async start(options) {
        const port = workerPort();
        if (port === undefined) throw new Error('a --workers worker needs its primary: it was started without the port its primary listens on');
        const cp = await startServing({
          ...options,
          groups: await groupsOf(groups),
          identitySuffix: String(index),
          sqliteShared: true,
          connections: workerConnections(port),
        });
        ready = { url: cp.url, storageDescription: cp.storageDescription, kubeconfigPath: cp.kubeconfigPath };
        return { readyLines: [], stop: () => cp.stop() };
      },
      announce() {
        if (ready !== undefined) process.send?.(workerReady(ready));
      },
      stopSignals: ['SIGTERM'],
      exitOnSecondSignal: false,
      handleSignalsDuringStart: false,
    },
    argv,
  );
}

function groupsOf(groups: RunControlPlaneOptions['groups']): Promise<readonly APIGroupDefinition[]> {
  return typeof groups === 'function' ? groups() : Promise.resolve(groups);
}

/**
 * startControlPlane, loaded when this process serves: the control plane's modules (the handler
 * chain, storage, controllers) are then evaluated only in a serving process, never in a --workers
 * primary, which keeps to options, the PKI and the supervisor.
 */
async function startServing(options: ControlPlaneOptions): Promise<ControlPlane> {
  const { startControlPlane } = await import('./controlplane.js');
  return startControlPlane(options);
}
