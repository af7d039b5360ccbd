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
  /**
   * Whether the stop signals are handled from before the server starts (default true, as kube's
   * commands set up their signal handler first): a signal during the start stops the server as
   * soon as it is up, instead of killing the process half-started. A --workers worker leaves the
   * signal's default action until it serves: a worker still starting has nothing to drain, and
   * ends by the signal at once.
   */
  readonly handleSignalsDuringStart?: boolean;
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
  let options: O;
  try {
    const { help, ...rest } = cmd.parse(argv);
    if (help) {
      console.log(cmd.usage);
      return 0;
    }
    options = rest as O;
  } catch (err) {
    if (err instanceof OptionsError) {
      console.error(`Error: ${err.message}`);
      return 2;
    }
    throw err;
  }
  const shutdown = new ShutdownSignals(cmd);
  if (cmd.handleSignalsDuringStart ?? true) shutdown.listen();
  let server: RunningServer;
  try {
    server = await cmd.start(options);
  } catch (err) {
    if (err instanceof OptionsError) {
      console.error(`Error: ${err.message}`);
      return 2;
    }
    throw err;
  }
  if (cmd.announce !== undefined) cmd.announce(server);
  else for (const line of server.readyLines) console.log(`${cmd.name}: ${line}`);
  shutdown.listen();
  return shutdown.serve(server);
}

/**
 * The stop signals of a command (kube's SetupSignalHandler): the first drains the server, at
 * once if it serves, else as soon as it does; a second exits 1 at once (unless the command
 * leaves that to its supervisor).
 */
class ShutdownSignals {
  private listening = false;
  private received: string | undefined;
  private server: RunningServer | undefined;
  private resolveExit: (code: number) => void = () => {};
  private readonly exit = new Promise<number>((resolve) => (this.resolveExit = resolve));

  constructor(private readonly cmd: ServerCommand<unknown>) {}

  listen(): void {
    if (this.listening) return;
    this.listening = true;
    for (const signal of this.cmd.stopSignals ?? ['SIGTERM', 'SIGINT']) process.on(signal, () => this.onSignal(signal));
  }

  /** Resolves with the exit code once the server has stopped. */
  serve(server: RunningServer): Promise<number> {
    this.server = server;
    if (this.received !== undefined) this.drain(server);
    return this.exit;
  }

  private onSignal(signal: string): void {
    if (this.received !== undefined) {
      if (this.cmd.exitOnSecondSignal ?? true) process.exit(1);
      return;
    }
    this.received = signal;
    console.log(`${this.cmd.name}: ${signal} received, draining in-flight requests`);
    if (this.server !== undefined) this.drain(this.server);
  }

  private drain(server: RunningServer): void {
    server.stop().then(
      () => this.resolveExit(0),
      (err: unknown) => {
        console.error(`${this.cmd.name}: shutdown failed:`, err);
        this.resolveExit(1);
      },
    );
  }
}
