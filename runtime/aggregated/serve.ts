// `npm run serve-aggregated`: a standalone aggregated API server (kube's sample-apiserver) for
// groups from apis/, to run beside `npm start` and register with an APIService. The ready line
// reports the time since the process started.
import { AGGREGATED_SERVER_NAME, startAggregatedServer } from './server.js';
import { OptionsError, parseAggregatedServerOptions, USAGE } from './options.js';

async function main(): Promise<number> {
  let options;
  try {
    options = parseAggregatedServerOptions(process.argv.slice(2));
  } catch (err) {
    if (err instanceof OptionsError) {
      console.error(`Error: ${err.message}`);
      return 2;
    }
    throw err;
  }
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const { help: _help, ...serverOptions } = options;
  let server;
  try {
    server = await startAggregatedServer(serverOptions);
  } catch (err) {
    if (err instanceof OptionsError) {
      console.error(`Error: ${err.message}`);
      return 2;
    }
    throw err;
  }
  const name = AGGREGATED_SERVER_NAME;
  console.log(`${name}: serving ${server.groups.join(', ')} on ${server.url} (storage: ${server.storageDescription})`);
  if (server.servingCA !== undefined) console.log(`${name}: serving CA ${server.servingCA.file} (the APIService's caBundle: base64 -w0 ${server.servingCA.file})`);
  if (!server.namespaceLifecycle) console.log(`${name}: no --kubeconfig: namespaces are not checked`);
  console.log(`${name}: ready in ${Math.round(performance.now())} ms`);

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) return;
      stopping = true;
      console.log(`${name}: ${signal} received, draining in-flight requests`);
      server.stop().then(
        () => resolve(0),
        (err: unknown) => {
          console.error(`${name}: shutdown failed:`, err);
          resolve(1);
        },
      );
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`${AGGREGATED_SERVER_NAME}:`, err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
