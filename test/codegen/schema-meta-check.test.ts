// Codegen refuses to write a schema file the server could not trust (see
// generator/emit/schema-meta-check.ts): the server compiles built-in schemas without ajv's
// meta-schema check.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkSchemaFiles } from '../../generator/emit/schema-meta-check.js';
import { CodegenError } from '../../generator/model/diagnostics.js';

test('a generated schema file that is not a valid JSON schema fails codegen, naming the file', () => {
  const bad = { path: 'generated/schemas/x/v1/thing.json', text: JSON.stringify({ type: 'object', properties: { n: { type: 'integer', minimum: 'zero' } } }) };
  assert.throws(
    () => checkSchemaFiles([bad]),
    (e: unknown) => e instanceof CodegenError && e.message.includes('generated/schemas/x/v1/thing.json: not a valid JSON schema') && e.message.includes('minimum'),
  );
});

test('valid schema files and files outside generated/schemas pass', () => {
  checkSchemaFiles([
    { path: 'generated/schemas/x/v1/thing.json', text: JSON.stringify({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }) },
    { path: 'generated/openapi/x.json', text: JSON.stringify({ minimum: 'not a schema file' }) },
  ]);
});
