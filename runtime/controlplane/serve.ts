// `npm start`: the control plane command (kube-apiserver + apiextensions-apiserver + kube-aggregator
// in one process) on the embedded SQLite store unless told otherwise. The ready line reports the
// time since the process started (performance.now() counts from the time origin).
import { startControlPlane } from './controlplane.js';
import { OptionsError, parseServerRunOptions, USAGE } from './options.js';


async function main(): Promise<number> {
  let options;
  try {
    options = parseServerRunOptions(process.argv.slice(2));
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
  const cp = await startControlPlane(serverOptions);
  console.log(`kube-ts-apiserver: serving on ${cp.url} (storage: ${cp.storageDescription})`);
  console.log(`kube-ts-apiserver: ready in ${Math.round(performance.now())} ms. Try: kubectl --kubeconfig ${cp.kubeconfigPath} api-resources`);

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) return;
      stopping = true;
      console.log(`kube-ts-apiserver: ${signal} received, draining in-flight requests`);
      cp.stop().then(
        () => resolve(0),
        (err: unknown) => {
          console.error('kube-ts-apiserver: shutdown failed:', err);
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
    console.error('kube-ts-apiserver:', err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
