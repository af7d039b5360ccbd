/**
 * SMD's total order over values (value.Compare) and its equality
 * (value.Equals), for decoded JSON. The order is by kind first: numbers,
 * strings, booleans, lists, maps, null. Integers and floats compare by
 * numeric value in SMD, so a JS number needs no int/float split here.
 * Both walk with explicit stacks: a value may nest as deep as the decoder
 * allows, deeper than the call stack.
 */

/** Decoded JSON: null, boolean, number, string, an array of values or a plain object. */
export type Value = unknown;

type ValueMap = Readonly<Record<string, unknown>>;

/**
 * The rank of a value's kind in SMD's order (float/int < string < bool <
 * list < map < null); anything that is not JSON (undefined) ranks last,
 * equal to itself, as SMD's invalid value does.
 */
function kindRank(v: Value): number {
  switch (typeof v) {
    case 'number':
      return 0;
    case 'string':
      return 1;
    case 'boolean':
      return 2;
    case 'object':
      if (v === null) return 5;
      return Array.isArray(v) ? 3 : 4;
    default:
      return 6;
  }
}

/**
 * Go's strings.Compare: byte order of the UTF-8 encodings, which is code
 * point order. JS compares UTF-16 units, which disagrees once a surrogate
 * pair meets a unit in U+E000–U+FFFF; the first differing unit is remapped
 * so that surrogates sort above the rest of the BMP.
 */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) return codePointRank(x) < codePointRank(y) ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function codePointRank(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  return unit >= 0xd800 ? unit + 0x2000 : unit;
}

/** Object keys in Go's byte order (value.LexicalKeyOrder). */
export function sortedKeys(m: ValueMap): string[] {
  return Object.keys(m).sort(compareStrings);
}

const hasOwn = (m: ValueMap, k: string): boolean => Object.prototype.hasOwnProperty.call(m, k);

const isContainer = (v: Value): v is object => typeof v === 'object' && v !== null;

/** compareValues when one side at least is not a list or map (the common case: keys and set elements), without a work stack. */
function compareScalars(a: Value, b: Value): number {
  const ak = kindRank(a);
  const bk = kindRank(b);
  if (ak !== bk) return ak < bk ? -1 : 1;
  if (ak === 0) return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
  if (ak === 1) return compareStrings(a as string, b as string);
  if (ak === 2) return a === b ? 0 : a === false ? -1 : 1;
  return 0;
}

/** A pending comparison: a pair of values, or an already decided result. */
type Step = readonly [Value, Value] | number;

/** value.Compare: -1, 0 or 1. */
export function compareValues(a: Value, b: Value): number {
  if (!isContainer(a) || !isContainer(b)) return compareScalars(a, b);
  const work: Step[] = [[a, b]];
  for (let step = work.pop(); step !== undefined; step = work.pop()) {
    if (typeof step === 'number') {
      if (step !== 0) return step;
      continue;
    }
    const [l, r] = step;
    const lk = kindRank(l);
    const rk = kindRank(r);
    if (lk !== rk) return lk < rk ? -1 : 1;
    switch (lk) {
      case 0:
        if ((l as number) !== (r as number)) return (l as number) < (r as number) ? -1 : 1;
        break;
      case 1: {
        const c = compareStrings(l as string, r as string);
        if (c !== 0) return c;
        break;
      }
      case 2:
        if (l !== r) return l === false ? -1 : 1;
        break;
      case 3:
        pushListSteps(work, l as readonly Value[], r as readonly Value[]);
        break;
      case 4:
        pushMapSteps(work, l as ValueMap, r as ValueMap);
        break;
    }
  }
  return 0;
}

/** Element by element; a list that is a prefix of the other is less. */
function pushListSteps(work: Step[], l: readonly Value[], r: readonly Value[]): void {
  work.push(l.length < r.length ? -1 : l.length > r.length ? 1 : 0);
  for (let i = Math.min(l.length, r.length) - 1; i >= 0; i--) work.push([l[i], r[i]]);
}

/**
 * MapCompare: the union of keys in byte order, walked in step with a count;
 * reaching the end of one side's length, or a key only one side has,
 * decides, as SMD's zip does.
 */
function pushMapSteps(work: Step[], l: ValueMap, r: ValueMap): void {
  const lkeys = sortedKeys(l);
  const rkeys = sortedKeys(r);
  if (lkeys.length === 0 && rkeys.length === 0) return;
  const steps: Step[] = [];
  let i = 0;
  let j = 0;
  for (let n = 0; i < lkeys.length || j < rkeys.length; n++) {
    const c = i >= lkeys.length ? 1 : j >= rkeys.length ? -1 : compareStrings(lkeys[i]!, rkeys[j]!);
    const key = (c <= 0 ? lkeys[i] : rkeys[j])!;
    if (n === lkeys.length) steps.push(-1);
    else if (n === rkeys.length) steps.push(1);
    else if (c > 0) steps.push(1);
    else if (c < 0) steps.push(-1);
    else steps.push([l[key], r[key]]);
    if (c <= 0) i++;
    if (c >= 0) j++;
  }
  for (let k = steps.length - 1; k >= 0; k--) work.push(steps[k]!);
}

/** value.Less. */
export function valueLess(a: Value, b: Value): boolean {
  return compareValues(a, b) < 0;
}

/** value.Equals: same kind and content; numbers by numeric value; map key order does not matter. */
export function valueEquals(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (!isContainer(a) || !isContainer(b)) return false;
  const work: Array<readonly [Value, Value]> = [[a, b]];
  for (let pair = work.pop(); pair !== undefined; pair = work.pop()) {
    const [l, r] = pair;
    if (l === r) continue;
    const lk = kindRank(l);
    if (lk !== kindRank(r) || lk < 3) return false;
    if (lk === 3) {
      const ll = l as readonly Value[];
      const rl = r as readonly Value[];
      if (ll.length !== rl.length) return false;
      for (let i = 0; i < ll.length; i++) work.push([ll[i], rl[i]]);
    } else if (lk === 4) {
      const lm = l as ValueMap;
      const rm = r as ValueMap;
      const keys = Object.keys(lm);
      if (keys.length !== Object.keys(rm).length) return false;
      for (const k of keys) {
        if (!hasOwn(rm, k)) return false;
        work.push([lm[k], rm[k]]);
      }
    }
  }
  return true;
}
