import { spawn } from 'node:child_process';
import type { ExecConfig, ExecPluginOptions } from './types.js';

/** The plugin's input variable. */
export const EXEC_INFO_ENV = 'KUBERNETES_EXEC_INFO';

/** More output than any credential needs: the plugin is killed rather than buffered without bound. */
const MAX_STDOUT_BYTES = 1 << 20;

/** client-go's text after "executable … not found", then the user's installHint. */
const INSTALL_HINT_HELP = `

It looks like you are trying to use a client-go credential plugin that is not installed.

To learn more about this feature, consult the documentation available at:
      https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins`;

/** The plugin could not be run or failed; the message is client-go's where it has one. */
export class ExecPluginError extends Error {
  override readonly name = 'ExecPluginError';
}

export interface PluginRun {
  /** KUBERNETES_EXEC_INFO: the encoded ExecCredential request. */
  readonly execInfo: string;
  /** Pass this process's standard input (an interactive run). */
  readonly interactive: boolean;
}

/**
 * Runs the command without a shell, its environment this process's plus the configured
 * variables plus KUBERNETES_EXEC_INFO (which the configuration cannot override), standard
 * input only when interactive, standard error to ours; resolves with standard output once it
 * exits 0.
 */
export function runExecPlugin(config: ExecConfig, run: PluginRun, opts: ExecPluginOptions = {}): Promise<Buffer> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const v of config.env ?? []) env[v.name] = v.value;
  env[EXEC_INFO_ENV] = run.execInfo;
  return new Promise((resolve, reject) => {
    const child = spawn(config.command, [...(config.args ?? [])], { env, stdio: [run.interactive ? 'inherit' : 'ignore', 'pipe', opts.stderr ?? 'inherit'], shell: false });
    const chunks: Buffer[] = [];
    let size = 0;
    let failure: ExecPluginError | undefined;
    const stop = (e: ExecPluginError): void => {
      failure ??= e;
      child.kill('SIGKILL');
    };
    const timer =
      opts.timeoutMs !== undefined && opts.timeoutMs > 0
        ? setTimeout(() => stop(new ExecPluginError(`exec: executable ${config.command} did not finish within ${opts.timeoutMs} ms`)), opts.timeoutMs)
        : undefined;
    child.stdout?.on('data', (d: Buffer) => {
      size += d.length;
      if (size > MAX_STDOUT_BYTES) stop(new ExecPluginError(`exec: executable ${config.command} wrote more than ${MAX_STDOUT_BYTES} bytes to standard output`));
      else chunks.push(d);
    });
    child.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(failure ?? spawnError(config, e));
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      if (failure !== undefined) reject(failure);
      // Killed by a signal: Go's ExitCode() is -1.
      else if (code !== 0) reject(new ExecPluginError(`exec: executable ${config.command} failed with exit code ${code ?? -1}`));
      else resolve(Buffer.concat(chunks));
    });
  });
}

/** A command that cannot be started: not found (with the install hint), or not executable. */
function spawnError(config: ExecConfig, e: NodeJS.ErrnoException): ExecPluginError {
  if (e.code === 'ENOENT') {
    const hint = config.installHint !== undefined && config.installHint !== '' ? `\n\n${config.installHint}` : '';
    return new ExecPluginError(`exec: executable ${config.command} not found${INSTALL_HINT_HELP}${hint}`, { cause: e });
  }
  return new ExecPluginError(`exec: fork/exec ${config.command}: ${e.message}`, { cause: e });
}
