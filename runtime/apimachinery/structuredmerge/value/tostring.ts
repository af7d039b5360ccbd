/**
 * value.ToString: how SMD prints a value inside a path (`[name="x"]`,
 * `[=1.5]`), with Go's fmt wording: `%v` of an int or float64, `%q` of a
 * string.
 */
import { quote } from '../../util/strconv.js';
import { sortedKeys, type Value } from './compare.js';

/** Go's `%v` of a float64 (strconv 'g', shortest): exponent form below 1e-4 or from 1e6, as `1e+06`. */
export function formatGoFloat(f: number): string {
  if (!Number.isFinite(f)) return Number.isNaN(f) ? 'NaN' : f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mantissa, expText] = f.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    const digits = String(Math.abs(exp)).padStart(2, '0');
    return `${mantissa}e${sign}${digits}`;
  }
  // Within that range JS prints the same shortest digits without an exponent.
  return String(f);
}

/** A number as SMD prints it: integral numbers are ints (`%v` of int64), others float64. */
export function formatNumber(n: number): string {
  return Number.isInteger(n) && Math.abs(n) < 2 ** 63 ? BigInt(n).toString() : formatGoFloat(n);
}

/** Go's strconv.Quote (`%q`), kept under the name SMD's printers import. */
export { quote as goQuote };

/** value.ToString; lists and maps print their items the same way (map keys in byte order). Iterative. */
export function valueToString(v: Value): string {
  let out = '';
  // Strings on the stack are text to write; other entries are values still to print.
  const work: Array<{ readonly text: string } | { readonly value: Value }> = [{ value: v }];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    if ('text' in item) {
      out += item.text;
      continue;
    }
    const x = item.value;
    if (x === null || x === undefined) out += 'null';
    else if (typeof x === 'number') out += formatNumber(x);
    else if (typeof x === 'string') out += quote(x);
    else if (typeof x === 'boolean') out += x ? 'true' : 'false';
    else if (Array.isArray(x)) {
      work.push({ text: ']' });
      for (let i = x.length - 1; i >= 0; i--) work.push({ value: x[i] as Value }, { text: i > 0 ? ',' : '' });
      out += '[';
    } else if (typeof x === 'object') {
      const m = x as Record<string, unknown>;
      const keys = sortedKeys(m);
      for (let i = keys.length - 1; i >= 0; i--) work.push({ value: m[keys[i]!] }, { text: `${keys[i]!}=` });
    } else out += '{{undefined}}';
  }
  return out;
}
