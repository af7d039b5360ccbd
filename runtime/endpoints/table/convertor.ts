import type { Table, TableColumnDefinition, TableRow } from '../../../apis/meta/v1/table.js';
import type { PrinterColumnDefinition } from '../../apimachinery/definition/resource.js';
import { humanAge } from './duration.js';
import { goFormat } from './gofmt.js';
import { parseJSONPath, type JSONPath } from './jsonpath.js';
import { COLUMN_PRINTER, type TablePrinter } from './printer.js';

/**
 * The Table convertor of a resource version (apiextensions-apiserver's tableconvertor, which
 * the generated kinds share with CRDs): a `Name` column, then the version's printer columns
 * (default `Age` when it declares none), with cells formatted by the server.
 *
 * Which of kube's convertors a resource stands for is its strategy's declaration, a
 * TablePrinter (see tablePrinterOf in ./printer.ts): kube's default convertor (Name, Created
 * At) for a kind that declares it or declares nothing at all; a built-in kind's hand-written printer
 * (printerstorage.TableConvertor over printersinternal's handlers) places every column itself, so
 * when its columns include the object's name (`.metadata.name` with format `name`) that column is
 * the Name (Events: last, wide only) and no leading one is added; the column convertor
 * (apiextensions' tableconvertor.New, for CRDs and every kind that declares printer columns and no
 * printer) is always Name
 * first and then every column, so a CRD that declares the name as a column shows it twice, as
 * kube shows it.
 */

/** metav1.ObjectMeta's `name` documentation: the Name column's description. */
export const NAME_COLUMN_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';

/** The column a CRD without additionalPrinterColumns gets. */
const DEFAULT_AGE_COLUMN: PrinterColumnDefinition = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', priority: 0 };

/** An object (or list, whose items are objects) in the version the table is built for. */
export interface TableSource {
  readonly metadata?: { readonly name?: unknown; readonly creationTimestamp?: unknown; readonly resourceVersion?: unknown; readonly continue?: unknown; readonly remainingItemCount?: unknown };
  readonly items?: readonly unknown[];
  readonly [key: string]: unknown;
}

export interface TableConvertor {
  /**
   * The Table of one object or of a list. Each row's `object` is the source item itself (the
   * endpoint replaces it per includeObject). `noHeaders` leaves columnDefinitions null.
   */
  convertToTable(source: TableSource, opts: { readonly noHeaders: boolean; readonly isList: boolean }): Table;
}

interface Column {
  readonly definition: TableColumnDefinition;
  readonly path: JSONPath | undefined;
  /** Computes the cell instead of the path (a strategy's printerCells). */
  readonly cell: ((item: never) => unknown) | undefined;
}

/**
 * Builds the convertor once per resource version; `now` is injectable for tests. `printer` says
 * which of kube's convertors this is (default: the column convertor).
 */
export function newTableConvertor(printerColumns: readonly PrinterColumnDefinition[], now: () => number = Date.now, printer: TablePrinter = COLUMN_PRINTER): TableConvertor {
  if (printer.kind === 'default') return DEFAULT_TABLE_CONVERTOR;
  const printerCells = printer.kind === 'handwritten' ? printer.cells : undefined;
  const columns: Column[] = (printerColumns.length === 0 ? [DEFAULT_AGE_COLUMN] : printerColumns).map((c) => ({
    definition: {
      name: c.name,
      type: c.type,
      format: c.format ?? '',
      description: c.description !== undefined && c.description !== '' ? c.description : `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
      priority: c.priority,
    },
    path: tryParse(c.jsonPath),
    cell: printerCells !== undefined && Object.hasOwn(printerCells, c.name) ? printerCells[c.name] : undefined,
  }));
  const placesName = printer.kind === 'handwritten' && printerColumns.some(isNameColumn);
  const nameColumn: TableColumnDefinition[] = placesName ? [] : [NAME_COLUMN];
  const headers: TableColumnDefinition[] = [...nameColumn, ...columns.map((c) => c.definition)];
  return {
    convertToTable(source, opts) {
      const at = now();
      const items = opts.isList ? (source.items ?? []) : [source];
      const rows: TableRow[] = items.map((item) => ({ cells: rowCells(columns, item, at, !placesName), object: item as TableRow['object'] }));
      return { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: tableMetadata(source, opts.isList), columnDefinitions: opts.noHeaders ? null : headers, rows };
    },
  };
}

const NAME_COLUMN: TableColumnDefinition = { name: 'Name', type: 'string', format: 'name', description: NAME_COLUMN_DESCRIPTION, priority: 0 };

/** metav1.ObjectMeta's `creationTimestamp` documentation: the Created At column's description. */
export const CREATED_AT_COLUMN_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

/**
 * kube's rest.NewDefaultTableConvertor: the name and the creation time as metav1.Time prints it
 * (RFC 3339 UTC, Go's zero time when there is none), which kubectl shows as is, not as an age.
 */
const DEFAULT_TABLE_CONVERTOR: TableConvertor = {
  convertToTable(source, opts) {
    const items = opts.isList ? (source.items ?? []) : [source];
    const rows: TableRow[] = items.map((item) => {
      const meta = (item as TableSource | null)?.metadata;
      return { cells: [typeof meta?.name === 'string' ? meta.name : '', rfc3339(meta?.creationTimestamp)], object: item as TableRow['object'] };
    });
    const headers: TableColumnDefinition[] = [NAME_COLUMN, { name: 'Created At', type: 'date', format: '', description: CREATED_AT_COLUMN_DESCRIPTION, priority: 0 }];
    return { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: tableMetadata(source, opts.isList), columnDefinitions: opts.noHeaders ? null : headers, rows };
  },
};

function rfc3339(ts: unknown): string {
  const d = typeof ts === 'string' ? new Date(ts) : undefined;
  return d === undefined || Number.isNaN(d.getTime()) ? '0001-01-01T00:00:00Z' : d.toISOString().replace(/\.\d+Z$/, 'Z');
}

/** The list metadata a Table carries: the resourceVersion, and a list's continue and remaining count. */
function tableMetadata(source: TableSource, isList: boolean): NonNullable<Table['metadata']> {
  const metadata: NonNullable<Table['metadata']> = {};
  const m = source.metadata ?? {};
  if (typeof m.resourceVersion === 'string' && m.resourceVersion !== '') metadata.resourceVersion = m.resourceVersion;
  if (isList) {
    if (typeof m.continue === 'string' && m.continue !== '') metadata.continue = m.continue;
    if (typeof m.remainingItemCount === 'number') metadata.remainingItemCount = m.remainingItemCount;
  }
  return metadata;
}

function tryParse(jsonPath: string): JSONPath | undefined {
  try {
    return parseJSONPath(jsonPath);
  } catch {
    return undefined;
  }
}

/** A printer column that is the object's name (kube's hand-written printers declare it like any column). */
function isNameColumn(c: PrinterColumnDefinition): boolean {
  return c.jsonPath === '.metadata.name' && c.format === 'name';
}

function rowCells(columns: readonly Column[], item: unknown, now: number, leadingName: boolean): unknown[] {
  const meta = (item as TableSource | null)?.metadata;
  const cells: unknown[] = leadingName ? [typeof meta?.name === 'string' ? meta.name : ''] : [];
  for (const c of columns) {
    if (c.cell !== undefined) {
      cells.push(c.cell(item as never) ?? null);
      continue;
    }
    const found = c.path?.find(item) ?? [];
    cells.push(found.length === 0 ? null : cellFor(c.definition.type, found[0], now));
  }
  return cells;
}

/** cellForJSONValue: typed cells; a value of the wrong type is a null cell. */
export function cellFor(type: string, value: unknown, now: number): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'string':
      return goFormat(value);
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      return typeof value === 'string' ? humanAge(value, now) : null;
    default:
      return null;
  }
}
