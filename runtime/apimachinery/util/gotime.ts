/**
 * Go's time.Parse errors for metav1.Time's UnmarshalJSON (time.Parse(time.RFC3339, s)), word for
 * word, for the typed decoders of built-in kinds and the CR codec's ObjectMeta decode alike.
 */

const RFC3339 = '2006-01-02T15:04:05Z07:00';

/** Go's time.quote: printable ASCII as is (`"` and `\` escaped), every other byte as \xNN. */
function goTimeQuote(s: string): string {
  let out = '"';
  for (const b of Buffer.from(s, 'utf8')) {
    if (b >= 0x80 || b < 0x20) out += `\\x${b.toString(16).padStart(2, '0')}`;
    else out += b === 0x22 || b === 0x5c ? `\\${String.fromCharCode(b)}` : String.fromCharCode(b);
  }
  return `${out}"`;
}

/** UTC to the second with a day every month has, as servers and clients write it: always parses. */
const CANONICAL_UTC = /^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]Z$/;

/**
 * time.Parse(time.RFC3339, value)'s error (Go's layout walk: `parsing time "x" as
 * "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`, `…: month out of range`,
 * `…: extra text: "…"`, `…: day out of range`), or undefined when it parses.
 */
export function parseRFC3339Error(value: string): string | undefined {
  // The form every server and client writes (a day any month has): no error, without the walk.
  if (CANONICAL_UTC.test(value)) return undefined;
  const cannot = (valueElem: string, layoutElem: string): string =>
    `parsing time ${goTimeQuote(value)} as ${goTimeQuote(RFC3339)}: cannot parse ${goTimeQuote(valueElem)} as ${goTimeQuote(layoutElem)}`;
  const message = (m: string): string => `parsing time ${goTimeQuote(value)}${m}`;
  const digit = (s: string, i: number): boolean => i < s.length && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39;
  /** Go's getnum: one or two digits (two when fixed). */
  const getnum = (s: string, fixed: boolean): [number, string] | undefined => {
    if (!digit(s, 0)) return undefined;
    if (!digit(s, 1)) return fixed ? undefined : [Number(s[0]), s.slice(1)];
    return [Number(s.slice(0, 2)), s.slice(2)];
  };
  let v = value;
  const skip = (p: string): boolean => {
    if (!v.startsWith(p)) return false;
    v = v.slice(p.length);
    return true;
  };
  // 2006
  if (v.length < 4 || !digit(v, 0) || !/^[0-9]{4}$/.test(v.slice(0, 4))) return cannot(v, '2006');
  const year = Number(v.slice(0, 4));
  v = v.slice(4);
  const fields: Array<[string, string, boolean, number, string]> = [
    ['-', '01', true, 13, 'month'],
    ['-', '02', true, 100, ''],
    ['T', '15', false, 24, 'hour'],
    [':', '04', true, 60, 'minute'],
    [':', '05', true, 60, 'second'],
  ];
  const nums: number[] = [];
  for (const [sep, elem, fixed, limit, range] of fields) {
    if (!skip(sep)) return cannot(v, sep);
    const hold = v;
    const got = getnum(v, fixed);
    if (elem === '01' && got !== undefined && (got[0] <= 0 || got[0] > 12)) return message(': month out of range');
    if (elem === '15' && (got?.[0] ?? 0) >= limit) return message(': hour out of range');
    if (got === undefined) return cannot(hold, elem);
    if (range !== '' && elem !== '01' && got[0] >= limit) return message(`: ${range} out of range`);
    nums.push(got[0]);
    v = got[1];
  }
  // A fractional second the layout does not name is read anyway.
  if (v.length >= 2 && (v[0] === '.' || v[0] === ',') && digit(v, 1)) {
    let n = 2;
    while (digit(v, n)) n++;
    v = v.slice(n);
  }
  // Z07:00
  const hold = v;
  if (v.startsWith('Z')) v = v.slice(1);
  else {
    if (v.length < 6 || v[3] !== ':') return cannot(hold, 'Z07:00');
    const hr = getnum(v.slice(1, 3), true);
    const mm = hr === undefined ? undefined : getnum(v.slice(4, 6), true);
    if (hr !== undefined && hr[0] > 24) return message(': time zone offset hour out of range');
    if (mm !== undefined && mm[0] > 60) return message(': time zone offset minute out of range');
    if (hr === undefined || mm === undefined || (v[0] !== '+' && v[0] !== '-')) return cannot(hold, 'Z07:00');
    v = v.slice(6);
  }
  if (v !== '') return `parsing time ${goTimeQuote(value)}: extra text: ${goTimeQuote(v)}`;
  const [month = 1, day = 1] = nums;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 31;
  if (day < 1 || day > days) return message(': day out of range');
  return undefined;
}
