/**
 * The two wire forms of a time the lock handles: a Lease's MicroTime (RFC
 * 3339, UTC, six fractional digits: metav1.MicroTime) and the election
 * record's metav1.Time (whole seconds), whose JSON is what the elector
 * compares to notice that another client renewed.
 */

const RFC3339_UTC = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z$/;

/** A MicroTime for a clock reading (milliseconds since the epoch, fractions kept to the microsecond). */
export function microTimeFromMillis(ms: number): string {
  const us = Math.floor(ms * 1000);
  const seconds = Math.floor(us / 1e6);
  return `${secondsPart(seconds)}.${String(us - seconds * 1e6).padStart(6, '0')}Z`;
}

/**
 * A time read from a Lease, in the form client-go writes it back: UTC with
 * six fractional digits (more are truncated, as Go's MicroTime marshals).
 * Undefined for a missing or unparseable time (Go's zero time).
 */
export function normalizeMicroTime(s: string | null | undefined): string | undefined {
  if (typeof s !== 'string' || s === '') return undefined;
  const m = RFC3339_UTC.exec(s);
  if (m !== null) return `${m[1]}.${(m[2] ?? '').padEnd(6, '0').slice(0, 6)}Z`;
  const ms = Date.parse(s);
  if (Number.isNaN(ms)) return undefined;
  // An offset other than Z: Date keeps milliseconds only, which is all such a writer sent that we can honour.
  const sub = /\.(\d{4,9})/.exec(s)?.[1]?.slice(3, 6).padEnd(3, '0') ?? '000';
  return `${new Date(ms).toISOString().slice(0, 23)}${sub}Z`;
}

/** The record's metav1.Time JSON for a MicroTime: whole seconds, UTC; null for the zero time. */
export function secondsTimeJSON(micro: string | undefined): string | null {
  if (micro === undefined) return null;
  const ms = Date.parse(micro);
  return Number.isNaN(ms) ? null : `${secondsPart(Math.floor(ms / 1000))}Z`;
}

function secondsPart(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19);
}
