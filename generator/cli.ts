import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { importAndGenerate, runCodegen } from './codegen.js';
import { CodegenError } from './model/diagnostics.js';
import type { ApiModel } from './model/types.js';

const USAGE = `usage: hack/update-codegen [--root DIR] [--out DIR] [--crd FILE.yaml…]

Reads apis/<group>/<version>/ under --root (default: the current directory)
and writes schemas, CRD manifests, REST storage definitions, clientsets,
listers and informers to --out (default: <root>/generated).

--crd imports CustomResourceDefinition manifests written elsewhere (a
third-party operator's CRDs): they are copied to apis/crds/, and every run
generates TypeScript types plus typed clients, listers and informers for
the CRDs kept there.`;

async function main(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      root: { type: 'string' },
      out: { type: 'string' },
      crd: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help === true) {
    console.log(USAGE);
    return 0;
  }
  const started = performance.now();
  const root = resolve(values.root ?? process.cwd());
  if (values.crd === undefined && positionals.length > 0) {
    console.error(`hack/update-codegen: unexpected arguments: ${positionals.join(' ')}\n\n${USAGE}`);
    return 2;
  }
  // `--crd a.yaml b.yaml` lists files after one flag, as the usage shows.
  const crdFiles = values.crd === undefined ? undefined : [...values.crd, ...positionals];
  const result = crdFiles !== undefined
    ? await importAndGenerate(root, crdFiles.map((f) => resolve(f)))
    : await runCodegen({ root, ...(values.out === undefined ? {} : { outDir: resolve(values.out) }) });
  report(result.model, result.files.length, result.write, started);
  return 0;
}

function report(model: ApiModel, fileCount: number, write: { written: number; removed: number }, started: number): void {
  let versions = 0;
  let kinds = 0;
  for (const group of model.groups) {
    for (const version of group.versions) {
      versions++;
      kinds += version.kinds.length;
      const label = `${group.name === '' ? 'core' : group.name}/${version.name}${group.origin === 'crd' ? ' (imported CRD)' : ''}`;
      const flags = [version.storage ? 'storage' : '', version.hub ? 'hub' : '', version.deprecation ? 'deprecated' : ''].filter(Boolean);
      console.log(`  ${label}: ${version.kinds.length === 0 ? 'types only' : version.kinds.map((k) => k.kind).join(', ')}${flags.length > 0 ? ` (${flags.join(', ')})` : ''}`);
    }
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  console.log(`generated ${fileCount} files (${write.written} written, ${write.removed} removed) for ${model.groups.length} groups, ${versions} versions, ${kinds} kinds in ${seconds}s`);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof CodegenError) {
      for (const line of err.message.split('\n')) console.error(line);
      console.error(`hack/update-codegen: ${err.diagnostics.length} error(s) in the API definitions`);
      process.exit(1);
    }
    if (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS')) {
      console.error(`${err.message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(err);
    process.exit(1);
  },
);

