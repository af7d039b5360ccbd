#!/usr/bin/env node
// `npm start`: runs the control plane command (runtime/controlplane/serve.ts) from a bundle of
// its sources. Loading one prebuilt file instead of transpiling some 300 TypeScript modules on
// every start is what brings the ready time under a second. The bundle (.cache/start/) is
// rebuilt, in about 0.4 s, only when a source it was built from changed; packages from
// node_modules stay external. Arguments go to the command unchanged.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const entry = join(root, 'runtime/controlplane/serve.ts');
const out = join(root, '.cache/start/serve.mjs');
// Worker threads the command starts run their own entry, bundled beside serve.mjs, where the
// module that starts them looks for it (runtime/apimachinery/serializer/yaml-pool.ts).
const workers = { 'yaml-worker': join(root, 'runtime/apimachinery/serializer/yaml-worker.ts') };
// Thread entries bundled with their packages, in one file of their own: the thread making a first
// start's PKI (runtime/controlplane/pki-thread.ts) loads @peculiar/x509, some hundred CommonJS
// modules through node's loader (about 200 ms); bundled, the same code takes about 70 ms, and the
// thread is done before the control plane needs its certificates.
const selfContained = { 'pki-worker': join(root, 'runtime/controlplane/pki-worker.ts') };
const inputsFile = join(root, '.cache/start/inputs.json');

/** Every dependency of package.json, with its subpaths: what the bundle imports at run time. */
function externalPackages() {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).flatMap((name) => [name, `${name}/*`]);
}

/** True when the bundle exists and no source it was built from (nor this script) is newer. */
function fresh() {
  if (!existsSync(out) || !existsSync(inputsFile)) return false;
  if (Object.keys({ ...workers, ...selfContained }).some((name) => !existsSync(join(dirname(out), `${name}.mjs`)))) return false;
  const built = statSync(out).mtimeMs;
  const inputs = JSON.parse(readFileSync(inputsFile, 'utf8'));
  return [fileURLToPath(import.meta.url), join(root, 'package.json'), join(root, 'package-lock.json'), ...inputs.map((i) => join(root, i))].every((p) => existsSync(p) && statSync(p).mtimeMs <= built);
}

/**
 * The bundle's text with every character outside ASCII written as a \u escape (only comments and
 * regular expression literals still carry them after esbuild; both mean the same escaped). V8
 * keeps a module's source for as long as the process runs, and one non-ASCII character makes it
 * a two-byte string: twice the memory of the same text in ASCII.
 */
function ascii(text) {
  return text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

if (!fresh()) {
  const { build } = await import('esbuild');
  mkdirSync(dirname(out), { recursive: true });
  const common = {
    outdir: dirname(out),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['source'],
    // The map goes beside the bundle, named by a comment at its end: node reads it only when
    // started with --enable-source-maps (stack traces in the TypeScript sources). Inline, it
    // tripled the text every process holds in memory for its whole life.
    sourcemap: 'linked',
    metafile: true,
    write: false,
    logLevel: 'warning',
    absWorkingDir: root,
  };
  const [result, selfContainedResult] = await Promise.all([
    build({
      ...common,
      entryPoints: { serve: entry, ...workers },
      // Modules reached only through import() (the control plane behind a --workers primary, the
      // project's groups) go into chunks with their own imports of dependencies: a process that
      // never reaches them never loads them. Chunks are named by their content, so a process
      // still running an older bundle keeps finding its own.
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
      // Dependencies stay external; the package's own entry points (generated code imports
      // `kube-ts-apiserver/…`) are bundled from their sources through the "source" condition.
      external: externalPackages(),
    }),
    build({ ...common, entryPoints: selfContained }),
  ]);
  const outputFiles = [...result.outputFiles, ...selfContainedResult.outputFiles];
  // Written beside and renamed into place: another `npm start` loading the bundle meanwhile
  // reads the old file or the new one, never half of one.
  // Chunks before the entries that import them.
  const entriesLast = outputFiles.sort((a, b) => Number(a.path.includes('/chunks/')) - Number(b.path.includes('/chunks/'))).reverse();
  mkdirSync(join(dirname(out), 'chunks'), { recursive: true });
  for (const file of entriesLast) {
    const tmp = `${file.path}.${process.pid}.tmp`;
    writeFileSync(tmp, file.path.endsWith('.mjs') ? ascii(file.text) : file.contents);
    renameSync(tmp, file.path);
  }
  const inputs = new Set([...Object.keys(result.metafile.inputs), ...Object.keys(selfContainedResult.metafile.inputs)]);
  writeFileSync(inputsFile, JSON.stringify([...inputs].filter((i) => !i.startsWith('node_modules/'))));
}
process.argv = [process.argv[0], entry, ...process.argv.slice(2)];
// What a --workers primary forks its workers from (runtime/controlplane/workers/entry.ts): the
// bundle's entry, not the chunk its supervisor was loaded from.
globalThis[Symbol.for('kube-ts-apiserver/bundle-entry')] = out;
await import(pathToFileURL(out).href);
