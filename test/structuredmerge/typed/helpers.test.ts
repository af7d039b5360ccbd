// Port of structured-merge-diff typed/helpers_test.go.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Parser } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import { Apply, runTestCase, SameVersionParser } from '../fixture/index.js';

test('TestInvalidOverride', async () => {
  // An element relationship on a scalar type cannot be resolved: applying fails with the type named.
  const parser = Parser.fromYAML(`
    types:
    - name: type
      map:
        fields:
          - name: field
            type:
              scalar: numeric
              elementRelationship: atomic
      `);
  const sameVersionParser = new SameVersionParser(parser.type('type'));
  await assert.rejects(runTestCase({ ops: [new Apply({ manager: 'apply_one', object: '\n\t\t\tfield: 1\n\t\t', apiVersion: 'v1' })], apiVersion: 'v1' }, sameVersionParser), (err: Error) =>
    err.message.includes('no type found matching: inlined type'),
  );
});
