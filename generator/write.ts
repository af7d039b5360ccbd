import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { isGenerated } from './print/header.js';
import type { PrintedFile } from './print/index.js';

export interface WriteResult {
  readonly written: number;
  readonly unchanged: number;
  readonly removed: number;
}

/**
 * Makes `outDir` hold exactly `files`: writes what changed, removes stale
 * generated files (recognized by their header, so a hand-written file that
 * strayed into the tree is never deleted) and then empty directories.
 * `files` paths are relative to the logical output root `logicalRoot`
 * (`generated`), so the same plan can be written to a temp dir for
 * verification.
 */
export function syncTree(outDir: string, logicalRoot: string, files: readonly PrintedFile[]): WriteResult {
  const wanted = new Map(files.map((f) => [relative(logicalRoot, f.path).split(sep).join('/'), f.text]));
  let written = 0;
  let unchanged = 0;
  let removed = 0;
  for (const existing of listFiles(outDir)) {
    if (wanted.has(existing)) continue;
    const path = join(outDir, existing);
    if (isGenerated(readFileSync(path, 'utf8'))) {
      unlinkSync(path);
      removed++;
    }
  }
  for (const [rel, text] of [...wanted.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const path = join(outDir, rel);
    if (existsSync(path) && readFileSync(path, 'utf8') === text) {
      unchanged++;
      continue;
    }
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    written++;
  }
  removeEmptyDirs(outDir, outDir);
  return { written, unchanged, removed };
}

function listFiles(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    const rel = prefix === '' ? name : `${prefix}/${name}`;
    return statSync(path).isDirectory() ? listFiles(path, rel) : [rel];
  });
}

function removeEmptyDirs(dir: string, root: string): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) removeEmptyDirs(path, root);
  }
  if (dir !== root && readdirSync(dir).length === 0) rmdirSync(dir);
}
