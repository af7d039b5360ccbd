#!/usr/bin/env node
// `kube-ts-apiserver` (package.json "bin"): scaffolds a project (kubebuilder's init and create
// api) and runs the code generator in it (what a project's hack/update-codegen calls).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { planCreateAPI } from './create-api.js';
import { planInit } from './init.js';
import { kindNames, ScaffoldError } from './names.js';
import { writeScaffold } from './write.js';

const USAGE = `usage:
  kube-ts-apiserver init [--module NAME] [--group GROUP --version VERSION --kind KIND] [--skip-codegen]
      A new API-server project in the current directory (empty, or with only what
      \`npm install kube-ts-apiserver\` left): package.json, tsconfig.json, apis/ with a first
      kind (default Widget in v1 of <module>.example.com), hack/update-codegen, the server
      entries (control plane, standalone aggregated server), a controller and tests; then
      runs codegen.
  kube-ts-apiserver create api --group GROUP --version VERSION --kind KIND [--skip-codegen]
      Adds a kind to a group version of apis/ (a new group, a new version converting to the
      group's hub, or a new kind in an existing version); then runs codegen.
  kube-ts-apiserver codegen [--root DIR] [--out DIR] [--crd FILE.yaml…]
      Regenerates generated/ from apis/ (--help for its options).`;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'codegen') {
    // The generator's command reads process.argv and exits by itself.
    process.argv = [process.argv[0]!, 'kube-ts-apiserver codegen', ...rest];
    await import('../cli.js');
    return new Promise<number>(() => {});
  }
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return command === undefined ? 2 : 0;
  }
  const sub = command === 'create' ? rest[0] : undefined;
  if (command === 'create' && sub !== 'api') throw new ScaffoldError(`unknown command "create ${sub ?? ''}": only \`create api\`\n\n${USAGE}`, 2);
  if (command !== 'init' && command !== 'create') throw new ScaffoldError(`unknown command "${command}"\n\n${USAGE}`, 2);
  const { values, positionals } = parseArgs({
    args: command === 'create' ? rest.slice(1) : rest,
    options: {
      module: { type: 'string' },
      group: { type: 'string' },
      version: { type: 'string' },
      kind: { type: 'string' },
      'skip-codegen': { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length > 0) throw new ScaffoldError(`unexpected arguments: ${positionals.join(' ')}\n\n${USAGE}`, 2);
  const root = resolve(process.cwd());
  if (command === 'init') {
    const files = planInit({
      root,
      ...(values.module === undefined ? {} : { module: values.module }),
      ...(values.group === undefined ? {} : { group: values.group }),
      ...(values.version === undefined ? {} : { version: values.version }),
      ...(values.kind === undefined ? {} : { kind: values.kind }),
    });
    writeScaffold(root, files);
    for (const f of files) console.log(`  wrote ${f.path}`);
  } else {
    if (command === 'create' && values.module !== undefined) throw new ScaffoldError('--module belongs to init', 2);
    const missing = (['group', 'version', 'kind'] as const).filter((f) => values[f] === undefined);
    if (missing.length > 0) throw new ScaffoldError(`create api needs ${missing.map((f) => `--${f}`).join(', ')}\n\n${USAGE}`, 2);
    const plan = planCreateAPI(root, kindNames(values.group!, values.version!, values.kind!));
    writeScaffold(root, plan.create, plan.edit);
    for (const f of plan.create) console.log(`  wrote ${f.path}`);
    for (const e of plan.edit) console.log(`  edited ${e.path}`);
  }
  if (values['skip-codegen'] !== true) {
    const { runCodegen } = await import('../codegen.js');
    const { summary, write } = await runCodegen({ root });
    for (const line of summary.lines) console.log(`  ${line}`);
    console.log(`generated ${summary.files} files (${write.written} written, ${write.removed} removed)`);
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  async (err: unknown) => {
    if (err instanceof ScaffoldError) {
      console.error(`kube-ts-apiserver: ${err.message}`);
      process.exit(err.exitCode);
    }
    const { CodegenError } = await import('../model/diagnostics.js');
    if (err instanceof CodegenError) {
      for (const line of err.message.split('\n')) console.error(line);
      process.exit(1);
    }
    if (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS')) {
      console.error(`kube-ts-apiserver: ${err.message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(err);
    process.exit(1);
  },
);
