/** Short names for the ported SMD fieldpath tests (fieldpath_test.go's aliases). */
import { keyByFields, makePath, Set, type Path, type PathPart } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import type { Value } from '../../../runtime/apimachinery/structuredmerge/value/index.js';
import type { Rand } from '../../fuzz/prng.js';

/** value.NewValueInterface as a path part: a value (set) element. */
export const _V = (v: Value): { readonly value: Value } => ({ value: v });
/** MakePathOrDie. */
export const _P = (...parts: PathPart[]): Path => makePath(...parts);
/** NewSet. */
export const _NS = (...paths: Path[]): Set => new Set(...paths);

/** set_test.go's randomPathMaker: paths of random length over a fixed alphabet of elements of every kind. */
export const randomPathAlphabet: Path = makePath(
  'aaa',
  'aab',
  'aac',
  'aad',
  'aae',
  'aaf',
  'abcdefghijklmnopqrstuvwxyz',
  'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  keyByFields('name', 'привет'),
  keyByFields('name', '你好'),
  keyByFields('name', 'こんにちは'),
  keyByFields('name', '안녕하세요'),
  keyByFields('name', 'مرحبا'),
  keyByFields('name', 'first'),
  keyByFields('name', 'second'),
  keyByFields('port', 443, 'protocol', 'tcp'),
  keyByFields('port', 443, 'protocol', 'udp'),
  keyByFields('key', ' value with spaces '),
  keyByFields('lang', 'en-US'),
  keyByFields('unicode-key', 'unicode-value-🔥'),
  _V(1),
  _V(2),
  _V(3),
  _V('aa'),
  _V('ab'),
  _V(true),
  _V(0),
  _V(-1),
  _V(3.14159),
  _V('string with spaces'),
  _V('string with "quotes"'),
  _V('unicode-string-你好'),
  _V(false),
  1,
  2,
  3,
  4,
  0,
  5,
  100,
  2147483648,
);

/** randomPathAlphabet.makePath. */
export function makeRandomPath(rand: Rand, minLen: number, maxLen: number): Path {
  const n = minLen + (minLen < maxLen ? rand.int(maxLen - minLen) : 0);
  return Array.from({ length: n }, () => rand.pick(randomPathAlphabet));
}
