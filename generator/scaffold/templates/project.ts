import type { KindNames } from '../names.js';
import type { ScaffoldFile } from './api.js';

/** The versions the project's package.json pins: the framework's own and the tools it was built with. */
export interface ProjectVersions {
  /** How package.json depends on the framework (`^0.1.0`, or the spec it was installed with). */
  readonly framework: string;
  readonly tsx: string;
  readonly typescript: string;
  readonly typesNode: string;
  /** npm's allowScripts of the framework's dependencies with install scripts (better-sqlite3 builds its addon). */
  readonly allowScripts: Readonly<Record<string, boolean>>;
}

/** The project's package.json: its scripts, and whatever an existing one held (kept, scripts merged). */
export function packageJSON(module: string, v: ProjectVersions, existing: Record<string, unknown>): ScaffoldFile {
  const record = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...(value as Record<string, unknown>) } : {});
  const manifest: Record<string, unknown> = {
    name: module,
    version: '0.1.0',
    private: true,
    ...existing,
    type: 'module',
    scripts: {
      ...record(existing['scripts']),
      start: 'node --enable-source-maps --import tsx src/server.ts',
      'start:aggregated': 'node --enable-source-maps --import tsx src/aggregated.ts',
      controller: 'node --enable-source-maps --import tsx src/controller-main.ts',
      codegen: 'hack/update-codegen',
      typecheck: 'tsc --noEmit',
      test: 'node --import tsx --test test/*.test.ts',
    },
    dependencies: { ...record(existing['dependencies']), 'kube-ts-apiserver': record(existing['dependencies'])['kube-ts-apiserver'] ?? v.framework, tsx: v.tsx },
    devDependencies: { ...record(existing['devDependencies']), '@types/node': v.typesNode, typescript: v.typescript },
    allowScripts: { ...record(existing['allowScripts']), ...v.allowScripts },
  };
  return { path: 'package.json', content: `${JSON.stringify(manifest, null, 2)}\n` };
}

/** Everything of a new project but its apis/ (planCreateAPI writes those). */
export function projectFiles(n: KindNames): ScaffoldFile[] {
  return [
    { path: 'tsconfig.json', content: TSCONFIG },
    { path: '.gitignore', content: 'node_modules/\n/.kube-ts/\n' },
    { path: 'README.md', content: readme(n) },
    { path: 'hack/update-codegen', content: UPDATE_CODEGEN },
    { path: 'src/server.ts', content: SERVER },
    { path: 'src/aggregated.ts', content: AGGREGATED },
    { path: 'src/controller.ts', content: controller(n) },
    { path: 'src/controller-main.ts', content: controllerMain(n) },
    { path: `test/${n.singular}.test.ts`, content: test(n) },
  ];
}

/** Files the scaffold makes executable. */
export const EXECUTABLES: ReadonlySet<string> = new Set(['hack/update-codegen']);

const TSCONFIG = `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "lib": ["ES2023"],
    "types": ["node"],
    "strict": true,
    "noUncheckedIndexedAccess": true,
    "verbatimModuleSyntax": true,
    "resolveJsonModule": true,
    "skipLibCheck": true,
    "noEmit": true
  },
  "include": ["apis", "generated", "src", "test"]
}
`;

const UPDATE_CODEGEN = `#!/bin/sh
# Regenerates generated/ from apis/: OpenAPI schemas, CRD manifests, the REST storage the server
# installs, typed clients, listers and informers (--help for the options, e.g. --crd FILE.yaml).
set -eu
cd "$(dirname "$0")/.."
exec node_modules/.bin/kube-ts-apiserver codegen "$@"
`;

const SERVER = `// \`npm start\`: a full control plane (kube-apiserver with the built-in groups, the apiextensions
// server and the aggregator, behind one HTTPS port) serving this project's API groups. Flags as
// kube-apiserver's (--secure-port, --data-dir, --storage-backend…; --help lists them).
import { runControlPlane } from 'kube-ts-apiserver/runtime';
import { apiGroups } from '../generated/index.js';

runControlPlane({ groups: apiGroups });
`;

const AGGREGATED = `// \`npm run start:aggregated\`: this project's API groups on a standalone aggregated API server
// (kube's sample-apiserver), to run beside a cluster and register with an APIService (--help).
import { runAggregatedServer } from 'kube-ts-apiserver/runtime';
import { apiGroups } from '../generated/index.js';

runAggregatedServer({ groups: apiGroups });
`;

function readme(n: KindNames): string {
  return `# ${n.kind} API server

An API server for \`${n.group}\`, built on kube-ts-apiserver: the types are in \`apis/\`,
\`generated/\` comes from them, \`src/\` holds the server entries and a controller.

\`\`\`sh
npm install && npm start   # install, then start a control plane serving apis/ (SQLite in ./.kube-ts)
npm test                   # the server in process: create a ${n.kind}, see it through an informer
\`\`\`

Then \`kubectl --kubeconfig .kube-ts/admin.kubeconfig get ${n.plural}\`. After changing \`apis/\`, run
\`npm run codegen\`; \`npx kube-ts-apiserver create api --group ${n.group} --version <v> --kind <Kind>\`
adds a kind or a version (a new version converts to the hub in its \`conversion.ts\`).
\`npm run start:aggregated\` serves the groups as a standalone aggregated API server instead, and
\`npm run controller -- --kubeconfig .kube-ts/admin.kubeconfig\` runs the controller of \`src/\`.
`;
}

function controller(n: KindNames): string {
  const k = n.kind;
  return `// The ${k} controller: keeps each ${k}'s status.observedReplicas equal to its spec.replicas, from
// the shared informer of ${n.plural} through a rate-limited work queue and the typed client: the
// client-go controller pattern, with this project's generated clientset and informers.
import {
  deepCopy, isNotFound, ListerNotFoundError, metaNamespaceKey, RateLimitingQueue, runController, splitMetaNamespaceKey,
} from 'kube-ts-apiserver/client';
import type { ${k} } from '../${n.groupDir}/${n.version}/types.js';
import type { Clientset, SharedInformerFactory } from '../generated/index.js';

export interface ${k}ControllerOptions {
  readonly clientset: Clientset;
  /** The factory the controller's informers come from; run${k}Controller starts it. */
  readonly informers: SharedInformerFactory;
  readonly workers?: number;
  readonly log?: (line: string) => void;
}

/** The lister's answer, undefined when the object is not (or no longer) in the cache. */
function cachedOrUndefined<T>(get: () => T): T | undefined {
  try {
    return get();
  } catch (e) {
    if (e instanceof ListerNotFoundError) return undefined;
    throw e;
  }
}

/** Runs until \`signal\` aborts: starts the informers, waits for their caches, reconciles keys (\`namespace/name\`). */
export async function run${k}Controller(o: ${k}ControllerOptions, signal: AbortSignal): Promise<void> {
  const log = o.log ?? ((line: string) => process.stdout.write(\`\${line}\\n\`));
  const ${n.resourceAccessor} = o.informers.${n.clientName}().${n.version}().${n.resourceAccessor}();
  const queue = new RateLimitingQueue<string>();
  const enqueue = (obj: { readonly metadata?: { readonly namespace?: string; readonly name?: string } }): void =>
    queue.add(metaNamespaceKey(obj.metadata?.namespace, obj.metadata?.name ?? ''));
  ${n.resourceAccessor}.informer().addEventHandler({ onAdd: enqueue, onUpdate: (_old, obj) => enqueue(obj) });

  const reconcile = async (key: string, stop: AbortSignal): Promise<void> => {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const cached = cachedOrUndefined(() => ${n.resourceAccessor}.lister().namespace(namespace).get(name));
    if (cached === undefined) return; // deleted: nothing to do
    const replicas = cached.spec?.replicas ?? 0;
    if (cached.status?.observedReplicas === replicas) return;
    // Cached objects are shared and read-only: write a copy. A conflict (the cache was behind)
    // throws, and the queue retries the key once the informer has the newer object.
    const next: ${k} = deepCopy(cached);
    next.status = { ...next.status, observedReplicas: replicas };
    try {
      await o.clientset.${n.versionAccessor}().${n.resourceAccessor}(namespace).updateStatus(next, { signal: stop });
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    log(\`${n.singular} \${key}: observedReplicas=\${replicas}\`);
  };

  o.informers.start();
  const synced = await o.informers.waitForCacheSync(signal);
  try {
    if ([...synced.values()].every(Boolean)) await runController({ queue, reconcile, signal, workers: o.workers ?? 2 });
  } finally {
    queue.shutDown();
    await o.informers.shutdown();
  }
}
`;
}

function controllerMain(n: KindNames): string {
  return `// \`npm run controller -- [--kubeconfig FILE]\`: the ${n.kind} controller against a server found as
// kubectl finds it (--kubeconfig, else KUBECONFIG, else ~/.kube/config, else in-cluster).
import { parseArgs } from 'node:util';
import { newSharedInformerFactoryCore, restClientFromKubeconfig } from 'kube-ts-apiserver/client';
import { Clientset, SharedInformerFactory } from '../generated/index.js';
import { run${n.kind}Controller } from './controller.js';

const { values } = parseArgs({ options: { kubeconfig: { type: 'string' } } });
const { rest } = restClientFromKubeconfig(values.kubeconfig === undefined ? {} : { path: values.kubeconfig });
const clientset = new Clientset(rest);
const stop = new AbortController();
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => stop.abort());
process.stdout.write(\`${n.singular}-controller: \${rest.config.baseURL.href}\\n\`);
await run${n.kind}Controller({ clientset, informers: new SharedInformerFactory(clientset, newSharedInformerFactoryCore()) }, stop.signal);
rest.close();
`;
}

function test(n: KindNames): string {
  const k = n.kind;
  return `// The server in process (a free port, a temporary data directory): a ${k} created with the typed
// client is seen by an informer, and the controller writes its status.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type HTTPRESTClient, newSharedInformerFactoryCore, restClientFromKubeconfig } from 'kube-ts-apiserver/client';
import { type ControlPlane, startControlPlane } from 'kube-ts-apiserver/runtime';
import { apiGroups, Clientset, SharedInformerFactory } from '../generated/index.js';
import { run${k}Controller } from '../src/controller.js';

let dataDir: string;
let cp: ControlPlane;
let rest: HTTPRESTClient;

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), '${n.singular}-test-'));
  cp = await startControlPlane({ groups: apiGroups, securePort: 0, bindAddress: '127.0.0.1', dataDir });
  rest = restClientFromKubeconfig({ path: cp.kubeconfigPath }).rest;
});

after(async () => {
  rest.close();
  await cp.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Polls until \`check\` holds; generous, for a busy machine. */
async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(\`timed out waiting for \${what}\`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('a ${k} created with the typed client is seen by an informer, with its defaults', async () => {
  const clientset = new Clientset(rest);
  const informers = new SharedInformerFactory(clientset, newSharedInformerFactoryCore());
  const ${n.resourceAccessor} = informers.${n.clientName}().${n.version}().${n.resourceAccessor}();
  informers.start();
  try {
    await informers.waitForCacheSync();
    const created = await clientset.${n.versionAccessor}().${n.resourceAccessor}('default').create({
      apiVersion: '${n.group}/${n.version}', kind: '${k}', metadata: { name: 'first' }, spec: { message: 'hello' },
    });
    assert.equal(created.spec?.replicas, 1);
    await until('the informer to see first', () => ${n.resourceAccessor}.lister().namespace('default').list().some((o) => o.metadata?.name === 'first'));
  } finally {
    await informers.shutdown();
  }
});

test('the controller writes status.observedReplicas', async () => {
  const clientset = new Clientset(rest);
  const stop = new AbortController();
  const running = run${k}Controller({ clientset, informers: new SharedInformerFactory(clientset, newSharedInformerFactoryCore()), log: () => {} }, stop.signal);
  try {
    await clientset.${n.versionAccessor}().${n.resourceAccessor}('default').create({
      apiVersion: '${n.group}/${n.version}', kind: '${k}', metadata: { name: 'scaled' }, spec: { replicas: 3 },
    });
    await until('status.observedReplicas', async () =>
      (await clientset.${n.versionAccessor}().${n.resourceAccessor}('default').get('scaled')).status?.observedReplicas === 3);
  } finally {
    stop.abort();
    await running;
  }
});
`;
}
