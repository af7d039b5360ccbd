// Ported from sigs.k8s.io/structured-merge-diff merge/default_keys_test.go.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { VersionedSet } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { Conflict } from '../../../runtime/apimachinery/structuredmerge/merge/index.js';
import { Parser as SchemaParser } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import type { TestCase } from '../fixture/index.js';
import { Apply, runTable, runTestCase, managedFields, _NS, _P, _KBF } from '../fixture/index.js';

// portListParser sets the default value of key "protocol" to "TCP"
const portListParser = SchemaParser.fromYAML(`types:
- name: v1
  map:
    fields:
      - name: containerPorts
        type:
          list:
            elementType:
              map:
                fields:
                - name: port
                  type:
                    scalar: numeric
                - name: protocol
                  default: "TCP"
                  type:
                    scalar: string
                - name: name
                  type:
                    scalar: string
            elementRelationship: associative
            keys:
            - port
            - protocol
`);

const testDefaultKeysFlat: Record<string, TestCase> = {
  apply_missing_defaulted_key_A: {
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						containerPorts:
						- port: 80
					`,
      }),
    ],
    apiVersion: 'v1',
    object: `
				containerPorts:
				- port: 80
			`,
    managed: managedFields({
      default: new VersionedSet(_NS(_P('containerPorts', _KBF('port', 80, 'protocol', 'TCP')), _P('containerPorts', _KBF('port', 80, 'protocol', 'TCP'), 'port')), 'v1', false),
    }),
  },
  apply_missing_defaulted_key_B: {
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						containerPorts:
						- port: 80
						- port: 80
						  protocol: UDP
					`,
      }),
    ],
    apiVersion: 'v1',
    object: `
				containerPorts:
				- port: 80
				- port: 80
				  protocol: UDP
			`,
    managed: managedFields({
      default: new VersionedSet(
        _NS(
          _P('containerPorts', _KBF('port', 80, 'protocol', 'TCP')),
          _P('containerPorts', _KBF('port', 80, 'protocol', 'TCP'), 'port'),
          _P('containerPorts', _KBF('port', 80, 'protocol', 'UDP')),
          _P('containerPorts', _KBF('port', 80, 'protocol', 'UDP'), 'port'),
          _P('containerPorts', _KBF('port', 80, 'protocol', 'UDP'), 'protocol'),
        ),
        'v1',
        false,
      ),
    }),
  },
  apply_missing_defaulted_key_with_conflict: {
    ops: [
      new Apply({
        manager: 'apply-one',
        apiVersion: 'v1',
        object: `
						containerPorts:
						- port: 80
						  protocol: TCP
						  name: foo
					`,
      }),
      new Apply({
        manager: 'apply-two',
        apiVersion: 'v1',
        object: `
						containerPorts:
						- port: 80
						  name: bar
					`,
        conflicts: [new Conflict('apply-one', _P('containerPorts', _KBF('port', 80, 'protocol', 'TCP'), 'name'))],
      }),
    ],
    apiVersion: 'v1',
    object: `
				containerPorts:
				- port: 80
				  protocol: TCP
				  name: foo
			`,
    managed: managedFields({
      'apply-one': new VersionedSet(
        _NS(
          _P('containerPorts', _KBF('port', 80, 'protocol', 'TCP')),
          _P('containerPorts', _KBF('port', 80, 'protocol', 'TCP'), 'port'),
          _P('containerPorts', _KBF('port', 80, 'protocol', 'TCP'), 'protocol'),
          _P('containerPorts', _KBF('port', 80, 'protocol', 'TCP'), 'name'),
        ),
        'v1',
        false,
      ),
    }),
  },
  apply_missing_undefaulted_defaulted_key: {
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						containerPorts:
						- protocol: TCP
						  name: A
					`,
      }),
    ],
    apiVersion: 'v1',
    object: `
				containerPorts:
				- protocol: TCP
				  name: A
			`,
    managed: managedFields({
      default: new VersionedSet(
        _NS(_P('containerPorts', _KBF('protocol', 'TCP')), _P('containerPorts', _KBF('protocol', 'TCP'), 'name'), _P('containerPorts', _KBF('protocol', 'TCP'), 'protocol')),
        'v1',
        true,
      ),
    }),
  },
};

describe('TestDefaultKeysFlat', () => runTable(testDefaultKeysFlat, portListParser));

describe('TestDefaultKeysFlatErrors', () => {
  const tests: Record<string, TestCase> = {
    apply_missing_defaulted_key_ambiguous_A: {
      ops: [
        new Apply({
          manager: 'default',
          apiVersion: 'v1',
          object: `
						containerPorts:
						- port: 80
						- port: 80
					`,
        }),
      ],
    },
    apply_missing_defaulted_key_ambiguous_B: {
      ops: [
        new Apply({
          manager: 'default',
          apiVersion: 'v1',
          object: `
						containerPorts:
						- port: 80
						- port: 80
						  protocol: TCP
					`,
        }),
      ],
    },
  };
  for (const [name, tc] of Object.entries(tests)) {
    test(name, () => assert.rejects(runTestCase(tc, portListParser)));
  }
});

// bookParser sets the default value of key:
// * "chapter" to 1
// * "section" to "A"
// * "page" to 2,
// * "line" to 3,
const bookParser = SchemaParser.fromYAML(`types:
- name: v1
  map:
    fields:
      - name: book
        type:
          list:
            elementType:
              map:
                fields:
                - name: chapter
                  default: 1
                  type:
                    scalar: numeric
                - name: section
                  default: "A"
                  type:
                    scalar: string
                - name: sentences
                  type:
                    list:
                      elementType:
                        map:
                          fields:
                          - name: page
                            default: 2.0
                            type:
                              scalar: numeric
                          - name: line
                            default: 3
                            type:
                              scalar: numeric
                          - name: text
                            type:
                              scalar: string
                      elementRelationship: associative
                      keys:
                      - page
                      - line
            elementRelationship: associative
            keys:
            - chapter
            - section
`);

const testDefaultKeysNested: Record<string, TestCase> = {
  apply_missing_every_key_nested: {
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						book:
						- sentences:
						  - text: blah
					`,
      }),
    ],
    apiVersion: 'v1',
    object: `
				book:
				- sentences:
				  - text: blah
			`,
    managed: managedFields({
      default: new VersionedSet(
        _NS(
          _P('book', _KBF('chapter', 1, 'section', 'A')),
          _P('book', _KBF('chapter', 1, 'section', 'A'), 'sentences', _KBF('page', 2, 'line', 3)),
          _P('book', _KBF('chapter', 1, 'section', 'A'), 'sentences', _KBF('page', 2, 'line', 3), 'text'),
        ),
        'v1',
        false,
      ),
    }),
  },
  apply_integer_key_with_float_default: {
    ops: [
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						book:
						- sentences:
						  - text: blah
					`,
      }),
      new Apply({
        manager: 'default',
        apiVersion: 'v1',
        object: `
						book:
						- sentences:
						  - text: blah
						    page: 2
					`,
      }),
    ],
    apiVersion: 'v1',
    object: `
				book:
				- sentences:
				  - text: blah
				    page: 2
			`,
    managed: managedFields({
      default: new VersionedSet(
        _NS(
          _P('book', _KBF('chapter', 1, 'section', 'A')),
          _P('book', _KBF('chapter', 1, 'section', 'A'), 'sentences', _KBF('page', 2, 'line', 3)),
          _P('book', _KBF('chapter', 1, 'section', 'A'), 'sentences', _KBF('page', 2, 'line', 3), 'text'),
          _P('book', _KBF('chapter', 1, 'section', 'A'), 'sentences', _KBF('page', 2, 'line', 3), 'page'),
        ),
        'v1',
        false,
      ),
    }),
  },
};

describe('TestDefaultKeysNested', () => runTable(testDefaultKeysNested, bookParser));
