import { createRequire } from 'node:module';
import type { Ajv } from 'ajv';
import { CodegenError, type Diagnostic } from '../model/diagnostics.js';
import type { PrintedFile } from '../print/index.js';
import { withProtoProperties } from '../../runtime/apimachinery/validation/schema-validator.js';
import type { JSONSchemaProps } from '../../apis/apiextensions/v1/schema.js';

/**
 * The server compiles the schemas codegen writes without ajv's meta-schema check (they are
 * trusted; checking each at start cost ~65 ms), so codegen checks them instead: a schema file
 * (`generated/schemas/**.json`) whose form ajv compiles (OpenAPI v3.0's exclusive bounds made
 * draft-07's, as the server does) is not a valid draft-07 schema fails the run.
 */
export function checkSchemaFiles(files: readonly PrintedFile[]): void {
  const schemas = files.filter((f) => /(^|\/)generated\/schemas\/.*\.json$/.test(f.path));
  if (schemas.length === 0) return;
  const { Ajv: AjvClass } = createRequire(import.meta.url)('ajv') as { Ajv: new (o: object) => Ajv };
  // strict: false as the server's ajv: the x-kubernetes-* keywords are annotations here
  const ajv = new AjvClass({ strict: false });
  const problems: Diagnostic[] = [];
  for (const f of schemas) {
    if (!ajv.validateSchema(withProtoProperties(JSON.parse(f.text) as JSONSchemaProps)))
      problems.push({ location: undefined, message: `${f.path}: not a valid JSON schema: ${ajv.errorsText(ajv.errors)}` });
  }
  if (problems.length > 0) throw new CodegenError(problems);
}
