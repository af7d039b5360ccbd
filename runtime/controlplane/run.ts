import type { APIGroupDefinition } from '../registry/types.js';
import { runServerCommand } from './command.js';
import { startControlPlane } from './controlplane.js';
import { parseServerRunOptions, USAGE } from './options.js';

export interface RunControlPlaneOptions {
  /** The project's API groups (its generated index); the built-in groups are always served. */
  readonly groups: readonly APIGroupDefinition[];
  /** The command line's flags; default the process's. */
  readonly argv?: readonly string[];
}

/**
 * The control plane command (kube-apiserver + apiextensions-apiserver + kube-aggregator in one
 * process) serving a project's groups: parses the flags, starts, prints the ready lines (the last
 * one with the time since the process started), and shuts down on SIGTERM or SIGINT.
 */
export function runControlPlane({ groups, argv }: RunControlPlaneOptions): void {
  runServerCommand(
    {
      name: 'kube-ts-apiserver',
      usage: USAGE,
      parse: parseServerRunOptions,
      async start(options) {
        const cp = await startControlPlane({ ...options, groups });
        return {
          readyLines: [`serving on ${cp.url} (storage: ${cp.storageDescription})`, `ready in ${Math.round(performance.now())} ms. Try: kubectl --kubeconfig ${cp.kubeconfigPath} api-resources`],
          stop: () => cp.stop(),
        };
      },
    },
    argv,
  );
}
