import { decodeSchemaAsGo } from './schema-decode.js';
import type { CustomResourceDefinition } from './types.js';

/**
 * SetDefaults_CustomResourceDefinition of apiextensions v1: singular and listKind from the
 * kind, conversion strategy None, webhook service port 443, and the storage version recorded
 * in status.storedVersions. Runs on objects decoded from requests; mutates in place. Their
 * schemas are first read as Go decodes a JSONSchemaProps (decodeSchemaAsGo).
 */
export function setCustomResourceDefinitionDefaults(obj: CustomResourceDefinition): void {
  const spec = obj.spec;
  if (spec === undefined || spec === null) return;
  // Go decoded the schemas before its defaulter ran: their nulls are Go's zeros here too.
  for (const v of spec.versions ?? []) if (v?.schema !== undefined && v.schema !== null) decodeSchemaAsGo(v.schema.openAPIV3Schema);
  const names = spec.names;
  if (names !== undefined && names !== null) {
    if ((names.singular ?? '') === '' && typeof names.kind === 'string') names.singular = names.kind.toLowerCase();
    if ((names.listKind ?? '') === '' && typeof names.kind === 'string' && names.kind !== '') names.listKind = `${names.kind}List`;
  }
  spec.conversion ??= { strategy: 'None' };
  const service = spec.conversion.webhook?.clientConfig?.service;
  if (service !== undefined && service.port === undefined) service.port = 443;
  if ((obj.status?.storedVersions ?? []).length === 0) {
    const storage = (spec.versions ?? []).find((v) => v.storage)?.name;
    if (storage !== undefined) obj.status = { ...obj.status, storedVersions: [storage] };
  }
}
