import type { SourceFileStructure } from 'ts-morph';

/** One file an emitter produces: a structure, printed and written later. */
export type OutputFile =
  | { readonly path: string; readonly format: 'ts'; readonly structure: SourceFileStructure }
  | { readonly path: string; readonly format: 'json'; readonly value: unknown }
  /** `comment`: prose printed as `#` lines after the generated-file header. */
  | { readonly path: string; readonly format: 'yaml'; readonly value: unknown; readonly comment?: string }
  /** Already printed (types printed by crd-import), header included. */
  | { readonly path: string; readonly format: 'text'; readonly text: string };
