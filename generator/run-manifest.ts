import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { ApiModel } from './model/types.js';
import { isGenerated } from './print/header.js';
import type { PrintedFile } from './print/index.js';
import { listFiles } from './write.js';

/** What a run generated, as the command reports it. */
export interface CodegenSummary {
  /** One line per group version: `wardle.example.com/v1alpha1: Flunder, Fischer (storage, hub)`. */
  readonly lines: readonly string[];
  readonly files: number;
  readonly groups: number;
  readonly versions: number;
  readonly kinds: number;
}

/** A run's outputs by content hash (paths relative to the output root), and its summary. */
export interface RunManifest {
  readonly files: readonly (readonly [string, string])[];
  readonly summary: CodegenSummary;
}

export function summarize(model: ApiModel, fileCount: number): CodegenSummary {
  const lines: string[] = [];
  let versions = 0;
  let kinds = 0;
  for (const group of model.groups) {
    for (const version of group.versions) {
      versions++;
      kinds += version.kinds.length;
      const label = `${group.name === '' ? 'core' : group.name}/${version.name}${group.origin === 'crd' ? ' (imported CRD)' : ''}`;
      const flags = [version.storage ? 'storage' : '', version.hub ? 'hub' : '', version.deprecation ? 'deprecated' : ''].filter(Boolean);
      lines.push(`${label}: ${version.kinds.length === 0 ? 'types only' : version.kinds.map((k) => k.kind).join(', ')}${flags.length > 0 ? ` (${flags.join(', ')})` : ''}`);
    }
  }
  return { lines, files: fileCount, groups: model.groups.length, versions, kinds };
}

function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function runManifest(files: readonly PrintedFile[], logicalRoot: string, summary: CodegenSummary): RunManifest {
  return {
    files: files.map((f) => [relative(logicalRoot, f.path).split(sep).join('/'), sha256(f.text)] as const),
    summary,
  };
}

/**
 * Whether `outDir` holds exactly the manifest's files (same bytes) and no
 * other generated file: then writing the run's output would change nothing.
 */
export function upToDate(outDir: string, manifest: RunManifest): boolean {
  const wanted = new Map(manifest.files);
  for (const [rel, hash] of wanted) {
    try {
      if (sha256(readFileSync(join(outDir, rel))) !== hash) return false;
    } catch {
      return false;
    }
  }
  return listFiles(outDir).every((rel) => wanted.has(rel) || !isGenerated(readFileSync(join(outDir, rel), 'utf8')));
}

/** A digest of every file below `dir` (paths and bytes), the inputs a run reads. */
export function digestTree(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string): void => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = join(d, e.name);
      if (e.isDirectory()) {
        walk(path);
      } else if (e.isFile()) {
        h.update(relative(dir, path).split(sep).join('/')).update('\0').update(readFileSync(path)).update('\0');
      }
    }
  };
  walk(dir);
  return h.digest('hex');
}
