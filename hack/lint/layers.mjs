// The layering rule of ARCHITECTURE.md ("Layers"), as an ESLint rule: an import may point down
// the table below, never up. Resolved from the importing file's path and the relative specifier,
// so a folder's name appearing in a path never confuses it. Package specifiers are not checked.
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Each layer and the layers it may import besides itself, lowest first (`generated`: this
 * repository's codegen output, built-in groups only). `test`, `hack`, `apis` and co-located
 * *.test.ts files are not checked: they may import anything.
 */
const LAYERS = {
  apimachinery: [],
  storage: ['apimachinery'],
  admission: ['apimachinery', 'storage'],
  registry: ['apimachinery', 'storage', 'admission'],
  authentication: ['apimachinery'],
  authorization: ['apimachinery', 'authentication'],
  endpoints: ['apimachinery', 'storage', 'admission', 'registry', 'authentication', 'authorization'],
  server: ['apimachinery', 'storage', 'admission', 'registry', 'authentication', 'authorization', 'endpoints'],
  client: ['apimachinery'],
  // The fake clientset shares the server's semantics (generic store, names, selection, continue tokens).
  'client/fake': ['apimachinery', 'client', 'storage', 'admission', 'registry'],
  // Controllers and the servers above may use the built-in groups' generated clients and informers.
  controllers: ['apimachinery', 'storage', 'admission', 'registry', 'authentication', 'authorization', 'client', 'generated'],
  apiextensions: ['apimachinery', 'storage', 'admission', 'registry', 'authentication', 'authorization', 'endpoints', 'server', 'client', 'controllers', 'generated'],
  aggregator: ['apimachinery', 'storage', 'admission', 'registry', 'authentication', 'authorization', 'endpoints', 'server', 'client', 'controllers', 'generated'],
  // The commands assemble everything.
  controlplane: ['*'],
  aggregated: ['*'],
  // The package's public entry points re-export the layers.
  index: ['*'],
  generator: ['apimachinery', 'apiextensions'],
};

/** The built-in API (kube's own groups): every layer may use its types and generated artifacts. */
const BUILTIN_GROUPS = new Set(['meta', 'core', 'autoscaling', 'apiextensions', 'apiregistration', 'apidiscovery', 'rbac', 'authentication', 'authorization', 'coordination', 'events']);

/**
 * This repository's own server entries (`npm start`, `npm run serve-aggregated`): consumers of
 * the runtime that hand it this repository's groups, so not a layer of it.
 */
const REPOSITORY_ENTRIES = new Set(['runtime/controlplane/serve.ts', 'runtime/aggregated/serve.ts']);

/** The layer of a repository path, or undefined when it is not one (test, hack, apis). */
function layerOf(path) {
  const parts = path.split('/');
  if (parts[0] === 'generator' || parts[0] === 'generated') return parts[0];
  if (parts[0] !== 'runtime' || parts.length < 2 || REPOSITORY_ENTRIES.has(path)) return undefined;
  if (parts.length === 2) return parts[1] === 'index.ts' ? 'index' : undefined;
  if (parts[1] === 'client' && parts[2] === 'fake') return 'client/fake';
  return parts[1];
}

/** Whether a path under apis/ or generated/ belongs to a consumer group rather than the built-in API. */
function consumerGroupOf(path) {
  const parts = path.split('/');
  if (parts[0] === 'apis') return BUILTIN_GROUPS.has(parts[1]) ? undefined : parts[1];
  if (parts[0] !== 'generated') return undefined;
  // generated/<artifact>/<group>/… or generated/<artifact>/<group>.ts; an index of every group is every group's.
  const group = (parts[2] ?? '').replace(/\.(ts|js|json)$/, '');
  if (group === '' || group === 'index' || group === 'factory') return `every group (${path})`;
  return BUILTIN_GROUPS.has(group) ? undefined : group;
}

const layers = {
  meta: {
    type: 'problem',
    docs: { description: 'imports point down the layers of ARCHITECTURE.md; nothing in runtime/ imports a consumer group' },
    schema: [],
    messages: {
      up: "layer '{{from}}' may not import '{{to}}' ({{target}}): imports point down the layers (ARCHITECTURE.md)",
      consumer: "layer '{{from}}' may not import the consumer group '{{group}}' ({{target}}): groups reach the runtime through what is handed to it",
    },
  },
  create(context) {
    const file = relative(root, context.filename);
    if (file.endsWith('.test.ts')) return {};
    const from = layerOf(file);
    if (from === undefined || from === 'generated') return {};
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = relative(root, resolve(dirname(context.filename), spec));
      const group = consumerGroupOf(target);
      if (group !== undefined && (file.startsWith('runtime/') || from === 'generator')) {
        context.report({ node, messageId: 'consumer', data: { from, group, target } });
        return;
      }
      const to = layerOf(target);
      if (to === undefined || to === from) return;
      const may = LAYERS[from];
      if (may.includes('*') || may.includes(to) || (to === 'client/fake' && from === 'client/fake')) return;
      if (to === 'client/fake' && may.includes('client')) return;
      context.report({ node, messageId: 'up', data: { from, to, target } });
    };
    return {
      ImportDeclaration: (n) => check(n.source, n.source.value),
      ExportNamedDeclaration: (n) => n.source && check(n.source, n.source.value),
      ExportAllDeclaration: (n) => check(n.source, n.source.value),
      ImportExpression: (n) => n.source.type === 'Literal' && check(n.source, n.source.value),
    };
  },
};

export default { rules: { layers } };
