import { randomInt } from 'node:crypto';

/** Characters of generated name suffixes (k8s.io/apimachinery/pkg/util/rand: no vowels, no confusable digits). */
const alphanums = 'bcdfghjklmnpqrstvwxz2456789';
const maxNameLength = 63;
const randomLength = 5;
const maxGeneratedNameLength = maxNameLength - randomLength;

/** Returns a uniformly random integer in [0, n). Injectable so tests can force collisions. */
export type RandomIntFunc = (n: number) => number;

export const cryptoRandomInt: RandomIntFunc = (n) => randomInt(n);

/** names.SimpleNameGenerator: base (cut to 58 characters) plus 5 random characters. */
export function generateName(base: string, random: RandomIntFunc = cryptoRandomInt): string {
  let suffix = '';
  for (let i = 0; i < randomLength; i++) suffix += alphanums[random(alphanums.length)];
  return base.slice(0, maxGeneratedNameLength) + suffix;
}
