import { runServerCommand } from '../controlplane/command.js';
import type { APIGroupDefinition } from '../registry/types.js';
import { parseAggregatedServerOptions, USAGE } from './options.js';
import { AGGREGATED_SERVER_NAME, startAggregatedServer } from './server.js';

export interface RunAggregatedServerOptions {
  /** The project's API groups (its generated index); --groups chooses among them. */
  readonly groups: readonly APIGroupDefinition[];
  /** The command line's flags; default the process's. */
  readonly argv?: readonly string[];
}

/**
 * The standalone aggregated API server command (kube's sample-apiserver) serving a project's
 * groups, to run beside a control plane and register with an APIService: parses the flags,
 * starts, prints the ready lines (the last one with the time since the process started), and
 * shuts down on SIGTERM or SIGINT.
 */
export function runAggregatedServer({ groups, argv }: RunAggregatedServerOptions): void {
  runServerCommand(
    {
      name: AGGREGATED_SERVER_NAME,
      usage: USAGE,
      parse: parseAggregatedServerOptions,
      async start(options) {
        const server = await startAggregatedServer(groups, options);
        return {
          readyLines: [
            `serving ${server.groups.join(', ')} on ${server.url} (storage: ${server.storageDescription})`,
            ...(server.servingCA !== undefined ? [`serving CA ${server.servingCA.file} (the APIService's caBundle: base64 -w0 ${server.servingCA.file})`] : []),
            ...(server.namespaceLifecycle ? [] : ['no --kubeconfig: namespaces are not checked']),
            ...(server.delegatedAuthorization ? [] : ['no --authorization-kubeconfig or --kubeconfig: every authenticated request is allowed']),
            `ready in ${Math.round(performance.now())} ms`,
          ],
          stop: () => server.stop(),
        };
      },
    },
    argv,
  );
}
