/** Short names for the ported SMD fieldpath tests (fieldpath_test.go's aliases). */
import { makePath, Set, type Path, type PathPart } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import type { Value } from '../../../runtime/apimachinery/structuredmerge/value/index.js';

/** value.NewValueInterface as a path part: a value (set) element. */
export const _V = (v: Value): { readonly value: Value } => ({ value: v });
/** MakePathOrDie. */
export const _P = (...parts: PathPart[]): Path => makePath(...parts);
/** NewSet. */
export const _NS = (...paths: Path[]): Set => new Set(...paths);
