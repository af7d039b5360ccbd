// Every input class with its relative weight: heavy cases (3 MiB bodies, 100,000-deep nesting,
// 10,000-op patches, copy amplification) are rare, so the default count runs in seconds.
import type { FuzzCase } from '../cases.js';
import type { Rand } from '../prng.js';
import type { FuzzContext } from '../requests.js';
import { deepNesting, malformedJSON, randomBytes, tooLarge, truncated } from './bodies.js';
import { contentTypes } from './content-type.js';
import { discovery } from './discovery.js';
import { invalidLabels, invalidName, strictUnknown, wrongGVK } from './objects.js';
import { copyAmplification, invalidPatch, manyOperations, smallCopies } from './patches.js';
import { hugeHeaders, methodNotAllowed, oddPaths, unknownPaths } from './paths.js';
import { protobufGarbage } from './protobuf.js';
import { prototypeKeys, prototypeOptions, prototypePaths } from './prototype.js';
import { invalidQuery } from './query.js';
import { scaleValues } from './scale.js';
import { selectors } from './selectors.js';
import { wrongTypes } from './types.js';
import { unicode } from './unicode.js';
import { validGenerateName, validSlot } from './valid.js';
import { yamlBodies } from './yaml.js';

type Generator = (r: Rand, c: FuzzContext) => FuzzCase;

export const generators: ReadonlyArray<readonly [weight: number, gen: Generator]> = [
  [8, randomBytes],
  [8, truncated],
  [8, malformedJSON],
  [1, deepNesting],
  [1, tooLarge],
  [8, invalidName],
  [6, invalidLabels],
  [6, wrongGVK],
  [6, strictUnknown],
  [14, prototypeKeys],
  [5, prototypePaths],
  [5, prototypeOptions],
  [10, invalidPatch],
  [1, copyAmplification],
  [1, manyOperations],
  [3, smallCopies],
  [10, contentTypes],
  [8, yamlBodies],
  [6, protobufGarbage],
  [12, invalidQuery],
  [2, selectors],
  [8, unicode],
  [6, unknownPaths],
  [4, methodNotAllowed],
  [4, oddPaths],
  [1, hugeHeaders],
  [5, discovery],
  [3, scaleValues],
  [5, wrongTypes],
  [14, validSlot],
  [3, validGenerateName],
];

/** Draws one case by weight. */
export function nextCase(r: Rand, c: FuzzContext): FuzzCase {
  const total = generators.reduce((n, [w]) => n + w, 0);
  let x = r.int(total);
  for (const [w, g] of generators) {
    if (x < w) return g(r, c);
    x -= w;
  }
  throw new Error('unreachable');
}
