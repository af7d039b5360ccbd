import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { parseKubeconfig } from './parse.js';
import { KubeconfigError, type Kubeconfig } from './types.js';

/** Where kubeconfig files are looked for (clientcmd.ClientConfigLoadingRules). */
export interface LoadingRules {
  /** One file, which must exist; KUBECONFIG and the home file are then ignored. */
  readonly path?: string;
  /** Environment read for KUBECONFIG and HOME; default process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Default: $HOME, else the OS's home directory. */
  readonly homeDir?: string;
}

/** The files the rules name, in precedence order, and whether that list is the explicit one. */
export function kubeconfigFiles(rules: LoadingRules = {}): { files: string[]; explicit: boolean } {
  if (rules.path !== undefined && rules.path !== '') return { files: [rules.path], explicit: true };
  const env = rules.env ?? process.env;
  const list = env['KUBECONFIG'] ?? '';
  if (list !== '') return { files: [...new Set(list.split(delimiter).filter((f) => f !== ''))], explicit: false };
  const home = rules.homeDir ?? (env['HOME'] !== undefined && env['HOME'] !== '' ? env['HOME'] : homedir());
  return { files: [join(home, '.kube', 'config')], explicit: false };
}

/**
 * Loads and merges the files the rules name. An explicit path must exist; in a KUBECONFIG list
 * missing files are skipped. Merging follows clientcmd: for each cluster, user and context name
 * the first file that defines it wins, and so does the first file that sets current-context.
 * Returns undefined when no file exists (the caller may then try the in-cluster convention).
 */
export function loadKubeconfig(rules: LoadingRules = {}): Kubeconfig | undefined {
  const { files, explicit } = kubeconfigFiles(rules);
  const loaded: Kubeconfig[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      if (code === 'ENOENT' && !explicit) continue;
      throw new KubeconfigError(file, '', `cannot be read: ${(e as Error).message}`, { cause: e });
    }
    loaded.push(parseKubeconfig(text, file));
  }
  return loaded.length === 0 ? undefined : mergeKubeconfigs(loaded);
}

/** clientcmd's merge: earlier configurations take precedence, name by name. */
export function mergeKubeconfigs(configs: readonly Kubeconfig[]): Kubeconfig {
  const firstWins = <T>(pick: (c: Kubeconfig) => ReadonlyMap<string, T>): Map<string, T> => {
    const out = new Map<string, T>();
    for (const c of configs) for (const [name, v] of pick(c)) if (!out.has(name)) out.set(name, v);
    return out;
  };
  const currentContext = configs.find((c) => c.currentContext !== undefined)?.currentContext;
  return {
    clusters: firstWins((c) => c.clusters),
    users: firstWins((c) => c.users),
    contexts: firstWins((c) => c.contexts),
    ...(currentContext !== undefined ? { currentContext } : {}),
    files: configs.flatMap((c) => c.files),
  };
}
