// `npm run serve-aggregated`: a standalone aggregated API server (kube's sample-apiserver) for
// groups from apis/, to run beside `npm start` and register with an APIService. The ready line
// reports the time since the process started.
import { runServerCommand } from '../controlplane/command.js';
import { parseAggregatedServerOptions, USAGE } from './options.js';
import { AGGREGATED_SERVER_NAME, startAggregatedServer } from './server.js';

runServerCommand({
  name: AGGREGATED_SERVER_NAME,
  usage: USAGE,
  parse: parseAggregatedServerOptions,
  async start(options) {
    const server = await startAggregatedServer(options);
    return {
      readyLines: [
        `serving ${server.groups.join(', ')} on ${server.url} (storage: ${server.storageDescription})`,
        ...(server.servingCA !== undefined ? [`serving CA ${server.servingCA.file} (the APIService's caBundle: base64 -w0 ${server.servingCA.file})`] : []),
        ...(server.namespaceLifecycle ? [] : ['no --kubeconfig: namespaces are not checked']),
        `ready in ${Math.round(performance.now())} ms`,
      ],
      stop: () => server.stop(),
    };
  },
});
