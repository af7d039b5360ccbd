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
  /** Says the server is ready instead of printing its ready lines (a --workers worker tells its primary). */
  readonly announce?: (server: RunningServer) => void;
  /**
   * The signals that shut the server down; default SIGTERM and SIGINT. A --workers worker stops
   * on SIGTERM only: its primary forwards that, while a terminal's SIGINT reaches every process
   * of the group and is the primary's to handle.
   */
  readonly stopSignals?: readonly NodeJS.Signals[];
  /**
   * Whether a second signal exits 1 at once (default true, as kube's handler). A --workers worker
   * ignores it: a supervisor (systemd's control group, `timeout`) may signal every process as
   * well as the primary, whose forwarded SIGTERM is then the second; the primary alone decides.
   */
  readonly exitOnSecondSignal?: boolean;
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
  if (cmd.announce !== undefined) cmd.announce(server);
  else for (const line of server.readyLines) console.log(`${cmd.name}: ${line}`);
  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: string): void => {
      if (stopping) {
        if (cmd.exitOnSecondSignal ?? true) process.exit(1);
        return;
      }
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
    for (const signal of cmd.stopSignals ?? ['SIGTERM', 'SIGINT']) process.on(signal, () => stop(signal));
  });
}
