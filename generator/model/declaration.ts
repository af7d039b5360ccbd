import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Project } from 'ts-morph';
import type { DiagnosticSink } from './diagnostics.js';
import type { GroupModel } from './types.js';

/** Where a group declares what it is beyond its types, and the export the registry puts on its definition. */
export const GROUP_DECLARATION = { file: 'group.ts', export: 'group' } as const;

/**
 * The groups of apis/, each with its declaration when apis/<group>/group.ts exists. The file
 * must export `group` (checked here, so a missing export is this file's error rather than a
 * type error in generated/); what it declares is type-checked where it is written.
 */
export function withGroupDeclarations(groups: readonly GroupModel[], root: string, sink: DiagnosticSink): GroupModel[] {
  let project: Project | undefined;
  return groups.map((g) => {
    if (g.dir === undefined) return g;
    const file = `${g.dir}/${GROUP_DECLARATION.file}`;
    if (!existsSync(join(root, file))) return g;
    project ??= new Project({ skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true, compilerOptions: { allowJs: false } });
    const source = project.addSourceFileAtPath(join(root, file));
    if (!source.getExportedDeclarations().has(GROUP_DECLARATION.export)) {
      sink.error(
        { file, line: 1 },
        `the declaration of group ${JSON.stringify(g.name)} must be exported as \`${GROUP_DECLARATION.export}\` (export const ${GROUP_DECLARATION.export} = { … } satisfies APIGroupDeclaration)`,
      );
      return g;
    }
    return { ...g, declaration: { module: file.replace(/\.ts$/, ''), name: GROUP_DECLARATION.export } };
  });
}
