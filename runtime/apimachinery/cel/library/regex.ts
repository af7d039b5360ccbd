import type { Environment } from '@marcbachmann/cel-js';
import { RE2JS } from 're2js';
import { NOT_HANDLED, type MethodOverride } from '../engine.js';
import { celError, define } from './define.js';

/**
 * Regular expressions as the apiserver runs them: RE2 syntax and linear time (re2js), for
 * the regex library's find and findAll (k8s.io/apiserver/pkg/cel/library/regex.go) and for
 * the standard `matches`, which cel-js would otherwise run on JavaScript's backtracking
 * engine. Compiled patterns are kept, since rules repeat theirs on every evaluation.
 */
export function registerRegex(env: Environment): void {
  define(env, 'string.find(string): string', (s: string, re: string) => findAll(s, re, 1n)[0] ?? '');
  define(env, 'string.findAll(string): list<string>', (s: string, re: string) => findAll(s, re, -1n));
  define(env, 'string.findAll(string, int): list<string>', findAll);
}

const compiled = new Map<string, RE2JS>();
const MAX_CACHED = 512;

/** The compiled pattern, or an evaluation error with Go's `error parsing regexp: …` text. */
export function compileRegex(pattern: string, errorPrefix = 'Illegal regex: '): RE2JS {
  let re = compiled.get(pattern);
  if (re === undefined) {
    try {
      re = RE2JS.compile(pattern);
    } catch (e) {
      throw celError(`${errorPrefix}${e instanceof Error ? e.message : String(e)}`);
    }
    if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value!);
    compiled.set(pattern, re);
  }
  return re;
}

/** Whether pattern compiles under RE2: for checking regex literals at compile time. */
export function regexError(pattern: string): string | undefined {
  try {
    RE2JS.compile(pattern);
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** FindAllString: n < 0 for all; an empty match right after the previous match is skipped, as Go does. */
function findAll(s: string, pattern: string, n: bigint): string[] {
  const out: string[] = [];
  if (n === 0n) return out;
  const m = compileRegex(pattern).matcher(s);
  let previousEnd = -1;
  while ((n < 0n || BigInt(out.length) < n) && m.find()) {
    const start = m.start();
    const end = m.end();
    if (!(start === end && start === previousEnd)) out.push(m.group() ?? '');
    previousEnd = end;
  }
  return out;
}

export const REGEX_OVERRIDES: ReadonlyMap<string, MethodOverride> = new Map<string, MethodOverride>([
  ['matches', ([s, pattern, ...rest]) => (typeof s === 'string' && typeof pattern === 'string' && rest.length === 0 ? compileRegex(pattern, '').matcher(s).find() : NOT_HANDLED)],
]);
