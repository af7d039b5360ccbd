import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type CodegenSummary, importAndGenerate, runCodegen } from './codegen.js';
import { CodegenError } from './model/diagnostics.js';

const USAGE = `usage: hack/update-codegen [--root DIR] [--out DIR] [--crd FILE.yaml…] [--kubernetes-clients]

Reads apis/<group>/<version>/ under --root (default: the current directory)
and writes schemas, CRD manifests, REST storage definitions, clientsets,
listers and informers to --out (default: <root>/generated).

--crd imports CustomResourceDefinition manifests written elsewhere (a
third-party operator's CRDs, apiextensions.k8s.io/v1 or v1beta1; documents
of other kinds are skipped): they are copied to apis/crds/ (replacing a
kept manifest of the same file name), and every run generates TypeScript
types plus typed clients, listers and informers for the CRDs kept there.
An import that fails changes nothing.

--kubernetes-clients also generates typed clients, listers and informers for
Kubernetes' own groups from kube's published OpenAPI v3 documents vendored in
generator/openapi-import/ (generated/kubernetes/). The framework ships them
(\`kube-ts-apiserver/kubernetes\`); a project imports them from there.

A run whose inputs did not change since the last one (by content) finds its
outputs in node_modules/.cache/kube-ts-codegen/ and writes nothing;
--no-cache generates everything afresh.`;

async function main(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      root: { type: 'string' },
      out: { type: 'string' },
      crd: { type: 'string', multiple: true },
      'kubernetes-clients': { type: 'boolean' },
      'no-cache': { type: 'boolean' },
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
  const cache = values['no-cache'] !== true;
  const kubernetesClients = values['kubernetes-clients'] === true;
  if (crdFiles !== undefined && values.out !== undefined) {
    console.error(`hack/update-codegen: --crd writes the project's own generated/; it cannot be combined with --out\n\n${USAGE}`);
    return 2;
  }
  if (crdFiles !== undefined) {
    const result = await importAndGenerate(
      root,
      crdFiles.map((f) => resolve(f)),
      { cache, kubernetesClients },
    );
    for (const file of result.skipped) console.log(`  skipped ${file}: no CustomResourceDefinition in it`);
    report(result.summary, result.write, false, started);
  } else {
    const result = await runCodegen({ root, cache, kubernetesClients, ...(values.out === undefined ? {} : { outDir: resolve(values.out) }) });
    report(result.summary, result.write, result.upToDate, started);
  }
  return 0;
}

function report(summary: CodegenSummary, write: { written: number; removed: number }, upToDate: boolean, started: number): void {
  for (const line of summary.lines) console.log(`  ${line}`);
  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  const what = upToDate ? 'up to date, nothing written' : `${write.written} written, ${write.removed} removed`;
  console.log(`generated ${summary.files} files (${what}) for ${summary.groups} groups, ${summary.versions} versions, ${summary.kinds} kinds in ${seconds}s`);
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
