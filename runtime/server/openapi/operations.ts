import { DELETE_OPTIONS_SCHEMA, PATCH_SCHEMA, SCALE_SCHEMA, schemaRef, STATUS_SCHEMA } from '../../apimachinery/definition/meta-schemas.js';
import { groupVersionPath, operationGroupVersion, operationTag } from './naming.js';
import {
  CREATE_PARAMETERS,
  DELETE_COLLECTION_PARAMETERS,
  DELETE_PARAMETERS,
  GET_PARAMETERS,
  LIST_PARAMETERS,
  NAME_PARAMETER,
  NAMESPACE_PARAMETER,
  PATCH_PARAMETERS,
  REPLACE_PARAMETERS,
} from './parameters.js';
import type { GroupVersionKindRef, KubernetesAction, MediaTypes, OpenAPIResource, Operation, PatchType, PathItem } from './types.js';

/** What the operations of one resource share. */
export interface ResourceContext {
  readonly group: string;
  readonly version: string;
  readonly resource: OpenAPIResource;
  readonly listDefinition: string;
  readonly patchTypes: readonly PatchType[];
}

const UNAUTHORIZED = { description: 'Unauthorized' };

function json(schemaName: string): MediaTypes {
  return { 'application/json': { schema: schemaRef(schemaName) } };
}

function ok(schemaName: string, ...codes: string[]): Operation['responses'] {
  const out: Record<string, { description: string; content?: MediaTypes }> = {};
  const text: Record<string, string> = { '200': 'OK', '201': 'Created', '202': 'Accepted' };
  for (const code of codes) out[code] = { description: text[code] ?? 'OK', content: json(schemaName) };
  out['401'] = UNAUTHORIZED;
  return out;
}

interface OperationSpec {
  readonly verb: 'list' | 'create' | 'read' | 'replace' | 'patch' | 'delete';
  readonly action: KubernetesAction;
  /** What follows the group-version in the operation ID: `NamespacedService`, `CollectionNamespace`. */
  readonly rest: string;
  readonly description: string;
  readonly gvk: GroupVersionKindRef;
  readonly parameters: Operation['parameters'];
  readonly requestBody?: Operation['requestBody'];
  readonly responses: Operation['responses'];
}

function operation(ctx: ResourceContext, spec: OperationSpec): Operation {
  const op: Operation = {
    tags: [operationTag(ctx.group, ctx.version)],
    description: spec.description,
    operationId: spec.verb + operationGroupVersion(ctx.group, ctx.version) + spec.rest,
    ...(spec.parameters && spec.parameters.length > 0 ? { parameters: spec.parameters } : {}),
    ...(spec.requestBody ? { requestBody: spec.requestBody } : {}),
    responses: spec.responses,
    'x-kubernetes-action': spec.action,
    'x-kubernetes-group-version-kind': spec.gvk,
  };
  return op;
}

function patchBody(patchTypes: readonly PatchType[]): Operation['requestBody'] {
  const content: Record<string, { schema: unknown }> = {};
  for (const t of [...patchTypes].sort()) content[t] = { schema: schemaRef(PATCH_SCHEMA) };
  return { content, required: true };
}

/**
 * The path items of one resource: collection and item routes (namespaced, plus the
 * all-namespaces list for namespaced kinds), the status and scale routes as declared, and a POST
 * route per subresource created through with a kind of its own. Only
 * routes whose verb the resource serves are emitted. Keys are full paths.
 */
export function resourcePaths(ctx: ResourceContext): Record<string, PathItem> {
  const { resource: r } = ctx;
  const base = groupVersionPath(ctx.group, ctx.version);
  const scope = r.namespaced ? `${base}/namespaces/{namespace}` : base;
  const ns = r.namespaced ? 'Namespaced' : '';
  const gvk: GroupVersionKindRef = { group: ctx.group, kind: r.kind, version: ctx.version };
  const has = (verb: string): boolean => r.verbs.includes(verb);
  const paths: Record<string, PathItem> = {};
  const collectionParams = r.namespaced ? [NAMESPACE_PARAMETER] : [];
  const itemParams = r.namespaced ? [NAME_PARAMETER, NAMESPACE_PARAMETER] : [NAME_PARAMETER];

  const collection: Record<string, Operation> = {};
  if (has('list'))
    collection['get'] = operation(ctx, {
      verb: 'list',
      action: 'list',
      rest: `${ns}${r.kind}`,
      description: `list or watch objects of kind ${r.kind}`,
      gvk,
      parameters: LIST_PARAMETERS,
      responses: listResponses(ctx.listDefinition),
    });
  if (has('create')) {
    collection['post'] = operation(ctx, {
      verb: 'create',
      action: 'post',
      rest: `${ns}${r.kind}`,
      description: `create a ${r.kind}`,
      gvk,
      parameters: CREATE_PARAMETERS,
      requestBody: { content: json(r.definition), required: true },
      responses: ok(r.definition, '200', '201', '202'),
    });
  }
  if (has('deletecollection')) {
    collection['delete'] = operation(ctx, {
      verb: 'delete',
      action: 'deletecollection',
      rest: `Collection${ns}${r.kind}`,
      description: `delete collection of ${r.kind}`,
      gvk,
      parameters: DELETE_COLLECTION_PARAMETERS,
      requestBody: { content: json(DELETE_OPTIONS_SCHEMA), required: false },
      responses: ok(STATUS_SCHEMA, '200'),
    });
  }
  if (Object.keys(collection).length > 0) paths[`${scope}/${r.name}`] = withParams(collection, collectionParams);

  const item: Record<string, Operation> = {};
  if (has('get'))
    item['get'] = operation(ctx, {
      verb: 'read',
      action: 'get',
      rest: `${ns}${r.kind}`,
      description: `read the specified ${r.kind}`,
      gvk,
      parameters: GET_PARAMETERS,
      responses: ok(r.definition, '200'),
    });
  if (has('update')) item['put'] = replaceOp(ctx, `${ns}${r.kind}`, `replace the specified ${r.kind}`, gvk, r.definition);
  if (has('patch')) item['patch'] = patchOp(ctx, `${ns}${r.kind}`, `partially update the specified ${r.kind}`, gvk, r.definition);
  if (has('delete')) {
    item['delete'] = operation(ctx, {
      verb: 'delete',
      action: 'delete',
      rest: `${ns}${r.kind}`,
      description: `delete a ${r.kind}`,
      gvk,
      parameters: DELETE_PARAMETERS,
      requestBody: { content: json(DELETE_OPTIONS_SCHEMA), required: false },
      responses: ok(STATUS_SCHEMA, '200', '202'),
    });
  }
  if (Object.keys(item).length > 0) paths[`${scope}/${r.name}/{name}`] = withParams(item, itemParams);

  if (r.subresources?.status) paths[`${scope}/${r.name}/{name}/status`] = withParams(subresourceOps(ctx, 'Status', 'status', gvk, r.definition), itemParams);
  if (r.subresources?.scale) {
    const scaleGVK: GroupVersionKindRef = { group: 'autoscaling', kind: 'Scale', version: 'v1' };
    paths[`${scope}/${r.name}/{name}/scale`] = withParams(subresourceOps(ctx, 'Scale', 'scale', scaleGVK, SCALE_SCHEMA), itemParams);
  }
  for (const sub of r.createSubresources ?? []) {
    const create = operation(ctx, {
      verb: 'create',
      action: 'post',
      rest: `${ns}${r.kind}${sub.name.charAt(0).toUpperCase()}${sub.name.slice(1)}`,
      description: `create ${sub.name} of a ${r.kind}`,
      gvk: sub.gvk,
      parameters: CREATE_PARAMETERS,
      requestBody: { content: json(sub.definition), required: true },
      responses: ok(sub.definition, '200', '201', '202'),
    });
    paths[`${scope}/${r.name}/{name}/${sub.name}`] = withParams({ post: create }, itemParams);
  }
  if (r.namespaced && has('list')) {
    paths[`${base}/${r.name}`] = {
      get: operation(ctx, {
        verb: 'list',
        action: 'list',
        rest: `${r.kind}ForAllNamespaces`,
        description: `list or watch objects of kind ${r.kind}`,
        gvk,
        parameters: LIST_PARAMETERS,
        responses: listResponses(ctx.listDefinition),
      }),
    };
  }
  return paths;
}

function subresourceOps(ctx: ResourceContext, title: string, name: string, gvk: GroupVersionKindRef, schema: string): Record<string, Operation> {
  const { resource: r } = ctx;
  const rest = `${r.namespaced ? 'Namespaced' : ''}${r.kind}${title}`;
  return {
    get: operation(ctx, { verb: 'read', action: 'get', rest, description: `read ${name} of the specified ${r.kind}`, gvk, parameters: GET_PARAMETERS, responses: ok(schema, '200') }),
    put: replaceOp(ctx, rest, `replace ${name} of the specified ${r.kind}`, gvk, schema),
    patch: patchOp(ctx, rest, `partially update ${name} of the specified ${r.kind}`, gvk, schema),
  };
}

function replaceOp(ctx: ResourceContext, rest: string, description: string, gvk: GroupVersionKindRef, schema: string): Operation {
  return operation(ctx, {
    verb: 'replace',
    action: 'put',
    rest,
    description,
    gvk,
    parameters: REPLACE_PARAMETERS,
    requestBody: { content: json(schema), required: true },
    responses: ok(schema, '200', '201'),
  });
}

function patchOp(ctx: ResourceContext, rest: string, description: string, gvk: GroupVersionKindRef, schema: string): Operation {
  return operation(ctx, { verb: 'patch', action: 'patch', rest, description, gvk, parameters: PATCH_PARAMETERS, requestBody: patchBody(ctx.patchTypes), responses: ok(schema, '200', '201') });
}

function listResponses(listDefinition: string): Operation['responses'] {
  return {
    '200': { description: 'OK', content: { 'application/json': { schema: schemaRef(listDefinition) }, 'application/json;stream=watch': { schema: schemaRef(listDefinition) } } },
    '401': UNAUTHORIZED,
  };
}

function withParams(ops: Record<string, Operation>, parameters: PathItem['parameters']): PathItem {
  return parameters && parameters.length > 0 ? { ...ops, parameters } : { ...ops };
}
