#!/usr/bin/env node
// The README's test command (`npm test`): every *.test.ts under test/,
// generator/ and runtime/, run by node's test runner with tsx as the loader.
// Extra arguments are passed on (e.g. `npm test -- --test-name-pattern=wardle`);
// a path argument narrows the run to files under that path.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const roots = ['test', 'generator', 'runtime'];

function collect(dir, out) {
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name === 'fixtures' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) collect(path, out);
    else if (name.endsWith('.test.ts')) out.push(relative(root, path));
  }
  return out;
}

const args = process.argv.slice(2);
const filters = args.filter((a) => !a.startsWith('-')).map((a) => relative(root, resolve(a)));
const flags = args.filter((a) => a.startsWith('-'));
const files = roots.flatMap((r) => collect(join(root, r), [])).filter((f) => filters.length === 0 || filters.some((p) => f.startsWith(p)));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// A file whose tests are done but whose process does not exit (a child it started still holds
// its pipes) would stall the whole run; past this bound it fails alone, named, and the run goes on.
// The slowest file (test/framework/scratch-project.test.ts) takes about 2 minutes.
const fileTimeout = '--test-timeout=900000';
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', fileTimeout, ...flags, ...files], {
  cwd: root,
  stdio: 'inherit',
  // --conditions=source: the package's self-references (generated code imports `kube-ts-apiserver/…`)
  // resolve to the .ts sources; in NODE_OPTIONS so that every process a test starts inherits it.
  env: { ...process.env, NODE_OPTIONS: [process.env.NODE_OPTIONS, '--max-old-space-size=4096', '--conditions=source'].filter(Boolean).join(' ') },
});
process.exit(result.status ?? 1);
