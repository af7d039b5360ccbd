import type { InterfaceDeclaration } from 'ts-morph';
import type { DiagnosticSink } from '../model/diagnostics.js';
import { pluralize } from '../model/names.js';
import { ALL_VERBS, type PrinterColumn, type PrinterColumnType, type ScaleSubresource, type Scope, type SourceLocation, type Verb } from '../model/types.js';
import type { Markers } from './markers.js';

/** The resource-level facts of a kind, read from its markers (schema aside). */
export interface KindFacts {
  readonly plural: string;
  readonly singular: string;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly scope: Scope;
  readonly verbs: readonly Verb[];
  readonly status: boolean;
  readonly scale: ScaleSubresource | undefined;
  readonly printerColumns: readonly PrinterColumn[];
  readonly selectableFields: readonly string[];
}

/** Where a marker was written (the column is unknown for a declaration's own line). */
interface Position {
  readonly line: number;
  readonly column?: number | undefined;
}

const COLUMN_TYPES: readonly PrinterColumnType[] = ['integer', 'number', 'string', 'boolean', 'date'];

/** Reads `@resource`, `@nonNamespaced`, verbs, subresources, columns and selectable fields. */
export function readKindFacts(decl: InterfaceDeclaration, markers: Markers, file: string, sink: DiagnosticSink): KindFacts {
  const kind = decl.getName();
  const at = (pos: Position): SourceLocation => ({ file, line: pos.line, column: pos.column });
  const resource = markers.one('resource');
  const rv = resource?.value.values ?? {};
  const str = (key: string): string | undefined => (typeof rv[key] === 'string' ? (rv[key] as string) : undefined);
  const list = (key: string): readonly string[] => (Array.isArray(rv[key]) ? (rv[key] as readonly string[]) : []);

  let scope: Scope = markers.has('nonNamespaced') ? 'Cluster' : 'Namespaced';
  const declaredScope = str('scope');
  if (declaredScope !== undefined) {
    if (declaredScope !== 'Cluster' && declaredScope !== 'Namespaced') {
      sink.error(at(resource!), `marker @resource: scope must be Cluster or Namespaced, got "${declaredScope}"`);
    } else if (markers.has('nonNamespaced') && declaredScope !== 'Cluster') {
      sink.error(at(resource!), 'marker @resource: scope=Namespaced contradicts @nonNamespaced');
    } else {
      scope = declaredScope;
    }
  }

  const plural = str('path') ?? pluralize(kind.toLowerCase());
  const singular = str('singular') ?? kind.toLowerCase();
  for (const [what, value] of [
    ['path', plural],
    ['singular', singular],
  ] as const) {
    if (!/^[a-z]([-a-z0-9]*[a-z0-9])?$/.test(value)) {
      sink.error(at(resource ?? { line: decl.getStartLineNumber(), column: undefined }), `marker @resource: ${what} "${value}" must be a lowercase DNS-1035 label`);
    }
  }

  return {
    plural,
    singular,
    shortNames: [...list('shortName')].sort(),
    categories: [...list('categories')].sort(),
    scope,
    verbs: readVerbs(markers, file, sink),
    status: markers.all('subresource').some((m) => m.value.positional === 'status'),
    scale: readScale(markers, file, sink),
    printerColumns: markers.all('printcolumn').map((m) => readColumn(m.value.values, at(m), sink)),
    selectableFields: markers.all('selectableField').map((m) => String(m.value.values['jsonPath'])),
  };
}

function readVerbs(markers: Markers, file: string, sink: DiagnosticSink): readonly Verb[] {
  const check = (names: readonly string[], pos: Position, marker: string): Verb[] => {
    const bad = names.filter((v) => !(ALL_VERBS as readonly string[]).includes(v));
    if (bad.length > 0) sink.error({ file, line: pos.line, column: pos.column }, `marker @${marker}: unknown verb ${bad.join(', ')} (verbs: ${ALL_VERBS.join(', ')})`);
    return names.filter((v): v is Verb => (ALL_VERBS as readonly string[]).includes(v));
  };
  const only = markers.one('onlyVerbs');
  const skip = markers.one('skipVerbs');
  const readonly = markers.one('readonly');
  const given = [only, skip, readonly].filter((m) => m !== undefined);
  if (given.length > 1) sink.error({ file, line: given[1]!.line, column: given[1]!.column }, 'marker @onlyVerbs, @skipVerbs and @readonly exclude each other');
  let verbs: Verb[] = [...ALL_VERBS];
  if (readonly !== undefined) verbs = ['get', 'list', 'watch'];
  if (only !== undefined) verbs = check(only.value, only, 'onlyVerbs');
  if (skip !== undefined) {
    const skipped = check(skip.value, skip, 'skipVerbs');
    verbs = verbs.filter((v) => !skipped.includes(v));
  }
  return [...new Set(verbs)].sort();
}

function readScale(markers: Markers, file: string, sink: DiagnosticSink): ScaleSubresource | undefined {
  const scale = markers.all('subresource').find((m) => m.value.positional === 'scale');
  for (const m of markers.all('subresource')) {
    if (m.value.positional === 'status' && Object.keys(m.value.values).length > 0) {
      sink.error({ file, line: m.line, column: m.column }, 'marker @subresource: status takes no arguments');
    }
  }
  if (scale === undefined) return undefined;
  const v = scale.value.values;
  const spec = v['specpath'];
  const status = v['statuspath'];
  if (typeof spec !== 'string' || typeof status !== 'string') {
    sink.error({ file, line: scale.line, column: scale.column }, 'marker @subresource: scale needs specpath=… and statuspath=…');
    return undefined;
  }
  const selector = v['selectorpath'];
  return { specReplicasPath: spec, statusReplicasPath: status, labelSelectorPath: typeof selector === 'string' ? selector : undefined };
}

function readColumn(v: Readonly<Record<string, unknown>>, at: SourceLocation, sink: DiagnosticSink): PrinterColumn {
  const type = String(v['type']);
  if (!(COLUMN_TYPES as readonly string[]).includes(type)) {
    sink.error(at, `marker @printcolumn: type must be one of ${COLUMN_TYPES.join(', ')}, got "${type}"`);
  }
  const jsonPath = String(v['jsonPath']);
  if (!jsonPath.startsWith('.')) sink.error(at, `marker @printcolumn: jsonPath must start with ".", got "${jsonPath}"`);
  return {
    name: String(v['name']),
    type: type as PrinterColumnType,
    jsonPath,
    description: v['description'] === undefined ? undefined : String(v['description']),
    format: v['format'] === undefined ? undefined : String(v['format']),
    priority: typeof v['priority'] === 'number' ? v['priority'] : 0,
  };
}
