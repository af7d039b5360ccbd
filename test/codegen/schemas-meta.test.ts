// The built-in groups' schemas are compiled at run time without ajv's meta-schema check
// (SchemaValidator({ trusted: true }), saving its compile on every start). What makes that safe is
// this test: every schema the generator wrote for a served kind passes the check.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRequire } from 'node:module';
import type { Ajv } from 'ajv';
import { apiGroups } from '../../generated/index.js';
import { withProtoProperties } from '../../runtime/apimachinery/validation/schema-validator.js';

test("every generated schema of a served kind is valid against ajv's meta-schema (draft-07)", () => {
  const { Ajv: AjvClass } = createRequire(import.meta.url)('ajv') as { Ajv: new (o: object) => Ajv };
  // strict: false as the runtime's ajv: the x-kubernetes-* keywords are annotations here
  const ajv = new AjvClass({ strict: false });
  let checked = 0;
  const errors: string[] = [];
  for (const group of apiGroups) {
    for (const version of group.versions) {
      for (const resource of version.resources) {
        if (!ajv.validateSchema(withProtoProperties(resource.schema))) errors.push(`${group.name || 'core'}/${version.name} ${resource.kind}: ${ajv.errorsText(ajv.errors)}`);
        checked++;
      }
    }
  }
  assert.deepEqual(errors, []);
  assert.ok(checked > 20, `${checked} schemas checked`);
});
