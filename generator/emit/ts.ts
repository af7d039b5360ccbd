import { type ImportDeclarationStructure, StructureKind } from 'ts-morph';
import { compareCodePoints } from '../print/json.js';
import { importFrom } from './paths.js';

/**
 * Collects the imports of one generated file: named imports merged per
 * module, modules and names sorted, so output never depends on emit order.
 */
export class Imports {
  private readonly named = new Map<string, Map<string, boolean>>();
  private readonly defaults = new Map<string, { name: string; json: boolean }>();

  constructor(private readonly fromFile: string) {}

  /** `import { name } from module` (`typeOnly` → `import type`). Returns the local name. */
  add(module: string, name: string, options: { readonly typeOnly?: boolean; readonly as?: string } = {}): string {
    const spec = options.as === undefined ? name : `${name} as ${options.as}`;
    const names = this.named.get(module) ?? new Map<string, boolean>();
    const typeOnly = options.typeOnly === true && names.get(spec) !== false;
    names.set(spec, typeOnly);
    this.named.set(module, names);
    return options.as ?? name;
  }

  /** `import name from './x.json' with { type: 'json' }`. */
  addJSON(module: string, name: string): string {
    this.defaults.set(module, { name, json: true });
    return name;
  }

  structures(): ImportDeclarationStructure[] {
    const modules = [...new Set([...this.named.keys(), ...this.defaults.keys()])].sort((a, b) => compareCodePoints(this.specifier(a), this.specifier(b)));
    return modules.map((module): ImportDeclarationStructure => {
      const names = this.named.get(module);
      const def = this.defaults.get(module);
      const entries = names === undefined ? [] : [...names.entries()].sort(([a], [b]) => compareCodePoints(a, b));
      const allTypes = entries.length > 0 && entries.every(([, t]) => t);
      return {
        kind: StructureKind.ImportDeclaration,
        moduleSpecifier: this.specifier(module),
        ...(def === undefined ? {} : { defaultImport: def.name }),
        ...(def?.json === true ? { attributes: [{ name: 'type', value: 'json' }] } : {}),
        isTypeOnly: allTypes,
        namedImports: entries.map(([spec, typeOnly]) => (typeOnly && !allTypes ? `type ${spec}` : spec)),
      };
    });
  }

  private specifier(module: string): string {
    return importFrom(this.fromFile, module);
  }
}
