import type { ResourceDefinition } from '../../apimachinery/definition/resource.js';

/**
 * Which of kube's Table convertors a resource version stands for, as its strategy declares it
 * (RESTStrategy.tablePrinter; see TablePrinterDeclaration for the three):
 *
 * - `handwritten`: a built-in kind's printer (kube's printerstorage.TableConvertor over the
 *   handlers of pkg/printers/internalversion). It lays out every column itself: a declared name
 *   column (`.metadata.name`, format `name`) is the Name where it stands, and `cells` compute
 *   what no JSONPath can (APIService's `Local`).
 * - `columns`: the column convertor (apiextensions-apiserver's tableconvertor.New, kube's for
 *   CRDs): Name first, then every printer column, or `Age` when there is none.
 * - `default`: kube's rest.NewDefaultTableConvertor: Name and Created At (RFC 3339).
 */
export type TablePrinter = { readonly kind: 'handwritten'; readonly cells: Readonly<Record<string, (obj: never) => unknown>> } | { readonly kind: 'columns' } | { readonly kind: 'default' };

export const COLUMN_PRINTER: TablePrinter = { kind: 'columns' };
export const DEFAULT_PRINTER: TablePrinter = { kind: 'default' };

/**
 * The printer a definition's strategy declares. A kind that declares none is served as kube
 * serves a kind whose author wrote no printer: by the column convertor when it declares printer
 * columns (@printcolumn, written for that convertor), else by kube's default convertor.
 */
export function tablePrinterOf(definition: Pick<ResourceDefinition, 'strategy' | 'printerColumns'>): TablePrinter {
  const declared = definition.strategy?.tablePrinter;
  if (declared === undefined) return definition.printerColumns.length > 0 ? COLUMN_PRINTER : DEFAULT_PRINTER;
  if (declared.kind !== 'handwritten') return declared.kind === 'columns' ? COLUMN_PRINTER : DEFAULT_PRINTER;
  return { kind: 'handwritten', cells: (declared.cells ?? {}) as Readonly<Record<string, (obj: never) => unknown>> };
}
