/**
 * A JSON value as Go's fmt prints the decoded (unstructured) form with %v: what kube shows when
 * a JSONPath printer column selects a non-string, and in some patch error messages
 * (`map[spec:map[replicas:3]]`). Map keys are sorted, as fmt sorts them.
 */
export function goFormat(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(goFormat).join(' ')}]`;
  if (typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return `map[${Object.keys(obj)
      .sort()
      .map((k) => `${k}:${goFormat(obj[k])}`)
      .join(' ')}]`;
  }
  return String(value);
}

/** Integers as int64 print; other numbers as %v of a float64 (shortest form, exponent past 1e21). */
function formatNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return n.toFixed(0);
  return String(n).replace(/e([+-])(\d)$/, 'e$10$2');
}
