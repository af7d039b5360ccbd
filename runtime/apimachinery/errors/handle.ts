/**
 * utilruntime.HandleError: an error the server answers for (a 500) but that the client's
 * Status cannot explain to whoever runs the server, reported to the operator's log. Written as
 * one JSON line on stderr (klog.ErrorS's message and key/value details) unless a reporter is set.
 */
export interface ErrorReport {
  readonly message: string;
  readonly details: Readonly<Record<string, unknown>>;
}

export type ErrorReporter = (report: ErrorReport) => void;

const stderrReporter: ErrorReporter = ({ message, details }) => {
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(details)) fields[k] = v instanceof Error ? (v.stack ?? v.message) : v;
  process.stderr.write(`${JSON.stringify({ level: 'error', time: new Date().toISOString(), msg: message, ...fields })}\n`);
};

let reporter: ErrorReporter = stderrReporter;

export function handleError(message: string, details: Readonly<Record<string, unknown>> = {}): void {
  reporter({ message, details });
}

/** Sends reports to `next` (tests, an embedding program's logger); returns the function that puts the previous one back. */
export function setErrorReporter(next: ErrorReporter): () => void {
  const previous = reporter;
  reporter = next;
  return () => {
    reporter = previous;
  };
}
