/**
 * metav1.MicroTime's JSON form as kube-apiserver writes it back: whatever RFC 3339 time a client
 * sent (`2024-05-01T12:00:00+02:00`, `…T10:00:00Z`), kube parses it and marshals it in UTC with
 * exactly six fraction digits (`2024-05-01T10:00:00.000000Z`), truncating finer digits. A value
 * that is not RFC 3339 is returned unchanged, for schema validation to refuse.
 */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

export function normalizeMicroTime(value: string): string {
  const m = RFC3339.exec(value);
  if (m === null) return value;
  const [, y, mo, d, h, mi, s, frac = '', , sign, oh, om] = m;
  let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (Number.isNaN(ms)) return value;
  if (sign !== undefined) ms -= (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) * 60_000;
  const iso = new Date(ms).toISOString();
  // Years outside 0000–9999 have no RFC 3339 form: leave them to validation.
  if (!/^\d{4}-/.test(iso)) return value;
  return `${iso.slice(0, 19)}.${frac.slice(0, 6).padEnd(6, '0')}Z`;
}

/** Normalizes `obj[key]` in place when it holds a string. */
export function normalizeMicroTimeField<T extends object>(obj: T | undefined, key: keyof T & string): void {
  if (obj === undefined || obj === null) return;
  const v = (obj as Record<string, unknown>)[key];
  if (typeof v === 'string') (obj as Record<string, unknown>)[key] = normalizeMicroTime(v);
}
