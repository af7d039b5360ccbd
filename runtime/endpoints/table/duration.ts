/**
 * HumanDuration (k8s.io/apimachinery/pkg/util/duration): a duration with about two significant
 * figures, as kubectl shows ages (`45s`, `5m`, `3h10m`, `2d`, `3y40d`). Up to one second in the
 * future reads as `0s` (clock skew); further in the future is `<invalid>`.
 */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    const years = Math.trunc(hours / 24 / 365);
    return dy === 0 ? `${years}y` : `${years}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/**
 * ConvertToHumanReadableDateType for a metav1.Time as serialized: `<unknown>` for an empty or
 * null time, `<invalid>` when it does not parse, else the age relative to `now`.
 */
export function humanAge(timestamp: unknown, now: number): string {
  if (timestamp === undefined || timestamp === null || timestamp === '' || timestamp === 'null') return '<unknown>';
  if (typeof timestamp !== 'string') return '<invalid>';
  const t = Date.parse(timestamp);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(timestamp) || Number.isNaN(t)) return '<invalid>';
  return humanDuration(now - t);
}
