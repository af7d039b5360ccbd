import { importFrom, paths } from '../emit/paths.js';
import { upperFirst } from '../model/names.js';
import type { JSONSchemaProps } from '../model/schema.js';
import type { OutputFile } from '../emit/output.js';
import { HEADER_TEXT } from '../print/header.js';
import { isApimachinery, type KubernetesImport, packageOf } from './model.js';
import { FIELDS_V1, INT_OR_STRING, QUANTITY, RAW_EXTENSION } from './schema.js';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

/** apimachinery definitions → the type apis/meta/v1 declares for them (as the generator types the same Go types). */
const META_TYPES: ReadonlyMap<string, string> = new Map([
  ...['Condition', 'Duration', 'LabelSelector', 'LabelSelectorRequirement', 'ListMeta', 'ManagedFieldsEntry', 'MicroTime', 'ObjectMeta', 'OwnerReference', 'Time'].map((n): [string, string] => [
    `${META}${n}`,
    n,
  ]),
  [FIELDS_V1, 'FieldsV1'],
  [INT_OR_STRING, 'IntOrString'],
  [QUANTITY, 'Quantity'],
  [RAW_EXTENSION, 'RawExtension'],
]);

/**
 * One TypeScript module per imported group version
 * (`types/<client name>/<version>.ts`) holding one declaration per
 * definition of its OpenAPI package that a kind reaches, named as kube names
 * it without the package (`io.k8s.api.core.v1.PodSpec` → `PodSpec`): an
 * interface for an object with fields, a type alias otherwise. References
 * stay references, imported from the module that declares them (apps/v1's
 * PodTemplateSpec from core/v1's); apimachinery's types come from
 * apis/meta/v1. Deterministic: declarations and imports are sorted.
 */
export function emitTypes(imported: KubernetesImport): OutputFile[] {
  const byModule = new Map<string, string[]>();
  for (const name of imported.definitions.keys()) {
    if (isApimachinery(name)) continue;
    const owner = imported.packages.get(packageOf(name))!;
    const module = paths.types(owner.group, owner.version);
    byModule.set(module, [...(byModule.get(module) ?? []), name]);
  }
  const out: OutputFile[] = [];
  for (const [module, names] of [...byModule.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const file = new TypesFile(module, imported, new Set(names.map(shortName)));
    const body = names.sort((a, b) => (shortName(a) < shortName(b) ? -1 : 1)).map((n) => file.declaration(n, imported.definitions.get(n)!));
    out.push({ path: module, format: 'text', text: [`// ${HEADER_TEXT}`, '', ...file.imports(), '', body.join('\n\n'), ''].join('\n') });
  }
  return out;
}

function shortName(definition: string): string {
  return definition.slice(definition.lastIndexOf('.') + 1);
}

class TypesFile {
  /** module specifier → imported name → local name. */
  readonly #imports = new Map<string, Map<string, string>>();

  constructor(
    private readonly path: string,
    private readonly imported: KubernetesImport,
    private readonly local: ReadonlySet<string>,
  ) {}

  declaration(name: string, s: JSONSchemaProps): string {
    const id = shortName(name);
    if (s.type === 'object' && s.properties !== undefined && Object.keys(s.properties).length > 0) {
      return `${doc(s.description, '')}export interface ${id} ${this.object(s, '')}`;
    }
    return `${doc(s.description, '')}export type ${id} = ${this.type(s, '')};`;
  }

  imports(): string[] {
    return [...this.#imports.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([module, names]) => {
        const specs = [...names.entries()].map(([n, as]) => (n === as ? n : `${n} as ${as}`)).sort();
        return `import type { ${specs.join(', ')} } from '${module}';`;
      });
  }

  private object(s: JSONSchemaProps, indent: string): string {
    const inner = `${indent}  `;
    const required = new Set(s.required ?? []);
    const lines = Object.entries(s.properties ?? {}).map(([p, ps]) => `${doc(ps.description, inner)}${inner}${key(p)}${required.has(p) ? '' : '?'}: ${this.type(ps, inner)};`);
    return `{\n${lines.join('\n')}\n${indent}}`;
  }

  private type(s: JSONSchemaProps, indent: string): string {
    const t = this.nonNullable(s, indent);
    return s.nullable === true ? `${t} | null` : t;
  }

  private nonNullable(s: JSONSchemaProps, indent: string): string {
    if (s.$ref !== undefined) return this.named(s.$ref);
    if (s['x-kubernetes-int-or-string'] === true) return 'number | string';
    if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum.map((e) => JSON.stringify(e).replace(/^"(.*)"$/, (_, b: string) => `'${b.replace(/'/g, "\\'")}'`)).join(' | ');
    switch (s.type) {
      case 'string':
        return 'string';
      case 'integer':
      case 'number':
        return 'number';
      case 'boolean':
        return 'boolean';
      case 'array': {
        const items = s.items === undefined || Array.isArray(s.items) ? 'unknown' : this.type(s.items, indent);
        return /[ |]/.test(items) && !items.startsWith('{') ? `(${items})[]` : `${items}[]`;
      }
      case 'object':
        if (s.properties !== undefined && Object.keys(s.properties).length > 0) return this.object(s, indent);
        if (typeof s.additionalProperties === 'object') return `{ [key: string]: ${this.type(s.additionalProperties, indent)} }`;
        if (s.additionalProperties === true || s['x-kubernetes-preserve-unknown-fields'] === true) return '{ [key: string]: unknown }';
        // An object without fields (an empty Go struct): nothing but `{}` is sent.
        return '{ [key: string]: never }';
      default:
        return 'unknown';
    }
  }

  /** A definition's type as this file refers to it, imported when another module declares it. */
  private named(definition: string): string {
    const meta = META_TYPES.get(definition);
    if (meta !== undefined) return this.use(paths.metaTypes, meta, meta);
    if (isApimachinery(definition)) throw new Error(`${definition} has no type in apis/meta/v1`);
    const owner = this.imported.packages.get(packageOf(definition))!;
    const target = paths.types(owner.group, owner.version);
    const id = shortName(definition);
    if (target === this.path) return id;
    const module = importFrom(this.path, target);
    // A name this module declares itself is imported under its group version's prefix (CoreV1Event).
    const as = this.local.has(id) ? `${upperFirst(owner.group.clientName)}${upperFirst(owner.version.name)}${id}` : id;
    return this.use(module, id, as);
  }

  private use(module: string, name: string, as: string): string {
    const names = this.#imports.get(module) ?? new Map<string, string>();
    names.set(name, as);
    this.#imports.set(module, names);
    return as;
  }
}

function key(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : `'${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function doc(text: string | undefined, indent: string): string {
  const trimmed = text?.trim();
  if (trimmed === undefined || trimmed === '') return '';
  const lines = trimmed
    .replace(/\*\//g, '*\\/')
    .split('\n')
    .map((l) => l.trimEnd());
  return `${indent}/**\n${lines.map((l) => (l === '' ? `${indent} *` : `${indent} * ${l}`)).join('\n')}\n${indent} */\n`;
}
