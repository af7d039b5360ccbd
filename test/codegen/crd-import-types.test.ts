import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JSONSchemaProps } from '../../generator/model/schema.js';
import { printTypes } from '../../generator/crd-import/types.js';

// The TypeScript printed for imported CRD schemas: what a structural schema
// says about a value's type, and nothing its validation-only keywords say.
const kind = (name: string, spec: JSONSchemaProps, extra: Record<string, JSONSchemaProps> = {}): { kind: string; description: string; schema: JSONSchemaProps } => ({
  kind: name,
  description: `${name} is a test kind.`,
  schema: { type: 'object', properties: { spec, ...extra } },
});

const print = (spec: JSONSchemaProps): string => printTypes([kind('Widget', spec)]);

test('a bounded array (maxItems, minItems) is an ordinary array, never a tuple union', () => {
  const out = print({
    type: 'object',
    properties: {
      hosts: { type: 'array', maxItems: 16, minItems: 1, items: { type: 'string', maxLength: 253 } },
      rules: { type: 'array', maxItems: 64, items: { type: 'object', properties: { name: { type: 'string' } } } },
    },
  });
  assert.match(out, /hosts\?: string\[\];/);
  assert.match(out, /rules\?: \{\n\s+name\?: string;\n\s+\}\[\];/);
  assert.doesNotMatch(out, /\[string, string/);
});

test('oneOf, anyOf, allOf and not validate only: the type is that of the structural schema', () => {
  const plain: JSONSchemaProps = {
    type: 'object',
    properties: { a: { type: 'string' }, b: { type: 'integer' }, c: { type: 'array', items: { type: 'string' } } },
  };
  const junctors: JSONSchemaProps = {
    ...plain,
    oneOf: [{ required: ['a'] }, { required: ['b'] }],
    anyOf: [{ properties: { a: { pattern: '^x' } } }, { not: { required: ['c'] } }],
    allOf: [{ properties: { b: { minimum: 1 } } }],
    not: { required: ['a', 'b'] },
    properties: { ...plain.properties, c: { ...plain.properties!['c']!, 'x-kubernetes-validations': [{ rule: 'size(self) < 3' }], maxItems: 3 } },
  };
  assert.equal(print(junctors), print(plain));
  assert.match(print(plain), /a\?: string;\n\s+b\?: number;\n\s+c\?: string\[\];/);
});

test('int-or-string is number | string exactly where the schema says so', () => {
  const out = print({
    type: 'object',
    properties: {
      port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
      name: { type: 'string' },
      count: { type: 'integer', format: 'int32' },
      ports: { type: 'array', items: { 'x-kubernetes-int-or-string': true } },
    },
  });
  assert.match(out, /port\?: number \| string;/);
  assert.match(out, /name\?: string;/);
  assert.match(out, /count\?: number;/);
  assert.match(out, /ports\?: \(number \| string\)\[\];/);
  assert.equal(out.match(/number \| string/g)?.length, 2);
});

test('enums, nullable, maps, free-form and field-less objects, required fields and quoted keys', () => {
  const out = print({
    type: 'object',
    required: ['mode'],
    properties: {
      mode: { type: 'string', enum: ['y', 'n', "it's"] },
      level: { type: 'integer', enum: [1, 2] },
      note: { type: 'string', nullable: true },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      values: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      raw: { 'x-kubernetes-preserve-unknown-fields': true },
      empty: { type: 'object' },
      'x-weird.key': { type: 'boolean' },
      template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
    },
  });
  assert.match(out, /mode: 'y' \| 'n' \| 'it\\'s';/);
  assert.match(out, /level\?: 1 \| 2;/);
  assert.match(out, /note\?: string \| null;/);
  assert.match(out, /labels\?: \{ \[key: string\]: string \};/);
  assert.match(out, /values\?: \{ \[key: string\]: unknown \};/);
  assert.match(out, /raw\?: unknown;/);
  assert.match(out, /empty\?: \{ \[key: string\]: never \};/);
  assert.match(out, /'x-weird\.key'\?: boolean;/);
  assert.match(out, /template\?: \{\n\s+apiVersion\?: string;\n\s+kind\?: string;\n\s+metadata\?: ObjectMeta;\n\s+\[key: string\]: unknown;\n\s+\};/);
});

test("every kind declares apiVersion, kind and metadata first, with the schema's own documentation", () => {
  const out = printTypes([
    {
      kind: 'Widget',
      description: 'A widget.',
      schema: { type: 'object', properties: { spec: { type: 'object' }, kind: { type: 'string', description: 'The kind.' } } },
    },
  ]);
  assert.match(
    out,
    /^\/\*\*\n \* A widget\.\n \*\/\nexport interface Widget \{\n {2}apiVersion\?: string;\n {2}\/\*\*\n {3}\* The kind\.\n {3}\*\/\n {2}kind\?: string;\n {2}metadata\?: ObjectMeta;\n {2}spec\?:/,
  );
});

const SECRET_REF: JSONSchemaProps = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', description: 'Name of the Secret.' }, key: { type: 'string' } },
};
const ISSUER_SPEC: JSONSchemaProps = {
  type: 'object',
  properties: {
    acme: { type: 'object', properties: { server: { type: 'string' }, privateKeySecretRef: { ...SECRET_REF, description: 'The account key.' } } },
    vault: { type: 'object', properties: { path: { type: 'string' }, tokenSecretRef: { ...SECRET_REF, description: 'The token.' } } },
  },
};

test('a structure that repeats (within a kind or across kinds) is one named interface, referenced where it recurs', () => {
  const out = printTypes([kind('ClusterIssuer', { ...ISSUER_SPEC, description: 'Cluster-wide.' }), kind('Issuer', { ...ISSUER_SPEC, description: 'In a namespace.' })]);
  // The spec is printed once, whatever each use's own description says; its repeated secret
  // reference once more; each use keeps its description as the field's documentation.
  assert.equal(out.match(/server\?: string;/g)?.length, 1);
  assert.match(out, /export interface ClusterIssuer \{[^]*? \* Cluster-wide\.\n {3}\*\/\n {2}spec\?: IssuerSpec;/);
  assert.match(out, /export interface Issuer \{[^]*? \* In a namespace\.\n {3}\*\/\n {2}spec\?: IssuerSpec;/);
  // Named by the shortest path that reaches it.
  assert.match(out, /export interface IssuerSpec \{/);
  assert.match(out, /privateKeySecretRef\?: IssuerSpecVaultTokenSecretRef;/);
  assert.match(out, /tokenSecretRef\?: IssuerSpecVaultTokenSecretRef;/);
  assert.equal(out.match(/Name of the Secret\./g)?.length, 1);
  // Structures used once stay inline.
  assert.doesNotMatch(out, /interface \w*Acme \{/);
});

test('names are deterministic: the same schemas print the same text, and a clash gets a number', () => {
  const x: JSONSchemaProps = { type: 'object', properties: { server: { type: 'string' } } };
  const y: JSONSchemaProps = { type: 'object', properties: { z: { type: 'string' } } };
  // Both structures are reached first by a path spelled IssuerSpecAcme (spec.acme and specAcme).
  const kinds = [
    kind(
      'Issuer',
      { type: 'object', properties: { acme: x, vault: { type: 'object', properties: { acmeCopy: x } } } },
      {
        specAcme: y,
        other: { type: 'object', properties: { longerName: y } },
      },
    ),
  ];
  const a = printTypes(kinds);
  assert.equal(printTypes(kinds), a);
  const names = [...a.matchAll(/^export interface (\w+)/gm)].map((m) => m[1]);
  assert.deepEqual(names, ['Issuer', 'IssuerSpecAcme', 'IssuerSpecAcme2']);
  assert.match(a, /acme\?: IssuerSpecAcme2?;[^]*acmeCopy\?: IssuerSpecAcme2?;/);
});
