import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { type InterfaceDeclaration, Project, type SourceFile, ts } from 'ts-morph';
import { checkConversion } from '../check/conversions.js';
import { checkDefaults } from '../check/defaults.js';
import { checkRules } from '../check/rules.js';
import { type DeclarationSite, SchemaSites } from '../check/sites.js';
import { DiagnosticSink } from '../model/diagnostics.js';
import { inlineSchema } from '../model/inline.js';
import { compareVersionPriority, groupClientName } from '../model/names.js';
import type { JSONSchemaProps } from '../model/schema.js';
import type { ApiModel, GroupModel, KindHooks, KindModel, TypeRef, VersionModel } from '../model/types.js';
import { validateModel } from '../model/validate.js';
import { frameworkPackages } from './framework.js';
import { readKindFacts } from './kinds.js';
import { readProtobufMessages } from './protobuf.js';
import { decodeMarkers } from './markers.js';
import { type PackageInfo, readPackage, VERSION_DIR } from './packages.js';
import { commentOf, SchemaBuilder } from './schema.js';

export interface ParseOptions {
  /** Project root; module paths in the model are relative to it. */
  readonly root: string;
  /** The API definitions directory, default `<root>/apis`. */
  readonly apisDir?: string;
}

/** Files beside the types with a fixed role; every other .ts file of a package holds types. */
const COMPANIONS = new Set(['doc.ts', 'conversion.ts', 'defaults.ts', 'strategy.ts', 'admission.ts']);

/**
 * Parses `apis/` into the validated model. Throws CodegenError listing every
 * problem (unknown markers, bad arguments, schemas without a structural
 * form, missing conversions, CEL rules that do not compile…).
 */
export function parseApis(options: ParseOptions): ApiModel {
  const root = options.root;
  const apisDir = options.apisDir ?? join(root, 'apis');
  const sink = new DiagnosticSink();
  const rel = (file: string): string => relative(root, file).split(sep).join('/');

  const packages = discoverPackages(apisDir, rel, sink);
  const framework = new Set(frameworkPackages(root, rel, sink));
  packages.push(...framework);
  const project = new Project({
    // Resolved as tsc resolves the project: types from the framework come from its package
    // (`kube-ts-apiserver/apis/meta/v1`), read from the .ts sources it ships (the "source" condition).
    compilerOptions: {
      strict: true,
      allowJs: false,
      noEmit: true,
      skipLibCheck: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      customConditions: ['source'],
    },
    skipAddingFilesFromTsConfig: true,
    skipFileDependencyResolution: true,
    skipLoadingLibFiles: true,
  });
  const filesByPackage = new Map<PackageInfo, SourceFile[]>();
  for (const pkg of packages) {
    const dir = join(root, pkg.dir);
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .sort()
      .map((f) => project.addSourceFileAtPath(join(dir, f)));
    filesByPackage.set(pkg, files);
  }
  const packageByDir = new Map(packages.map((p) => [p.dir, p]));
  const sites = new SchemaSites();
  const builder = new SchemaBuilder({
    sink,
    sites,
    relativePath: rel,
    packageOf: (file) => packageByDir.get(rel(file).split('/').slice(0, -1).join('/')),
  });

  // Every declaration of every package is translated, referenced or not, so
  // that a marker error anywhere in apis/ is reported.
  const kindsByPackage = new Map<PackageInfo, { decl: InterfaceDeclaration; facts: ReturnType<typeof readKindFacts>; definition: string }[]>();
  const interfacesByPackage = new Map<PackageInfo, InterfaceDeclaration[]>();
  for (const [pkg, files] of filesByPackage) {
    const kinds: { decl: InterfaceDeclaration; facts: ReturnType<typeof readKindFacts>; definition: string }[] = [];
    interfacesByPackage.set(pkg, []);
    for (const file of files.filter((f) => !COMPANIONS.has(f.getBaseName()))) {
      // Generic interfaces (List<T>) are client-side helpers; a schema cannot use them.
      for (const decl of file.getInterfaces().filter((d) => d.getTypeParameters().length === 0)) {
        interfacesByPackage.get(pkg)!.push(decl);
        const comment = commentOf(decl);
        if (comment.tags.some((t) => t.name === 'genclient')) {
          const markers = decodeMarkers(comment, 'kind', rel(file.getFilePath()), sink);
          const facts = readKindFacts(decl, markers, rel(file.getFilePath()), sink);
          kinds.push({ decl, facts, definition: builder.definitionFor(decl, 'kind', markers) });
        } else {
          builder.definitionFor(decl);
        }
      }
      for (const alias of file.getTypeAliases().filter((d) => d.getTypeParameters().length === 0)) builder.forAlias(alias);
    }
    kindsByPackage.set(pkg, kinds);
  }
  sink.throwIfAny();
  const protobuf = readProtobufMessages(interfacesByPackage, {
    sink,
    relativePath: rel,
    packageOf: (file) => packageByDir.get(rel(file).split('/').slice(0, -1).join('/')),
  });
  sink.throwIfAny();

  const definitions = sortedRecord(builder.definitions);
  checkRules(sites, definitions, sink);
  checkDefaults(sites, definitions, sink);
  const groups = new Map<string, PackageInfo[]>();
  for (const pkg of packages.filter((p) => !framework.has(p))) groups.set(pkg.groupName, [...(groups.get(pkg.groupName) ?? []), pkg]);

  const model: ApiModel = {
    definitions,
    goTypes: sortedRecord(builder.goTypes),
    groups: [...groups.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, pkgs]): GroupModel => {
        const versions = pkgs.sort((a, b) => compareVersionPriority(a.version, b.version));
        return {
          name,
          dir: versions[0]!.groupDir,
          clientName: groupClientName(name),
          origin: 'source',
          versions: versions.map((pkg): VersionModel => ({
            ...buildVersion(pkg, versions.length, kindsByPackage.get(pkg) ?? [], definitions, filesByPackage.get(pkg) ?? [], { rel, sink, sites }),
            protobuf: protobuf.get(pkg) ?? [],
          })),
        };
      }),
  };
  validateModel(model, sink);
  sink.throwIfAny();
  return model;
}

function buildVersion(
  pkg: PackageInfo,
  versionCount: number,
  kinds: readonly { decl: InterfaceDeclaration; facts: ReturnType<typeof readKindFacts>; definition: string }[],
  definitions: Readonly<Record<string, JSONSchemaProps>>,
  files: readonly SourceFile[],
  { rel, sink, sites }: { rel: (f: string) => string; sink: DiagnosticSink; sites: SchemaSites },
): Omit<VersionModel, 'protobuf'> {
  const deprecated = pkg.markers.one('deprecatedVersion');
  const exportsOf = (name: string): ReadonlySet<string> => {
    const file = files.find((f) => f.getBaseName() === name);
    return new Set(file === undefined ? [] : [...file.getExportedDeclarations().keys()]);
  };
  const conversions = exportsOf('conversion.ts');
  const conversionFile = files.find((f) => f.getBaseName() === 'conversion.ts');
  const defaults = exportsOf('defaults.ts');
  const strategies = exportsOf('strategy.ts');
  const ref = (file: string, name: string, available: ReadonlySet<string>): TypeRef | undefined => (available.has(name) ? { module: `${pkg.dir}/${file}`, name } : undefined);

  return {
    name: pkg.version,
    dir: pkg.dir,
    storage: versionCount === 1 || pkg.markers.has('storageVersion'),
    hub: versionCount === 1 || pkg.markers.has('hub'),
    deprecation: deprecated === undefined ? undefined : { warning: typeof deprecated.value.values['warning'] === 'string' ? deprecated.value.values['warning'] : undefined },
    openapiPackage: pkg.openapiPackage,
    kinds: kinds
      .map(({ decl, facts, definition }): KindModel => {
        const kind = decl.getName();
        const hooks: KindHooks = {
          conversion: ref('conversion', `${kind}Conversion`, conversions),
          defaults: ref('defaults', `set${kind}Defaults`, defaults),
          strategy: ref('strategy', `${kind}Strategy`, strategies),
        };
        if (hooks.conversion !== undefined && conversionFile !== undefined) {
          checkConversion(conversionFile, hooks.conversion.name, rel(conversionFile.getFilePath()), sink);
        }
        const root = definitions[definition]!;
        return {
          kind,
          listKind: `${kind}List`,
          plural: facts.plural,
          singular: facts.singular,
          shortNames: facts.shortNames,
          categories: facts.categories,
          scope: facts.scope,
          verbs: facts.verbs,
          subresources: { status: facts.status, scale: facts.scale },
          printerColumns: facts.printerColumns,
          selectableFields: facts.selectableFields,
          definition,
          schema: inlineSchema<DeclarationSite>({ $ref: definition }, definitions, {
            siteOf: (node) => sites.siteOf(node),
            publishedOnly: (node) => sites.isValidatedByStrategy(node),
            onRecursion: (r) => sink.error(r.site?.location, recursionMessage(kind, r.ref, r.path, r.site)),
          }),
          description: root.description ?? '',
          typeRef: { module: rel(decl.getSourceFile().getFilePath()).replace(/\.ts$/, ''), name: kind },
          hooks,
          source: { file: rel(decl.getSourceFile().getFilePath()), line: decl.getStartLineNumber() },
        };
      })
      .sort((a, b) => a.kind.localeCompare(b.kind)),
  };
}

/** A structural schema cannot refer to itself: kube's CRD schemas have no $ref. */
function recursionMessage(kind: string, ref: string, path: string, site: DeclarationSite | undefined): string {
  const type = ref.slice(ref.lastIndexOf('.') + 1);
  return (
    `${site === undefined ? '' : `${site.target}: `}type ${type} refers to itself (kind ${kind} at ${path}), and a structural schema cannot be recursive: ` +
    'bound the depth with a separate type per level, or mark the field @preserveUnknownFields ' +
    '(+kubebuilder:pruning:PreserveUnknownFields) or @schemaless (+kubebuilder:validation:Schemaless) to keep that part unvalidated'
  );
}

function discoverPackages(apisDir: string, rel: (f: string) => string, sink: DiagnosticSink): PackageInfo[] {
  if (!existsSync(apisDir)) {
    sink.error(undefined, `no API definitions directory at ${apisDir}`);
    sink.throwIfAny();
  }
  const packages: PackageInfo[] = [];
  for (const groupDir of readdirSync(apisDir).sort()) {
    const groupPath = join(apisDir, groupDir);
    if (!statSync(groupPath).isDirectory()) continue;
    for (const versionDir of readdirSync(groupPath).sort()) {
      const versionPath = join(groupPath, versionDir);
      if (!statSync(versionPath).isDirectory()) continue;
      if (!VERSION_DIR.test(versionDir)) {
        sink.error({ file: rel(versionPath), line: 1 }, `"${versionDir}" is not a Kubernetes version directory (v1, v1alpha1, v2beta3…)`);
        continue;
      }
      const docPath = join(versionPath, 'doc.ts');
      const pkg = readPackage(rel(versionPath), existsSync(docPath) ? readFileSync(docPath, 'utf8') : undefined, sink);
      if (pkg !== undefined) packages.push(pkg);
    }
  }
  const seen = new Map<string, string>();
  for (const pkg of packages) {
    const key = `${pkg.groupName}/${pkg.version}`;
    const other = seen.get(key);
    if (other !== undefined) sink.error({ file: pkg.docFile, line: 1 }, `group version ${key} is also defined in ${other}`);
    seen.set(key, pkg.dir);
  }
  return packages;
}

function sortedRecord<V>(map: ReadonlyMap<string, V>): Readonly<Record<string, V>> {
  const out: Record<string, V> = {};
  for (const key of [...map.keys()].sort()) out[key] = map.get(key)!;
  return out;
}
