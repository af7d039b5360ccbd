import { newMethodNotSupported, newNotFound, newPathNotFound, toStatusError } from '../apimachinery/errors/index.js';
import { KindScheme } from '../apimachinery/scheme/scheme.js';
import { groupVersionString } from '../apimachinery/managedfields/groupversion.js';
import { SchemaValidator } from '../apimachinery/validation/schema-validator.js';
import type { AdmissionChain } from '../admission/types.js';
import type { ResourceStorage } from '../registry/rest.js';
import type { APIGroupDefinition, CreateSubresource, GroupServer } from '../registry/types.js';
import type { JSONSchemaProps } from '../../apis/apiextensions/v1/schema.js';
import type { OpenAPIComponentsDocument, ResourceDefinition, Verb } from '../apimachinery/definition/resource.js';
import { SCALE_SCHEMA, scaleSchemas } from '../apimachinery/definition/meta-schemas.js';
import type { APIRequest, APIResponse, Handler } from '../apimachinery/request/http.js';
import { createNamedResource, createResource } from './handlers/create.js';
import { createSubresourceScope } from './create-subresource.js';
import { kindFieldManagers, type KindFieldManagerOptions } from './fieldmanager.js';
import { deleteResource } from './handlers/delete.js';
import { deleteCollection } from './handlers/deletecollection.js';
import { getResource } from './handlers/get.js';
import { listResource } from './handlers/list.js';
import { patchResource } from './handlers/patch.js';
import { PATCH_TYPES, PATCH_TYPES_WITHOUT_STRATEGIC } from './handlers/patchers.js';
import { writeErrorNegotiated } from './handlers/response.js';
import { endpointStorage, kindCodec, SCALE_CODEC, type EndpointStorage, type ObjectCodec, type RequestScope } from './handlers/scope.js';
import { updateResource } from './handlers/update.js';
import { watchResource } from './handlers/watch.js';
import { resourceEndpointRestrictions } from './negotiation/negotiate.js';
import { newTableConvertor } from './table/convertor.js';
import { tablePrinterOf } from './table/printer.js';

/**
 * APIInstaller for one group-version: a single handler for the `/apis/<group>/<version>` (or
 * `/api/v1`) subtree that dispatches on the RequestInfo the filters resolved to the verb
 * handlers of each resource and subresource.
 */

export interface InstallAPIGroupVersionOptions {
  readonly group: APIGroupDefinition;
  /** A version of `group.versions`. */
  readonly version: string;
  /** The storages of every kind served in this version, by Kind. A kind without storage is not served. */
  readonly storages: ReadonlyMap<string, ResourceStorage>;
  /** By Kind: the subresources beyond status and scale that a REST override contributes (RESTStorageOverride.subresources). */
  readonly subresources?: ReadonlyMap<string, Readonly<Record<string, CreateSubresource>>>;
  readonly admission: AdmissionChain;
  /**
   * Whether PATCH accepts application/strategic-merge-patch+json. True (the default) for the
   * groups defined in apis/; CRDs pass false and answer it with 415.
   */
  readonly strategicMergePatch?: boolean;
  /** kube-apiserver's --min-request-timeout: watches without timeoutSeconds last this × (1 + rand). Default 1800. */
  readonly minRequestTimeoutSeconds?: number;
  /** Plurals whose DELETE answers with the deleted object instead of a Success Status (ReturnDeletedObject). Default none. */
  readonly returnDeletedObject?: ReadonlySet<string>;
  /** Shared schema validator (ajv compiles each schema once per validator). Default: a new one. */
  readonly validator?: SchemaValidator;
  /** Clock of Table age cells, in epoch milliseconds. Default Date.now. */
  readonly now?: () => number;
  /**
   * How a kind's objects move between `version` and the hub. Default: the kind's scheme
   * (kindCodec). Custom resources pass theirs (conversion webhooks, pruning per version).
   */
  readonly codec?: (scheme: KindScheme, version: string) => ObjectCodec;
  /**
   * Whether `/scale` answers Tables with the resource's printer columns evaluated on the Scale,
   * as kube's CRD handler gives its scale scope the custom resource's table convertor. Default
   * false: no Table for the Scale of a generated kind (kube prints those with printers of their own).
   */
  readonly scaleTableFromResource?: boolean;
  /**
   * The scheme of the typer a custom resource's /scale keeps (kube's CRD handler copies the main
   * scope, whose typer is the CRD's parameter scheme and does not know autoscaling/v1 Scale): a
   * Scale body that does not decode is answered with that typer's error. Default: a typer that
   * knows Scale, whose errors say what is wrong with the body.
   */
  readonly scaleTyperScheme?: string;
  /** Whether updates ratchet schema and CEL validation (CRDs' CRDValidationRatcheting). Default false. */
  readonly validationRatcheting?: boolean;
  /**
   * How a path below an object naming a subresource the resource does not have is answered.
   * 'route' (the default): kube's built-in groups have one go-restful route per verb and
   * subresource, so such a path (or any deeper one) has no route: 404 `the server could not find
   * the requested resource`, empty details. 'object': NotFound naming the object, as kube's CRD
   * handler answers from the RequestInfo alone (it never looks past the subresource segment).
   */
  readonly unknownSubresource?: 'route' | 'object';
  /** Whether objects decode as unstructured (custom resources): see RequestScope.unstructured. Default false. */
  readonly unstructured?: boolean;
  /**
   * How the endpoints' field managers are built: CRDs name their conversions and whether unknown
   * fields are preserved; tests may fix the clock. Default: the scheme's conversions, wall clock.
   */
  /**
   * The kinds the server's scheme registers, by apiVersion (serverSchemeKinds over the groups a
   * server installs: kube-apiserver's share legacyscheme): what a typed decoder here can decode
   * before it finds no conversion to the URL's kind. Default: the group's own kinds.
   */
  readonly schemeKinds?: ReadonlyMap<string, ReadonlySet<string>>;
  readonly fieldManagers?: Pick<KindFieldManagerOptions, 'customResource' | 'now'> & {
    readonly objectConvertor?: (scheme: KindScheme) => NonNullable<KindFieldManagerOptions['objectConvertor']>;
  };
}

export interface InstalledAPIGroupVersion {
  /** `/apis/<group>/<version>`, or `/api/v1` for the core group. */
  readonly prefix: string;
  /** Serves every resource request under `prefix`; expects req.info to be resolved. Never rejects. */
  readonly handler: Handler;
}

/** The definitions a /scale body decodes into (autoscaling/v1 Scale, ScaleSpec, ScaleStatus). */
const SCALE_DOCUMENT: OpenAPIComponentsDocument = { components: { schemas: scaleSchemas() } };

/** The subresources every resource may have, and the verbs they offer. */
const SUBRESOURCE_VERBS: ReadonlySet<string> = new Set(['get', 'update', 'patch']);

interface InstalledResource {
  readonly definition: ResourceDefinition;
  readonly storages: ResourceStorage;
  readonly scopes: ReadonlyMap<string, RequestScope>;
  /** Subresources created through by name, with their own kinds. */
  readonly creaters: ReadonlyMap<string, EndpointStorage>;
}

export function installAPIGroupVersion(opts: InstallAPIGroupVersionOptions): InstalledAPIGroupVersion {
  const versionDef = opts.group.versions.find((v) => v.name === opts.version);
  if (versionDef === undefined) throw new Error(`version ${opts.version} is not served by group ${opts.group.name || 'core'}`);
  const group = opts.group.name;
  const prefix = group === '' ? `/api/${opts.version}` : `/apis/${group}/${opts.version}`;
  // Without a validator of the caller's (the apiextensions server passes one for a CRD's
  // schemas), the schemas are the generated ones of a built-in group.
  const validator = opts.validator ?? new SchemaValidator({ trusted: true });
  const deprecationWarning = versionDef.deprecation?.warning;
  const versionOpenAPI = versionOpenAPIOf(opts.group);
  const returnDeleted = opts.returnDeletedObject ?? new Set<string>();
  // Custom resources negotiate over their serializer's media types (protobuf listed, never served).
  const customResource = opts.unstructured === true;

  const schemeKinds = opts.schemeKinds ?? groupSchemeKinds(opts.group);
  const schemeName = SCHEME_NAMES[opts.group.declaration?.server ?? 'kube-apiserver'] ?? (group === '' ? 'core' : group);
  const resources = new Map<string, InstalledResource>();
  for (const definition of versionDef.resources) {
    const storages = opts.storages.get(definition.kind);
    if (storages === undefined) continue;
    const scheme = new KindScheme(opts.group, definition.kind);
    const base = {
      group,
      version: opts.version,
      apiVersion: scheme.apiVersion(opts.version),
      kind: definition.kind,
      resource: definition.plural,
      groupResource: { group, resource: definition.plural },
      groupKind: { group, kind: definition.kind },
      namespaced: definition.namespaced,
      definition,
      admission: opts.admission,
      patchTypes: opts.strategicMergePatch === false ? PATCH_TYPES_WITHOUT_STRATEGIC : PATCH_TYPES,
      validator,
      minRequestTimeoutSeconds: opts.minRequestTimeoutSeconds ?? 1800,
      ...(opts.validationRatcheting === true ? { validationRatcheting: true } : {}),
      schemeKinds,
      schemeName,
      ...(customResource ? { versionSchemas: versionSchemasOf(opts.group, definition.kind) } : {}),
    };
    // The convertor the kind's strategy declares (RESTStrategy.tablePrinter); tablePrinterOf says what a kind without one gets.
    const tableConvertor = newTableConvertor(definition.printerColumns, opts.now, tablePrinterOf(definition));
    const fm = opts.fieldManagers;
    const fieldManagers = kindFieldManagers({
      group: opts.group,
      scheme,
      version: opts.version,
      hasStatus: storages.status !== undefined,
      ...(fm?.customResource !== undefined ? { customResource: fm.customResource } : {}),
      ...(fm?.objectConvertor !== undefined ? { objectConvertor: fm.objectConvertor(scheme) } : {}),
      ...(fm?.now !== undefined ? { now: fm.now } : {}),
    });
    const kindScope: RequestScope = {
      ...base,
      subresource: '',
      tableConvertor,
      restrictions: resourceEndpointRestrictions({ tableConvertor: true, customResource }),
      codec: (opts.codec ?? kindCodec)(scheme, opts.version),
      ...(opts.unstructured === true ? { unstructured: true } : { openapi: versionDef.openapi, goTypes: versionDef.goTypes ?? {}, versionOpenAPI }),
      fieldManager: fieldManagers.main,
    };
    const scopes = new Map<string, RequestScope>([['', kindScope]]);
    if (storages.status !== undefined) scopes.set('status', { ...kindScope, subresource: 'status', fieldManager: fieldManagers.status });
    if (storages.scale !== undefined) {
      scopes.set('scale', {
        ...base,
        subresource: 'scale',
        tableConvertor: opts.scaleTableFromResource === true ? tableConvertor : undefined,
        // A custom resource's scale scope keeps its StandardSerializers (1.32 copies the main scope).
        restrictions: resourceEndpointRestrictions({ tableConvertor: opts.scaleTableFromResource === true, customResource }),
        codec: SCALE_CODEC,
        resourceScope: kindScope,
        subresourceBody: { openapi: SCALE_DOCUMENT, definition: SCALE_SCHEMA, ...(opts.scaleTyperScheme !== undefined ? { typerScheme: opts.scaleTyperScheme } : {}) },
        fieldManager: fieldManagers.scale,
      });
    }
    const creaters = new Map<string, EndpointStorage>();
    for (const [name, sub] of Object.entries(opts.subresources?.get(definition.kind) ?? {})) {
      scopes.set(name, createSubresourceScope(base, name, sub, validator));
      creaters.set(name, { kind: 'named', storage: sub.storage });
    }
    resources.set(definition.plural, { definition, storages, scopes, creaters });
  }

  const byRoute = (opts.unknownSubresource ?? 'route') === 'route';
  const handler: Handler = async (req, res) => {
    try {
      // A resource this version does not serve, or a path shape it does not have: no route.
      const r = resources.get(req.info.resource);
      if (r === undefined || !pathFitsScope(req, r.definition)) throw newPathNotFound();
      const scope = r.scopes.get(req.info.subresource);
      const storage = r.creaters.get(req.info.subresource) ?? endpointStorage(r.storages, req.info.subresource);
      if (scope === undefined || storage === undefined || (byRoute && req.info.parts.length > 3)) {
        throw byRoute ? newPathNotFound() : newNotFound({ group, resource: req.info.resource }, req.info.name);
      }
      if (deprecationWarning !== undefined) res.addWarning(deprecationWarning);
      await dispatch(req, res, scope, storage, r.definition, returnDeleted.has(r.definition.plural));
    } catch (err) {
      writeErrorNegotiated(req, res, toStatusError(err, { gr: { group, resource: req.info.resource }, name: req.info.name }));
    }
  };
  return { prefix, handler };
}

/**
 * Whether the path's shape exists for the resource: cluster-scoped resources have no
 * `namespaces/<ns>/` paths (the core `namespaces` resource names itself there), and namespaced
 * resources are only listed and watched across namespaces.
 */
function pathFitsScope(req: APIRequest, def: ResourceDefinition): boolean {
  const info = req.info;
  const namespaceInPath = info.namespace !== '' && !(info.parts[0] === 'namespaces' && info.parts[1] === info.namespace && info.resource === 'namespaces');
  if (!def.namespaced) return !namespaceInPath;
  return namespaceInPath || (info.parts.length === 1 && info.subresource === '');
}

async function dispatch(req: APIRequest, res: APIResponse, scope: RequestScope, storage: EndpointStorage, def: ResourceDefinition, returnDeleted: boolean): Promise<void> {
  const verb = req.info.verb;
  const hasName = req.info.parts.length >= 2;
  const notAllowed = (): Error => newMethodNotSupported(scope.groupResource, verb);

  if (storage.kind === 'named') {
    if (verb !== 'create') throw notAllowed();
    return createNamedResource(req, res, scope, storage.storage);
  }
  if (storage.kind === 'sub') {
    if (!SUBRESOURCE_VERBS.has(verb)) throw notAllowed();
    if (verb === 'get') return getResource(req, res, scope, storage.storage);
    if (verb === 'update') return updateResource(req, res, scope, storage.storage);
    return patchResource(req, res, scope, storage.storage);
  }

  if (!def.verbs.includes(verb as Verb)) throw notAllowed();
  const main = storage.storage;
  const namespacedCollection = !def.namespaced || req.info.namespace !== '';
  switch (verb) {
    case 'get':
      return getResource(req, res, scope, main);
    case 'list':
      return listResource(req, res, scope, main);
    case 'watch':
      return watchResource(req, res, scope, main);
    case 'create':
      if (hasName || !namespacedCollection) throw notAllowed();
      return createResource(req, res, scope, main);
    case 'update':
      if (!hasName) throw notAllowed();
      return updateResource(req, res, scope, main);
    case 'patch':
      if (!hasName) throw notAllowed();
      return patchResource(req, res, scope, main);
    case 'delete':
      return deleteResource(req, res, scope, main, returnDeleted);
    case 'deletecollection':
      if (!namespacedCollection) throw notAllowed();
      return deleteCollection(req, res, scope, main);
    default:
      throw notAllowed();
  }
}

/**
 * What kube's scheme of the server that installs a group is called in a decoder's "no kind is
 * registered" error: runtime.NewScheme names a scheme after its call site, as a release build's
 * trimmed path prints it. kube-apiserver's groups share legacyscheme; apiextensions-apiserver
 * (1.32) and kube-aggregator (aggregatorscheme) have their own. Aggregated servers' schemes are
 * named by the group.
 */
const SCHEME_NAMES: Partial<Record<GroupServer, string>> = {
  'kube-apiserver': 'pkg/api/legacyscheme/scheme.go:30',
  'apiextensions-apiserver': 'pkg/apiserver/apiserver.go:53',
  'kube-aggregator': 'pkg/apiserver/scheme/scheme.go:32',
};

/** The OpenAPI definitions of every version of a group, with their Go type names, by apiVersion. */
function versionOpenAPIOf(group: APIGroupDefinition): NonNullable<RequestScope['versionOpenAPI']> {
  return new Map(group.versions.map((v) => [groupVersionString({ group: group.name, version: v.name }), { openapi: v.openapi, goTypes: v.goTypes ?? {} }]));
}

/** A kind's schema in each version of its group that has it, by apiVersion. */
function versionSchemasOf(group: APIGroupDefinition, kind: string): ReadonlyMap<string, JSONSchemaProps> {
  const out = new Map<string, JSONSchemaProps>();
  for (const v of group.versions) {
    const r = v.resources.find((d) => d.kind === kind);
    if (r !== undefined) out.set(groupVersionString({ group: group.name, version: v.name }), r.schema);
  }
  return out;
}

/** The kinds (and list kinds) of every version of every group one scheme holds, by apiVersion. */
export function serverSchemeKinds(groups: readonly APIGroupDefinition[]): ReadonlyMap<string, ReadonlySet<string>> {
  const out = new Map<string, ReadonlySet<string>>();
  for (const g of groups) for (const [apiVersion, kinds] of groupSchemeKinds(g)) out.set(apiVersion, new Set([...(out.get(apiVersion) ?? []), ...kinds]));
  return out;
}

/** The kinds (and list kinds) of every version of a group its scheme registers, served or not, by apiVersion. */
function groupSchemeKinds(group: InstallAPIGroupVersionOptions['group']): ReadonlyMap<string, ReadonlySet<string>> {
  const apiVersion = (version: string): string => groupVersionString({ group: group.name, version });
  const served = group.versions.map((v): [string, ReadonlySet<string>] => [apiVersion(v.name), new Set(v.resources.flatMap((r) => [r.kind, r.listKind]))]);
  const unserved = Object.entries(group.declaration?.unservedSchemeVersions ?? {}).map(([v, kinds]): [string, ReadonlySet<string>] => [apiVersion(v), new Set(kinds)]);
  return new Map([...unserved, ...served]);
}
