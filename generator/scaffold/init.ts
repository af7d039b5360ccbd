import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { frameworkRoot } from '../parse/framework.js';
import { planCreateAPI } from './create-api.js';
import { kindNames, moduleName, ScaffoldError } from './names.js';
import type { ScaffoldFile } from './templates/api.js';
import { packageJSON, type ProjectVersions, projectFiles } from './templates/project.js';

export interface InitOptions {
  /** The project directory. */
  readonly root: string;
  /** The npm package name; default from the directory's name. */
  readonly module?: string;
  /** The first kind; default `Widget` in `v1` of `<module>.example.com`. */
  readonly group?: string;
  readonly version?: string;
  readonly kind?: string;
}

/**
 * kubebuilder's `init` (with its first `create api`): every file of a new project. The directory
 * may hold what `npm install kube-ts-apiserver` left (package.json, which is merged, the lock file,
 * node_modules); any other file the scaffold would write is an error, never overwritten.
 */
export function planInit(o: InitOptions): ScaffoldFile[] {
  const module = moduleName(o.module ?? basename(o.root));
  const n = kindNames(o.group ?? `${module.replace(/[^a-z0-9-]+/g, '-')}.example.com`, o.version ?? 'v1', o.kind ?? 'Widget');
  if (existsSync(join(o.root, 'apis'))) throw new ScaffoldError(`${join(o.root, 'apis')} exists: init makes new projects; add kinds with \`create api\``);
  const manifestPath = join(o.root, 'package.json');
  const existing = existsSync(manifestPath) ? parseManifest(manifestPath) : {};
  const files = [packageJSON(module, projectVersions(), existing), ...projectFiles(n), ...planCreateAPI(o.root, n).create];
  for (const f of files) {
    if (f.path !== 'package.json' && existsSync(join(o.root, f.path))) throw new ScaffoldError(`${join(o.root, f.path)} exists: init does not overwrite files`);
  }
  return files;
}

function parseManifest(path: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new ScaffoldError(`${path}: not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ScaffoldError(`${path}: not a JSON object`);
  return value as Record<string, unknown>;
}

/** This framework's version and the versions of the tools it is built and tested with. */
function projectVersions(): ProjectVersions {
  const manifest = JSON.parse(readFileSync(join(frameworkRoot(), 'package.json'), 'utf8')) as {
    version: string;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
    allowScripts?: Record<string, boolean>;
  };
  const pinned = (deps: Record<string, string> | undefined, name: string): string => {
    const v = deps?.[name];
    if (v === undefined) throw new Error(`kube-ts-apiserver's package.json does not name ${name}`);
    return v;
  };
  return {
    framework: `^${manifest.version}`,
    tsx: pinned(manifest.dependencies, 'tsx'),
    typescript: pinned(manifest.devDependencies, 'typescript'),
    typesNode: pinned(manifest.devDependencies, '@types/node'),
    allowScripts: manifest.allowScripts ?? {},
  };
}
