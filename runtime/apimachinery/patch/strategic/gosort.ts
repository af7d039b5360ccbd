/**
 * Go's sort.SliceStable (insertion sort on blocks of 20, then SymMerge),
 * ported so that strategic merge patch orders lists exactly as kube does even
 * with its non-transitive comparison. Sorts `data` in place; `less` sees the
 * current positions.
 */
export function sliceStable<T>(data: T[], less: (a: T, b: T) => boolean): void {
  const n = data.length;
  const lessAt = (i: number, j: number): boolean => less(data[i] as T, data[j] as T);
  const swap = (i: number, j: number): void => {
    const t = data[i] as T;
    data[i] = data[j] as T;
    data[j] = t;
  };
  const insertionSort = (a: number, b: number): void => {
    for (let i = a + 1; i < b; i++) for (let j = i; j > a && lessAt(j, j - 1); j--) swap(j, j - 1);
  };
  const swapRange = (a: number, b: number, count: number): void => {
    for (let i = 0; i < count; i++) swap(a + i, b + i);
  };
  const rotate = (a: number, m: number, b: number): void => {
    let i = m - a;
    let j = b - m;
    while (i !== j) {
      if (i > j) {
        swapRange(m - i, m, j);
        i -= j;
      } else {
        swapRange(m - i, m + j - i, i);
        j -= i;
      }
    }
    swapRange(m - i, m, i);
  };
  const symMerge = (a: number, m: number, b: number): void => {
    if (m - a === 1) {
      let i = m;
      let j = b;
      while (i < j) {
        const h = (i + j) >>> 1;
        if (lessAt(h, a)) i = h + 1;
        else j = h;
      }
      for (let k = a; k < i - 1; k++) swap(k, k + 1);
      return;
    }
    if (b - m === 1) {
      let i = a;
      let j = m;
      while (i < j) {
        const h = (i + j) >>> 1;
        if (!lessAt(m, h)) i = h + 1;
        else j = h;
      }
      for (let k = m; k > i; k--) swap(k, k - 1);
      return;
    }
    const mid = (a + b) >>> 1;
    const nn = mid + m;
    let start: number;
    let r: number;
    if (m > mid) {
      start = nn - b;
      r = mid;
    } else {
      start = a;
      r = m;
    }
    const p = nn - 1;
    while (start < r) {
      const c = (start + r) >>> 1;
      if (!lessAt(p - c, c)) start = c + 1;
      else r = c;
    }
    const end = nn - start;
    if (start < m && m < end) rotate(start, m, end);
    if (a < start && start < mid) symMerge(a, start, mid);
    if (mid < end && end < b) symMerge(mid, end, b);
  };
  let blockSize = 20;
  let a = 0;
  let b = blockSize;
  while (b <= n) {
    insertionSort(a, b);
    a = b;
    b += blockSize;
  }
  insertionSort(a, n);
  while (blockSize < n) {
    a = 0;
    b = 2 * blockSize;
    while (b <= n) {
      symMerge(a, a + blockSize, b);
      a = b;
      b += 2 * blockSize;
    }
    const m = a + blockSize;
    if (m < n) symMerge(a, m, n);
    blockSize *= 2;
  }
}

/** Go's `%v` of a decoded JSON value, for error messages (`map[a:1 b:[x y]]`, `<nil>`). */
export function goFormat(v: unknown, depth = 0): string {
  if (depth > 32) return '...';
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map((x) => goFormat(x, depth + 1)).join(' ')}]`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `map[${Object.keys(o)
      .sort()
      .map((k) => `${k}:${goFormat(o[k], depth + 1)}`)
      .join(' ')}]`;
  }
  return String(v);
}

/** The Go type name of a decoded JSON value (reflect.TypeOf), for comparisons and messages. */
export function goType(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  switch (typeof v) {
    case 'object':
      return 'map[string]interface {}';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(v) ? 'int64' : 'float64';
    default:
      return typeof v;
  }
}
