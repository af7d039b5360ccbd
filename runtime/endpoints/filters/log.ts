/**
 * Where the filters report what the client must not see (panics, failed authenticators,
 * post-timeout errors). Structured like klog.ErrorS: a message and key/value details.
 */
export interface Logger {
  error(message: string, details?: Readonly<Record<string, unknown>>): void;
  info(message: string, details?: Readonly<Record<string, unknown>>): void;
}

/** Writes one JSON line per entry to stderr. */
export const consoleLogger: Logger = {
  error: (message, details) => process.stderr.write(`${JSON.stringify({ level: 'error', time: new Date().toISOString(), msg: message, ...serialize(details) })}\n`),
  info: (message, details) => process.stderr.write(`${JSON.stringify({ level: 'info', time: new Date().toISOString(), msg: message, ...serialize(details) })}\n`),
};

/** Drops everything (tests that provoke errors on purpose). */
export const silentLogger: Logger = { error: () => {}, info: () => {} };

function serialize(details: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(details ?? {})) out[k] = v instanceof Error ? (v.stack ?? v.message) : v;
  return out;
}
