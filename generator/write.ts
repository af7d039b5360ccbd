import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { isGenerated } from './print/header.js';
import type { PrintedFile } from './print/index.js';

export interface WriteResult {
  readonly written: number;
  readonly unchanged: number;
  readonly removed: number;
}

/**
 * File writes that can be undone: each write goes to a temporary file and
 * is renamed into place (no reader ever sees half a file), and the previous
 * content of every file written or removed is kept until `commit`, so
 * `rollback` puts the tree back as it was when a later step fails.
 */
export class Transaction {
  private readonly journal: { path: string; previous: Buffer | undefined }[] = [];
  private readonly touched = new Set<string>();

  write(path: string, text: string): void {
    this.remember(path);
    mkdirSync(dirname(path), { recursive: true });
    const tmp = join(dirname(path), `.${process.pid}.${this.journal.length}.tmp`);
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  }

  remove(path: string): void {
    this.remember(path);
    unlinkSync(path);
  }

  commit(): void {
    this.journal.length = 0;
    this.touched.clear();
  }

  /** Restores every file touched, newest change first; directories created stay (empty ones are harmless). */
  rollback(): void {
    for (const { path, previous } of this.journal.reverse()) {
      try {
        if (previous === undefined) {
          unlinkSync(path);
        } else {
          mkdirSync(dirname(path), { recursive: true });
          writeFileSync(path, previous);
        }
      } catch {
        // best effort: the remaining files are still restored
      }
    }
    this.commit();
  }

  private remember(path: string): void {
    if (this.touched.has(path)) return;
    this.touched.add(path);
    this.journal.push({ path, previous: existsSync(path) ? readFileSync(path) : undefined });
  }
}

/**
 * Makes `outDir` hold exactly `files`: writes what changed (a file whose
 * bytes are already there is not touched), removes stale generated files
 * (recognized by their header, so a hand-written file that strayed into the
 * tree is never deleted) and then empty directories. `files` paths are
 * relative to the logical output root `logicalRoot` (`generated`), so the
 * same plan can be written to a temp dir for verification. With a
 * transaction the caller decides whether the writes stay; without one, a
 * failed write undoes the others.
 */
export function syncTree(outDir: string, logicalRoot: string, files: readonly PrintedFile[], tx?: Transaction): WriteResult {
  const own = tx ?? new Transaction();
  try {
    const result = apply(outDir, logicalRoot, files, own);
    if (tx === undefined) own.commit();
    return result;
  } catch (err) {
    if (tx === undefined) own.rollback();
    throw err;
  }
}

function apply(outDir: string, logicalRoot: string, files: readonly PrintedFile[], tx: Transaction): WriteResult {
  const wanted = new Map(files.map((f) => [relative(logicalRoot, f.path).split(sep).join('/'), f.text]));
  let written = 0;
  let unchanged = 0;
  let removed = 0;
  for (const existing of listFiles(outDir)) {
    if (wanted.has(existing)) continue;
    const path = join(outDir, existing);
    if (isGenerated(readFileSync(path, 'utf8'))) {
      tx.remove(path);
      removed++;
    }
  }
  for (const [rel, text] of [...wanted.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const path = join(outDir, rel);
    if (existsSync(path) && readFileSync(path, 'utf8') === text) {
      unchanged++;
      continue;
    }
    tx.write(path, text);
    written++;
  }
  removeEmptyDirs(outDir, outDir);
  return { written, unchanged, removed };
}

/** Every file below `dir`, relative with forward slashes, sorted. */
export function listFiles(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
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
