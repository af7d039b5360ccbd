import { parseArgs, type ParseArgsConfig } from 'node:util';
import { parseGoDuration } from '../../apimachinery/goduration.js';

/**
 * Flag parsing shared by the server commands (the control plane and the standalone aggregated
 * server): kube's `--flag value` and `--flag=value` forms through node's parseArgs, values
 * checked as pflag checks them, and the flag sets both commands have.
 */

export class OptionsError extends Error {
  override readonly name = 'OptionsError';
}

export type FlagSpecs = NonNullable<ParseArgsConfig['options']>;

/** Serving flags both commands take (the storage flags are ./storage.ts's STORAGE_FLAGS). */
export const SERVING_FLAGS = {
  'secure-port': { type: 'string' },
  'bind-address': { type: 'string' },
  'data-dir': { type: 'string' },
  'request-timeout': { type: 'string' },
  'anonymous-auth': { type: 'string' },
  'client-ca-file': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies FlagSpecs;

/** kube's request-header (front proxy) authentication flags. */
export const REQUEST_HEADER_FLAGS = {
  'requestheader-client-ca-file': { type: 'string' },
  'requestheader-allowed-names': { type: 'string', multiple: true },
  'requestheader-username-headers': { type: 'string', multiple: true },
  'requestheader-group-headers': { type: 'string', multiple: true },
  'requestheader-extra-headers-prefix': { type: 'string', multiple: true },
} as const satisfies FlagSpecs;

/** parseArgs with kube's rules (no positionals, unknown flags refused); errors carry `usage`. */
export function parseFlags<T extends FlagSpecs>(argv: readonly string[], options: T, usage: string): ReturnType<typeof parseArgs<{ options: T; strict: true; allowPositionals: false }>>['values'] {
  try {
    return parseArgs({ args: [...argv], strict: true, allowPositionals: false, options }).values;
  } catch (err) {
    throw new OptionsError(`${(err as Error).message}\n\n${usage}`);
  }
}

export function intFlag(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new OptionsError(`--${flag}: ${JSON.stringify(v)} is not a non-negative integer`);
  return Number(v);
}

export function boolFlag(flag: string, v: string | undefined): boolean | undefined {
  if (v === undefined) return undefined;
  if (v !== 'true' && v !== 'false') throw new OptionsError(`--${flag} must be true or false`);
  return v === 'true';
}

/** A string slice as pflag reads it: the flag repeatable, each value comma-separated. */
export function stringSliceFlag(v: string | readonly string[] | undefined): string[] | undefined {
  if (v === undefined) return undefined;
  return (typeof v === 'string' ? [v] : v)
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** A Go duration (`5m`, `1h30m`), not negative, in milliseconds. */
export function durationFlag(flag: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  let ms: number;
  try {
    ms = parseGoDuration(v);
  } catch (err) {
    throw new OptionsError(`--${flag}: ${(err as Error).message}`);
  }
  if (ms < 0) throw new OptionsError(`--${flag}: ${JSON.stringify(v)} must not be negative`);
  return ms;
}

/** The object of the flags given: an absent flag stays absent, so the command's defaults apply. */
export function given<T extends object>(o: { [K in keyof T]: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
