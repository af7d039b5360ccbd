import { eventPrinterCells } from '../../core/v1/event-table.js';
import { eventToCore } from './core-conversion.js';
import type { Event } from './types.js';

/** kube's printEvent serves both APIs from its internal Event: the cells of core's table, read from the core form. */
export const eventPrinterCellsV1 = Object.fromEntries(Object.entries(eventPrinterCells).map(([column, cell]) => [column, (e: Event) => cell(eventToCore(e))])) as {
  readonly [K in keyof typeof eventPrinterCells]: (e: Event) => ReturnType<(typeof eventPrinterCells)[K]>;
};
