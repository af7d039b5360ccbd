import { OptionsError } from '../server/options/flags.js';

/** What a server command starts: the lines it prints once serving, and how it stops. */
export interface RunningServer {
  readonly readyLines: readonly string[];
  stop(): Promise<void>;
}

export interface ServerCommand<O> {
  /** Prefixes every line the command prints (`kube-ts-apiserver`). */
  readonly name: string;
  readonly usage: string;
  /** Throws OptionsError on bad flags. */
  parse(argv: readonly string[]): O & { help: boolean };
  /** May throw OptionsError for options that only fail once completed (files, combinations). */
  start(options: O): Promise<RunningServer>;
}

/**
 * Runs a server command as kube's commands behave: bad flags print the error and exit 2,
 * `--help` prints the usage, the ready lines are printed once serving (the last one with the time
 * since the process started), and SIGTERM or SIGINT shut the server down gracefully (see
 * Serving.shutdown: every request it has read is answered, watches end cleanly) before exit 0
 * (1 if the shutdown fails). A second signal exits 1 at once, as kube's signal handler does.
 */
export function runServerCommand<O>(cmd: ServerCommand<O>, argv: readonly string[] = process.argv.slice(2)): void {
  main(cmd, argv).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`${cmd.name}:`, err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}

async function main<O>(cmd: ServerCommand<O>, argv: readonly string[]): Promise<number> {
  let server: RunningServer;
  try {
    const { help, ...options } = cmd.parse(argv);
    if (help) {
      console.log(cmd.usage);
      return 0;
    }
    server = await cmd.start(options as O);
  } catch (err) {
    if (err instanceof OptionsError) {
      console.error(`Error: ${err.message}`);
      return 2;
    }
    throw err;
  }
  for (const line of server.readyLines) console.log(`${cmd.name}: ${line}`);
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) process.exit(1);
      stopping = true;
      console.log(`${cmd.name}: ${signal} received, draining in-flight requests`);
      server.stop().then(
        () => resolve(0),
        (err: unknown) => {
          console.error(`${cmd.name}: shutdown failed:`, err);
          resolve(1);
        },
      );
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
  });
}
