import type { OutputFile } from '../emit/output.js';
import { printJSON } from './json.js';
import { printTypeScript } from './typescript.js';
import { printYAML } from './yaml.js';

export interface PrintedFile {
  /** Project-relative path. */
  readonly path: string;
  readonly text: string;
}

export function printFile(file: OutputFile): PrintedFile {
  switch (file.format) {
    case 'ts':
      return { path: file.path, text: printTypeScript(file.structure) };
    case 'json':
      return { path: file.path, text: printJSON(file.value, { header: true }) };
    case 'yaml':
      return { path: file.path, text: printYAML(file.value, file.comment) };
    case 'text':
      return { path: file.path, text: file.text };
  }
}
