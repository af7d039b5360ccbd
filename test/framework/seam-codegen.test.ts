// The group seam in codegen: apis/<group>/group.ts reaches the runtime through the group's
// generated registry definition; a declaration file without its `group` export is the
// declaration's own error at file:line, not a type error in generated/.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { scratchProject, type ScratchProject } from '../codegen/harness.js';

const TYPES = `import type { ObjectMeta, TypeMeta } from '../../meta/v1/types.js';

/** @genclient */
export interface Gizmo extends TypeMeta {
  metadata?: ObjectMeta;
  spec?: { size?: string };
}
`;

const DECLARATION = `import type { APIGroupDeclaration } from '../../runtime/registry/types.js';

/** gizmo.example.com refuses gizmos named "forbidden". */
export const group = {
  admissionPlugins: [
    () => ({
      name: 'GizmoNames',
      handles: (op: string) => op === 'CREATE',
      async validate(a: { group: string; name: string }): Promise<void> {
        if (a.group === 'gizmo.example.com' && a.name === 'forbidden') throw new Error('forbidden');
      },
    }),
  ],
} satisfies APIGroupDeclaration;
`;

let project: ScratchProject;
before(() => {
  project = scratchProject({ withApis: false });
  project.write('apis/gizmo/v1/doc.ts', '/**\n * @groupName gizmo.example.com\n */\nexport {};\n');
  project.write('apis/gizmo/v1/types.ts', TYPES);
});
after(() => project.dispose());

test('a group without group.ts declares nothing: its registry definition has no declaration', () => {
  project.codegen();
  assert.doesNotMatch(readFileSync(join(project.root, 'generated/registry/gizmo.ts'), 'utf8'), /declaration/);
});

test('a group.ts without the `group` export is an error at the declaration file', () => {
  project.write('apis/gizmo/group.ts', 'export const declaration = {};\n');
  assert.throws(() => project.codegen(), /apis\/gizmo\/group\.ts:1: the declaration of group "gizmo\.example\.com" must be exported as `group`/);
});

test('the declaration is put on the generated registry definition', () => {
  project.write('apis/gizmo/group.ts', DECLARATION);
  project.codegen();
  const registry = readFileSync(join(project.root, 'generated/registry/gizmo.ts'), 'utf8');
  assert.match(registry, /^import \{ group as gizmoDeclaration \} from '\.\.\/\.\.\/apis\/gizmo\/group\.js';$/m);
  assert.match(registry, /^ {2}declaration: gizmoDeclaration,$/m);
  const apiextensions = readFileSync(join(project.root, 'generated/registry/apiextensions.ts'), 'utf8');
  assert.match(apiextensions, /declaration: apiextensionsDeclaration,/);
});
