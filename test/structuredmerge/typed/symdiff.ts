// The table runner of structured-merge-diff typed/symdiff_test.go (the cases are in symdiff-*.test.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Set } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { Parser } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';

export interface SymdiffQuint {
  readonly lhs: string;
  readonly rhs: string;
  // Tested both ways: removed and added are symmetric.
  readonly removed: Set;
  readonly modified: Set;
  readonly added: Set;
}

export interface SymdiffTestCase {
  readonly name: string;
  readonly rootTypeName: string;
  readonly schema: string;
  readonly quints: readonly SymdiffQuint[];
}

const show = (s: Set): string => s.toString();

export function runSymdiffCases(symdiffCases: readonly SymdiffTestCase[]): void {
  describe('TestSymdiff', () => {
    for (const tt of symdiffCases) {
      describe(tt.name, () => {
        const parser = Parser.fromYAML(tt.schema);
        tt.quints.forEach((quint, i) => {
          test(`${tt.name}-valid-${i}`, () => {
            const pt = parser.type(tt.rootTypeName);
            const lhs = pt.fromYAML(quint.lhs, { allowDuplicates: true });
            const rhs = pt.fromYAML(quint.rhs, { allowDuplicates: true });
            const got = lhs.compare(rhs);
            assert.ok(got.added.equals(quint.added), `expected added:\n${show(quint.added)}\ngot:\n${show(got.added)}`);
            assert.ok(got.modified.equals(quint.modified), `expected modified:\n${show(quint.modified)}\ngot:\n${show(got.modified)}`);
            assert.ok(got.removed.equals(quint.removed), `expected removed:\n${show(quint.removed)}\ngot:\n${show(got.removed)}`);
            // The reverse comparison swaps added and removed.
            const reverse = rhs.compare(lhs);
            assert.ok(reverse.modified.equals(got.modified), `reverse modified:\n${show(reverse.modified)}`);
            assert.ok(reverse.removed.equals(got.added), `reverse removed:\n${show(reverse.removed)}`);
            assert.ok(reverse.added.equals(got.removed), `reverse added:\n${show(reverse.added)}`);
          });
        });
      });
    }
  });
}
