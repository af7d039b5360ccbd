/**
 * Where the client runtime reports what it recovers from on its own (watch
 * errors, handler exceptions). Same shape as the server filters' Logger, so
 * either can be passed.
 */
export interface Logger {
  error(message: string, details?: Readonly<Record<string, unknown>>): void;
  info(message: string, details?: Readonly<Record<string, unknown>>): void;
}

/** One JSON line per entry on stderr. */
export const stderrLogger: Logger = {
  error: (message, details) => write('error', message, details),
  info: (message, details) => write('info', message, details),
};

/** Drops everything (tests that provoke failures on purpose). */
export const silentLogger: Logger = { error: () => {}, info: () => {} };

function write(level: string, msg: string, details: Readonly<Record<string, unknown>> | undefined): void {
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(details ?? {})) fields[k] = v instanceof Error ? v.message : v;
  process.stderr.write(`${JSON.stringify({ level, time: new Date().toISOString(), msg, ...fields })}\n`);
}
