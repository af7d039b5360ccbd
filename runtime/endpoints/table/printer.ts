import type { ResourceDefinition } from '../../apimachinery/definition/resource.js';

/**
 * Which of kube's Table convertors a resource version stands for, chosen once by the installer:
 *
 * - `handwritten`: a built-in kind's printer (kube's printerstorage.TableConvertor over the
 *   handlers of pkg/printers/internalversion). It lays out every column itself: a declared name
 *   column (`.metadata.name`, format `name`) is the Name where it stands, and `cells` compute
 *   what no JSONPath can (APIService's `Local`).
 * - `columns`: the column convertor (apiextensions-apiserver's tableconvertor.New, kube's for
 *   CRDs): Name first, then every printer column, or `Age` when there is none.
 */
export type TablePrinter = { readonly kind: 'handwritten'; readonly cells: Readonly<Record<string, (obj: never) => unknown>> } | { readonly kind: 'columns' };

export const COLUMN_PRINTER: TablePrinter = { kind: 'columns' };

/**
 * The installer's choice for a definition: a kind whose strategy carries printer code
 * (`printerCells`, even empty) ports one of kube's hand-written printers, so it is `handwritten`;
 * every other kind (custom resources, whose apiextensions strategy has none, and generated kinds
 * without printer code) gets the column convertor.
 */
export function tablePrinterOf(definition: Pick<ResourceDefinition, 'strategy'>): TablePrinter {
  const cells = definition.strategy?.printerCells;
  return cells === undefined ? COLUMN_PRINTER : { kind: 'handwritten', cells: cells as Readonly<Record<string, (obj: never) => unknown>> };
}
