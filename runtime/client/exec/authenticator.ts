import { isatty } from 'node:tty';
import { decodeExecResponse, encodeExecRequest, type ExecCluster, type ExecCredentials } from './credential.js';
import { ExecPluginError, runExecPlugin } from './plugin.js';
import { EXEC_API_VERSIONS, type ExecConfig, type ExecPluginOptions } from './types.js';

/** A configuration client-go refuses before running anything. */
export class ExecConfigError extends Error {
  override readonly name = 'ExecConfigError';
}

/**
 * The credentials of one exec plugin (client-go's exec.Authenticator). The plugin's answer is
 * kept until its expirationTimestamp has passed (or, without one, until the server answers
 * 401), and concurrent requests share one run, so an interactive plugin asks the user once.
 */
export class ExecAuthenticator {
  private cached: ExecCredentials | undefined;
  private running: Promise<ExecCredentials> | undefined;

  constructor(
    private readonly config: ExecConfig,
    private readonly cluster: ExecCluster | undefined,
    private readonly now: () => number,
    private readonly opts: ExecPluginOptions = {},
  ) {
    if (!EXEC_API_VERSIONS.includes(config.apiVersion)) throw new ExecConfigError(`exec plugin: invalid apiVersion ${JSON.stringify(config.apiVersion)}`);
  }

  /** The current credentials, running the plugin when there are none or they expired. */
  credentials(): Promise<ExecCredentials> {
    const c = this.cached;
    // Expired strictly after the timestamp, as credsExpired compares.
    if (c !== undefined && (c.expiresAt === undefined || this.now() <= c.expiresAt)) return Promise.resolve(c);
    this.running ??= this.refresh().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /**
   * The server answered 401 to a request sent with `used`: they are dropped, unless another
   * run replaced them already, so the next request runs the plugin again (maybeRefreshCreds).
   */
  unauthorized(used: ExecCredentials): void {
    if (this.cached === used) this.cached = undefined;
  }

  private async refresh(): Promise<ExecCredentials> {
    const interactive = this.interactive();
    const execInfo = encodeExecRequest(this.config.apiVersion, interactive, this.config.provideClusterInfo === true ? this.cluster : undefined);
    const stdout = await runExecPlugin(this.config, { execInfo, interactive }, this.opts);
    const creds = decodeExecResponse(stdout, this.config.apiVersion);
    this.cached = creds;
    return creds;
  }

  /** isInteractive: Never, IfAvailable (when standard input is a terminal), Always (which requires one). */
  private interactive(): boolean {
    const tty = (this.opts.stdinIsTerminal ?? (() => isatty(0)))();
    switch (this.config.interactiveMode) {
      case 'Never':
        return false;
      case 'IfAvailable':
        return tty;
      case 'Always':
        if (!tty) throw new ExecPluginError('exec plugin cannot support interactive mode: standard input is not a terminal');
        return true;
      default:
        throw new ExecPluginError(`exec plugin cannot support interactive mode: unknown interactiveMode: ${JSON.stringify(this.config.interactiveMode)}`);
    }
  }
}
