/**
 * Go's time.ParseDuration, the syntax of every duration kube reads as text: metav1.Duration
 * fields, the `timeout` query parameter, and command-line flags such as --leader-elect-lease-duration
 * (`32s`, `1m30s`, `500ms`, `1.5h`, `-2s`). Returns milliseconds, fractions of a millisecond kept.
 * Throws an Error carrying Go's message (`time: invalid duration "x"`, `time: missing unit in
 * duration "1"`, `time: unknown unit "d" in duration "1d"`), which callers pass on as kube does
 * (the request-deadline filter to the client, a flag parser after `invalid argument`).
 */
export function parseGoDuration(input: string): number {
  const quoted = JSON.stringify(input);
  const invalid = (): Error => new Error(`time: invalid duration ${quoted}`);
  let s = input;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw invalid();
  let totalNs = 0;
  while (s !== '') {
    const num = /^(\d*)(?:\.(\d*))?/.exec(s);
    const whole = num?.[1] ?? '';
    const frac = num?.[2];
    if (whole === '' && (frac === undefined || frac === '')) throw invalid();
    s = s.slice(num![0].length);
    const unitMatch = /^[^\d.]*/.exec(s);
    const unit = unitMatch?.[0] ?? '';
    if (unit === '') throw new Error(`time: missing unit in duration ${quoted}`);
    const scale = UNIT_NS[unit];
    if (scale === undefined) throw new Error(`time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`);
    s = s.slice(unit.length);
    totalNs += Number(`${whole || '0'}.${frac ?? ''}0`) * scale;
    if (totalNs > MAX_DURATION_NS) throw invalid();
  }
  return (sign * totalNs) / 1e6;
}

const UNIT_NS: Readonly<Record<string, number>> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

/** time.Duration is an int64 of nanoseconds; math.MaxInt64 as a double is 2^63, its nearest. */
const MAX_DURATION_NS = 2 ** 63;
