// Self time of a V8 .cpuprofile grouped by area, for the profile benches (create-profile,
// etcd-client): each sample is charged to the first area whose rule matches its frame's file
// and function; a native frame (no file) that no rule matches is charged to its nearest caller.
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber?: number; columnNumber?: number };
  children?: number[];
}

export interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** An area's name and its rule, on the frame's file (without file://) and function name. */
export type AreaRule = readonly [area: string, test: (url: string, fn: string) => boolean];

export interface SelfTimeOptions {
  /** Only samples taken in [from, to] (µs on the profile's clock, CLOCK_MONOTONIC on Linux). */
  readonly window?: { readonly from: number; readonly to: number };
  /** Functions that are not work (default `(idle)`), left out of the result. */
  readonly idle?: readonly string[];
}

/** Self time in ms per area. */
export function selfTimeByArea(p: Profile, rules: readonly AreaRule[], opts: SelfTimeOptions = {}): Map<string, number> {
  const idle = new Set(opts.idle ?? ['(idle)']);
  const parent = new Map<number, number>();
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const areaOf = new Map<number, string>();
  const classify = (id: number): string => {
    const known = areaOf.get(id);
    if (known !== undefined) return known;
    const n = byId.get(id);
    let area = 'other';
    if (n) {
      const url = n.callFrame.url.replace(/^file:\/\//, '');
      const fn = n.callFrame.functionName;
      if (idle.has(fn)) area = '(idle)';
      else {
        const rule = rules.find(([, test]) => test(url, fn));
        if (rule) area = rule[0];
        else if (url === '' && parent.has(id)) area = classify(parent.get(id)!);
        else if (url === '') area = 'V8/native, no JS caller';
      }
    }
    areaOf.set(id, area);
    return area;
  };
  const out = new Map<string, number>();
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    const prev = t;
    t += p.timeDeltas[i] ?? 0;
    // a sample stands for the time since the previous one
    if (opts.window !== undefined && (t < opts.window.from || t > opts.window.to)) continue;
    const area = classify(p.samples[i]!);
    out.set(area, (out.get(area) ?? 0) + (t - prev) / 1000);
  }
  out.delete('(idle)');
  return out;
}

/**
 * Points every frame of a bundled file (the `npm start` bundle, hack/start.mjs) at the source its
 * function was bundled from, through the bundle's linked source maps, so the area rules, written
 * for source paths, apply to a profile of the bundle. Frames without a map, or whose position
 * the map does not cover, keep the bundle's file. Mutates and returns the profile.
 */
export function resolveBundledFrames(p: Profile): Profile {
  const maps = new Map<string, { map: SourceMap; dir: string } | undefined>();
  const mapOf = (url: string): { map: SourceMap; dir: string } | undefined => {
    if (maps.has(url)) return maps.get(url);
    let found: { map: SourceMap; dir: string } | undefined;
    const file = url.startsWith('file://') ? fileURLToPath(url) : undefined;
    if (file !== undefined && file.endsWith('.mjs') && existsSync(`${file}.map`)) {
      found = { map: new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')) as SourceMapPayload), dir: dirname(file) };
    }
    maps.set(url, found);
    return found;
  };
  for (const n of p.nodes) {
    const f = n.callFrame;
    const m = f.url === '' ? undefined : mapOf(f.url);
    if (m === undefined || f.lineNumber === undefined || f.lineNumber < 0) continue;
    const entry = m.map.findEntry(f.lineNumber, f.columnNumber ?? 0) as { originalSource?: string; originalLine?: number };
    if (entry.originalSource === undefined) continue;
    f.url = pathToFileURL(resolve(m.dir, entry.originalSource)).href;
    f.lineNumber = entry.originalLine ?? f.lineNumber;
  }
  return p;
}
