// `npm start`: the control plane command (kube-apiserver + apiextensions-apiserver + kube-aggregator
// in one process) on the embedded SQLite store unless told otherwise. The ready line reports the
// time since the process started (performance.now() counts from the time origin).
import { runServerCommand } from './command.js';
import { startControlPlane } from './controlplane.js';
import { parseServerRunOptions, USAGE } from './options.js';

runServerCommand({
  name: 'kube-ts-apiserver',
  usage: USAGE,
  parse: parseServerRunOptions,
  async start(options) {
    const cp = await startControlPlane(options);
    return {
      readyLines: [
        `serving on ${cp.url} (storage: ${cp.storageDescription})`,
        `ready in ${Math.round(performance.now())} ms. Try: kubectl --kubeconfig ${cp.kubeconfigPath} api-resources`,
      ],
      stop: () => cp.stop(),
    };
  },
});
