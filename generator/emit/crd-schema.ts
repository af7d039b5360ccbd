import { deepCopyJSON } from '../../runtime/apimachinery/serializer/jsonvalue.js';
import type { Diagnostic } from '../model/diagnostics.js';
import { PATCH_MERGE_KEY, PATCH_STRATEGY, type JSONSchemaProps } from '../model/schema.js';
import type { KindModel } from '../model/types.js';

const SCALAR_TYPES: ReadonlySet<string> = new Set(['string', 'integer', 'number', 'boolean']);

/**
 * A kind's schema as a CRD may carry it. This server's own schemas (generated/schemas) may hold
 * what kube-apiserver's CRD validation refuses; the exported CRD must install into any cluster
 * with the same meaning, so each such keyword is either rewritten to its CRD equivalent or
 * reported (`problems`, at the kind's declaration), never silently dropped:
 *
 * - strategic-merge-patch hints (`x-kubernetes-patch-*`) are dropped: a CRD has no strategic
 *   merge patch, and kube refuses the keywords;
 * - `uniqueItems: true` ("uniqueItems cannot be set to true since the runtime complexity becomes
 *   quadratic") on a list of scalars is `x-kubernetes-list-type: set`, which kube validates as
 *   unique; on anything else it is an error, for a CRD cannot say it;
 * - an embedded resource (`x-kubernetes-embedded-resource`, which may not have
 *   additionalProperties) that preserves unknown fields drops additionalProperties that only
 *   preserve unknown fields too (a `Record<string, unknown>`): the node already keeps every
 *   field; typed additionalProperties there are an error.
 */
export function crdSchema(kind: KindModel, problems: Diagnostic[]): JSONSchemaProps {
  const out = deepCopyJSON(kind.schema);
  visit(out, '', (message) => problems.push({ location: kind.source, message: `kind ${kind.kind}: ${message}` }));
  return out;
}

type Report = (message: string) => void;

function visit(node: JSONSchemaProps, path: string, report: Report): void {
  const raw = node as Record<string, unknown>;
  delete raw[PATCH_STRATEGY];
  delete raw[PATCH_MERGE_KEY];
  if (node.uniqueItems === true) uniqueAsSet(node, path, report);
  if (node['x-kubernetes-embedded-resource'] === true && node.additionalProperties !== undefined) embeddedWithoutAdditional(node, path, report);
  for (const [name, child] of Object.entries(node.properties ?? {})) visit(child, path === '' ? name : `${path}.${name}`, report);
  for (const [pattern, child] of Object.entries(node.patternProperties ?? {})) visit(child, `${path}[${pattern}]`, report);
  if (Array.isArray(node.items)) node.items.forEach((child, i) => visit(child, `${path}[${i}]`, report));
  else if (node.items !== undefined) visit(node.items, `${path}[]`, report);
  if (typeof node.additionalProperties === 'object') visit(node.additionalProperties, `${path}[*]`, report);
  for (const child of [...(node.allOf ?? []), ...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.not === undefined ? [] : [node.not])]) {
    visit(child, path, report);
  }
}

function uniqueAsSet(node: JSONSchemaProps, path: string, report: Report): void {
  const items = Array.isArray(node.items) ? undefined : node.items;
  const scalar = items !== undefined && items.type !== undefined && SCALAR_TYPES.has(items.type);
  const listType = node['x-kubernetes-list-type'];
  const refused = 'cannot be exported in a CRD (kube-apiserver refuses uniqueItems: true)';
  if (!scalar) {
    report(`${path}: @uniqueItems on a list of objects ${refused}: use @listType map with @listMapKey`);
    return;
  }
  if (listType !== undefined && listType !== 'set') {
    report(`${path}: @uniqueItems with @listType ${listType} ${refused}: use @listType set, whose items are unique`);
    return;
  }
  delete node.uniqueItems;
  node['x-kubernetes-list-type'] = 'set';
}

function embeddedWithoutAdditional(node: JSONSchemaProps, path: string, report: Report): void {
  const additional = node.additionalProperties;
  const onlyPreserves = typeof additional === 'object' && Object.keys(additional).every((k) => k === 'x-kubernetes-preserve-unknown-fields' || k === 'description');
  if (node['x-kubernetes-preserve-unknown-fields'] === true && (additional === true || onlyPreserves)) {
    delete node.additionalProperties;
    return;
  }
  report(`${path}: an @embeddedResource cannot also have typed values (additionalProperties) in a CRD: declare its fields, or mark it @preserveUnknownFields with values of type unknown`);
}
