// Ported from sigs.k8s.io/structured-merge-diff merge/preserve_unknown_test.go.
import { describe } from 'node:test';
import { VersionedSet } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { Parser as SchemaParser } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import type { TestCase } from '../fixture/index.js';
import { Apply, SameVersionParser, runTable, managedFields, _NS, _P } from '../fixture/index.js';

const preserveUnknownParser = new SameVersionParser(
  SchemaParser.fromYAML(
    `types:
- name: type
  map:
    fields:
      - name: num
        type:
          scalar: numeric
    elementType:
      scalar: string
`,
  ).type('type'),
);

const testPreserveUnknownFields: Record<string, TestCase> = {
  preserve_unknown_fields: {
    ops: [
      new Apply({
        manager: 'default',
        object: `
						num: 5
						unknown: value
					`,
        apiVersion: 'v1',
      }),
      new Apply({
        manager: 'default',
        object: `
						num: 6
						unknown: new
					`,
        apiVersion: 'v1',
      }),
    ],
    object: `
				num: 6
				unknown: new
			`,
    apiVersion: 'v1',
    managed: managedFields({
      default: new VersionedSet(_NS(_P('num'), _P('unknown')), 'v1', false),
    }),
  },
};

describe('TestPreserveUnknownFields', () => runTable(testPreserveUnknownFields, preserveUnknownParser));
