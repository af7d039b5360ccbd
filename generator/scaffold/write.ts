import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ScaffoldEdit } from './create-api.js';
import type { ScaffoldFile } from './templates/api.js';
import { EXECUTABLES } from './templates/project.js';

/** Writes new files (executables 0755) and applies edits: imports after a file's last import, text at its end. */
export function writeScaffold(root: string, files: readonly ScaffoldFile[], edits: readonly ScaffoldEdit[] = []): void {
  for (const f of files) {
    const path = join(root, f.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, f.content);
    if (EXECUTABLES.has(f.path)) chmodSync(path, 0o755);
  }
  for (const e of edits) {
    const path = join(root, e.path);
    const text = readFileSync(path, 'utf8');
    // After the end of the last import declaration (which may span lines; it holds no `;` before its end).
    let at = 0;
    for (const m of text.matchAll(/^import\b[^;]*;[^\n]*\n?/gm)) at = m.index + m[0].length;
    const withImports = `${text.slice(0, at)}${e.imports}${text.slice(at)}`;
    writeFileSync(path, `${withImports.replace(/\n*$/, '\n')}${e.append}`);
  }
}
