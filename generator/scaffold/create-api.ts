import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type KindNames, ScaffoldError } from './names.js';
import { groupFiles, kindConversion, kindDefaults, kindStrategy, kindTypes, type ScaffoldFile, TYPES_IMPORT, versionFiles } from './templates/api.js';

/** A change to an existing file: text added after its imports and at its end. */
export interface ScaffoldEdit {
  readonly path: string;
  readonly imports: string;
  readonly append: string;
}

export interface APIPlan {
  readonly create: readonly ScaffoldFile[];
  readonly edit: readonly ScaffoldEdit[];
}

/**
 * kubebuilder's `create api`: what adding one kind in one group version writes. A new group gets
 * its declaration (group.ts) with an admission plugin, and its first version is the hub. A version
 * added to a group is a spoke: its kinds must be in the hub, and each gets a conversion to it. A
 * kind added to an existing version joins its types.ts, strategy.ts and defaults.ts.
 */
export function planCreateAPI(root: string, n: KindNames): APIPlan {
  const groupDir = join(root, n.groupDir);
  if (!existsSync(groupDir)) return { create: [...groupFiles(n), ...versionFiles(n, 'hub', n.version)], edit: [] };

  const versions = readdirSync(groupDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  const hub = versions.find((v) => /@hub\b/.test(readText(join(groupDir, v, 'doc.ts'))));
  if (hub === undefined) throw new ScaffoldError(`${n.groupDir}: no version's doc.ts is marked @hub`);
  if (versionDeclares(join(groupDir, n.version), n.kind)) throw new ScaffoldError(`${n.groupDir}/${n.version} already declares kind ${n.kind}`);
  const role = n.version === hub ? 'hub' : 'spoke';
  if (role === 'spoke' && !versionDeclares(join(groupDir, hub), n.kind)) {
    throw new ScaffoldError(`kind ${n.kind} is not in the hub version ${n.groupDir}/${hub}: create it there first (--version ${hub})`);
  }
  if (!versions.includes(n.version)) return { create: versionFiles(n, role, hub), edit: [] };

  // A kind joining an existing version: in its types.ts, where the conversions' `hub.<Kind>` finds it.
  const dir = `${n.groupDir}/${n.version}`;
  const imp = `import type { ${n.kind} } from './types.js';\n`;
  const create: ScaffoldFile[] = [];
  const types = readText(join(root, dir, 'types.ts'));
  const edit: ScaffoldEdit[] = [{ path: `${dir}/types.ts`, imports: types.includes(TYPES_IMPORT) ? '' : TYPES_IMPORT, append: `\n${kindTypes(n)}` }];
  const companion = (file: string, first: string, body: string): void => {
    if (existsSync(join(root, dir, file))) edit.push({ path: `${dir}/${file}`, imports: imp, append: `\n${body}` });
    else create.push({ path: `${dir}/${file}`, content: `${first}${imp}\n${body}` });
  };
  companion('strategy.ts', "import type { RESTStrategy } from 'kube-ts-apiserver/runtime';\n", kindStrategy(n));
  companion('defaults.ts', '', kindDefaults(n));
  if (role === 'spoke') {
    const hubImport = `import type * as hub from '../${hub}/types.js';\n`;
    if (existsSync(join(root, dir, 'conversion.ts')) && !readText(join(root, dir, 'conversion.ts')).includes(hubImport.trim())) {
      throw new ScaffoldError(`${dir}/conversion.ts does not import the hub as \`hub\` (${hubImport.trim()}): add ${n.kind}Conversion by hand`);
    }
    companion('conversion.ts', `import type { Conversion } from 'kube-ts-apiserver/runtime';\n${hubImport}`, kindConversion(n, hub));
  }
  return { create, edit };
}

function readText(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

/** Whether a version directory declares `export interface <Kind>` in one of its files. */
function versionDeclares(dir: string, kind: string): boolean {
  if (!existsSync(dir)) return false;
  const declaration = new RegExp(`^export interface ${kind}\\b`, 'm');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .some((f) => declaration.test(readText(join(dir, f))));
}
