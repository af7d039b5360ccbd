import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { CodegenError } from '../../generator/model/diagnostics.js';
import type { ApiModel } from '../../generator/model/types.js';
import { parseApis } from '../../generator/parse/index.js';
import type { ScratchProject } from './harness.js';

export interface ScratchParser {
  /** Replaces the group's directory with `files` (path → text) and parses apis/. */
  parse(files: Record<string, string>): ApiModel;
  /** Like parse, for definitions that must fail: the CodegenError (anything else fails the test). */
  errorsOf(files: Record<string, string>): CodegenError;
}

/** parseApis on a scratch project whose group directory (`apis/<group>`) each case rewrites. */
export function scratchParser(project: ScratchProject, groupDir: string): ScratchParser {
  const parse = (files: Record<string, string>): ApiModel => {
    rmSync(join(project.root, groupDir), { recursive: true, force: true });
    for (const [path, text] of Object.entries(files)) project.write(path, text);
    return parseApis({ root: project.root });
  };
  return {
    parse,
    errorsOf(files) {
      try {
        parse(files);
      } catch (err) {
        assert.ok(err instanceof CodegenError, `expected CodegenError, got ${String(err)}`);
        return err;
      }
      assert.fail('parseApis succeeded but should have failed');
    },
  };
}
