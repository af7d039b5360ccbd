// The kinds of kube's OpenAPI v2 test documents (copies of k8s.io/apimachinery's
// pkg/util/managedfields/internal/testdata/swagger.json, trimmed) as the GVKSchemas our
// typeconverter takes: every definition carrying x-kubernetes-group-version-kind, with its
// references inlined.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JSONSchemaProps } from '../../../apis/apiextensions/v1/schema.js';
import type { GVKSchema, TypeConverter } from '../../../runtime/apimachinery/managedfields/typeconverter.js';
import { newTypeConverter } from '../../../runtime/apimachinery/managedfields/typeconverter.js';
import { resolveOpenAPISchema } from '../../../runtime/apimachinery/schema/resolve.js';

const here = dirname(fileURLToPath(import.meta.url));

/** The definitions of the given documents of this folder, merged (later files win). */
export function swaggerDefinitions(...files: string[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const f of files) {
    // Swagger 2 references (#/definitions/…) written as OpenAPI 3's, which resolveOpenAPISchema follows.
    const text = readFileSync(join(here, f), 'utf8').replaceAll('"#/definitions/', '"#/components/schemas/');
    Object.assign(out, (JSON.parse(text) as { definitions: Record<string, Record<string, unknown>> }).definitions);
  }
  return out;
}

/** One GVKSchema per group-version-kind a definition declares, named after the definition. */
export function swaggerKinds(...files: string[]): GVKSchema[] {
  const definitions = swaggerDefinitions(...files);
  const kinds: GVKSchema[] = [];
  for (const [name, def] of Object.entries(definitions)) {
    const gvks = def['x-kubernetes-group-version-kind'];
    if (!Array.isArray(gvks)) continue;
    const schema = resolveOpenAPISchema({ components: { schemas: definitions } }, name) as JSONSchemaProps;
    for (const gvk of gvks as Array<{ group: string; version: string; kind: string }>) {
      if (gvk.kind === '') continue;
      kinds.push({ apiVersion: gvk.group === '' ? gvk.version : `${gvk.group}/${gvk.version}`, kind: gvk.kind, schema, name });
    }
  }
  return kinds;
}

let testTypeConverter: TypeConverter | undefined;

/** kube's testTypeConverter: the kinds of its test swagger.json (with the v1beta1 Deployments), unknown fields refused. */
export function swaggerTypeConverter(): TypeConverter {
  testTypeConverter ??= newTypeConverter(swaggerKinds('swagger.json', 'swagger-deployments-v1beta1.json'), { preserveUnknownFields: false });
  return testTypeConverter;
}
