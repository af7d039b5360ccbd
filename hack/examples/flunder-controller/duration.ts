// Go's time.ParseDuration for the --leader-elect-* flags, which kube's components take as Go
// durations (`15s`, `500ms`, `1m30s`). Returns milliseconds; errors carry Go's messages.
const UNIT_MS: ReadonlyMap<string, number> = new Map([
  ['ns', 1e-6],
  ['us', 1e-3],
  ['µs', 1e-3],
  ['μs', 1e-3],
  ['ms', 1],
  ['s', 1e3],
  ['m', 60e3],
  ['h', 3600e3],
]);

export function parseDuration(input: string): number {
  const quoted = JSON.stringify(input);
  let s = input;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    sign = s.startsWith('-') ? -1 : 1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') throw new Error(`time: invalid duration ${quoted}`);
  let total = 0;
  // Bounded: every round consumes at least one character.
  while (s !== '') {
    const num = /^(\d*)(?:\.(\d*))?/.exec(s)?.[0] ?? '';
    if (num === '' || num === '.') throw new Error(`time: invalid duration ${quoted}`);
    s = s.slice(num.length);
    const unit = /^[^\d.]*/.exec(s)?.[0] ?? '';
    if (unit === '') throw new Error(`time: missing unit in duration ${quoted}`);
    const scale = UNIT_MS.get(unit);
    if (scale === undefined) throw new Error(`time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`);
    s = s.slice(unit.length);
    total += Number(num) * scale;
  }
  if (!Number.isFinite(total)) throw new Error(`time: invalid duration ${quoted}`);
  return sign * total;
}
