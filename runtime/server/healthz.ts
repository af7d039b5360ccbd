import { newPathNotFound } from '../apimachinery/errors/index.js';
import type { Logger } from '../endpoints/filters/log.js';
import type { APIRequest, APIResponse, Handler } from '../apimachinery/request/http.js';
import type { PathRecorderMux } from './mux.js';

/**
 * One named health check (kube's healthz.HealthChecker). `check` resolves when healthy and
 * rejects with the reason otherwise; the reason goes to the log and to `/<endpoint>/<name>`,
 * never to the aggregate endpoint. `signal` aborts when the client goes away.
 */
export interface HealthChecker {
  readonly name: string;
  check(signal: AbortSignal): Promise<void>;
}

/** Always healthy: proves the server answers at all. */
export const pingCheck: HealthChecker = { name: 'ping', check: () => Promise.resolve() };

/** Fails once `shutdownInitiated` aborts, so load balancers stop sending requests before the drain. */
export function shutdownCheck(shutdownInitiated: AbortSignal): HealthChecker {
  return {
    name: 'shutdown',
    check: () => (shutdownInitiated.aborted ? Promise.reject(new Error('process is shutting down')) : Promise.resolve()),
  };
}

export type HealthEndpoint = 'healthz' | 'livez' | 'readyz';

/**
 * Installs `/<endpoint>` and `/<endpoint>/<check>` (kube's InstallPathHandler). The checks are
 * read per request, so checks added later are served at once.
 *
 * `/<endpoint>`: runs every check not named by `?exclude=`; all pass → 200 `ok`, or with
 * `?verbose` one `[+]<name> ok` line per check and `<endpoint> check passed`; any fails → 500
 * with one line per check (`[-]<name> failed: reason withheld`) and `<endpoint> check failed`.
 * `/<endpoint>/<check>`: 200 `ok`, or 500 `internal server error: <reason>`.
 */
export function installHealthEndpoint(mux: PathRecorderMux, endpoint: HealthEndpoint, checks: () => readonly HealthChecker[], logger: Logger): void {
  mux.handle(`/${endpoint}`, rootHealthHandler(endpoint, checks, logger), { replace: true });
  mux.handlePrefix(`/${endpoint}/`, singleCheckHandler(endpoint, checks), { replace: true, listed: false });
}

function rootHealthHandler(endpoint: HealthEndpoint, checks: () => readonly HealthChecker[], logger: Logger): Handler {
  return async (req, res) => {
    const excluded = new Set(req.query.getAll('exclude'));
    const list = checks();
    const results = await Promise.all(list.map((c) => (excluded.has(c.name) ? Promise.resolve('excluded' as const) : runCheck(c, req.signal))));
    let out = '';
    const failed: string[] = [];
    const reasons: string[] = [];
    list.forEach((c, i) => {
      const r = results[i]!;
      if (r === 'excluded') {
        excluded.delete(c.name);
        out += `[+]${c.name} excluded: ok\n`;
      } else if (r === 'ok') {
        out += `[+]${c.name} ok\n`;
      } else {
        out += `[-]${c.name} failed: reason withheld\n`;
        failed.push(c.name);
        reasons.push(`[-]${c.name} failed: ${r.error}`);
      }
    });
    if (excluded.size > 0) {
      out += `warn: some health checks cannot be excluded: no matches for ${[...excluded].map((n) => JSON.stringify(n)).join(',')}\n`;
    }
    if (failed.length > 0) {
      logger.info(`${failed.join(',')} check failed: ${endpoint}`, { reasons });
      writeText(res, 500, `${out}${endpoint} check failed\n`);
      return;
    }
    writeText(res, 200, req.query.has('verbose') ? `${out}${endpoint} check passed\n` : 'ok');
  };
}

function singleCheckHandler(endpoint: HealthEndpoint, checks: () => readonly HealthChecker[]): Handler {
  const prefix = `/${endpoint}/`;
  return async (req: APIRequest, res: APIResponse) => {
    const name = req.path.slice(prefix.length);
    const check = checks().find((c) => c.name === name);
    if (!check) {
      res.writeError(newPathNotFound());
      return;
    }
    const r = await runCheck(check, req.signal);
    if (r === 'ok') writeText(res, 200, 'ok');
    else writeText(res, 500, `internal server error: ${r.error}\n`);
  };
}

async function runCheck(check: HealthChecker, signal: AbortSignal): Promise<'ok' | { error: string }> {
  try {
    await check.check(signal);
    return 'ok';
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

function writeText(res: APIResponse, code: number, body: string): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.writeBytes(code, body, 'text/plain; charset=utf-8');
}
