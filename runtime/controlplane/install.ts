import type { AdmissionChain } from '../admission/types.js';
import { installAPIGroupVersion } from '../endpoints/installer.js';
import { createResourceStorage, storagePrefix, type TTLFunc } from '../registry/generic/index.js';
import type { ResourceStorage } from '../registry/rest.js';
import type { APIGroupDefinition, CohabitatingStorage, StorageFlags, CreateSubresource, RESTOverride, RESTOverrideContext } from '../registry/types.js';
import { ownField } from '../apimachinery/serializer/jsonvalue.js';
import { registerProtobufPackage } from '../apimachinery/serializer/protobuf/builtin.js';
import type { DiscoveryManager } from '../server/discovery/index.js';
import { discoveryFromGroupDefinition } from '../server/discovery/index.js';
import type { GenericAPIServer } from '../server/genericapiserver.js';
import type { Handler } from '../apimachinery/request/http.js';
import { webServiceNotFound } from '../server/mux.js';
import { openAPIFromGroupDefinition, type OpenAPIService } from '../server/openapi/index.js';
import type { StorageFactory } from '../storage/index.js';
import type { InstalledResource, ResourceRegistry } from '../registry/resources.js';

export interface InstallGroupOptions {
  readonly factory: StorageFactory;
  readonly resources: ResourceRegistry;
  readonly admission: AdmissionChain;
  readonly discovery: DiscoveryManager;
  readonly openapi: OpenAPIService;
  /** What the server offers REST overrides beyond the kind's own storage (the control plane's allocators, its authentication and authorization). */
  readonly restContext?: Pick<RESTOverrideContext, 'serviceAllocators' | 'auth'>;
  /**
   * The control plane's flags that shape a kind's storage (--event-ttl). The chain hands its
   * options over whole (ChainOptions.options); a standalone aggregated server has none.
   */
  readonly options?: StorageFlags;
  /** The kinds of every group the server's scheme holds (serverSchemeKinds); default: the group's own. */
  readonly schemeKinds?: ReadonlyMap<string, ReadonlySet<string>>;
}

/**
 * Installs a group on a server (kube's InstallAPIGroup): one storage per kind (shared by all
 * versions: the generic store, or what the group's declaration puts in its place; over the
 * storage of another installed resource when the group declares the kind cohabits with it), the REST
 * handlers of every version under /apis/<group>/<version>/ (/api/v1/ for core), the protobuf
 * messages of the versions that have them, and the group's discovery and OpenAPI documents.
 */
export async function installAPIGroup(server: GenericAPIServer, group: APIGroupDefinition, opts: InstallGroupOptions): Promise<void> {
  const storages = new Map<string, ResourceStorage>();
  const subresources = new Map<string, Readonly<Record<string, CreateSubresource>>>();
  for (const version of group.versions) {
    for (const r of version.resources) {
      if (storages.has(r.kind)) continue;
      const storedAs = cohabitation(group, r.kind);
      const host = storedAs === undefined ? undefined : storingResource(group, r.kind, storedAs, opts.resources);
      // Each resource has its own storage over the storing resource's keys, cached or not as it declares (kube's per-resource decorator).
      const storage = await opts.factory.forResource({
        resourcePrefix: storagePrefix(storedAs?.group ?? group.name, storedAs?.resource ?? r.plural),
        servedAs: { group: group.name, resource: r.plural },
        watchCache: ownField(group.declaration?.watchCache ?? {}, r.kind) !== false,
      });
      // A cohabitating resource's writes live as long as the storing resource's.
      const ttl = host === undefined ? resourceTTL(group, r.kind, opts.options) : host.ttl;
      const created = createResourceStorage({ group, kind: r.kind, storage, ...(ttl === undefined ? {} : { ttl }), ...(storedAs === undefined ? {} : { storedAs }) });
      const override = await restOverride(group, r.kind)?.({ ...opts.restContext, resources: opts.resources, group: group.name, kind: r.kind, storages: created, storage });
      const rest = override?.storages ?? created;
      storages.set(r.kind, rest);
      if (override?.subresources !== undefined) subresources.set(r.kind, override.subresources);
      opts.resources.add({
        group: group.name,
        resource: r.plural,
        kind: r.kind,
        namespaced: r.namespaced,
        verbs: r.verbs,
        rest,
        storage,
        ...(override === undefined ? {} : { override }),
        ...(ttl === undefined ? {} : { ttl }),
      });
    }
  }
  for (const version of group.versions) {
    if (version.protobuf !== undefined) registerProtobufPackage(version.protobuf);
    const { prefix, handler } = installAPIGroupVersion({
      group,
      version: version.name,
      storages,
      subresources,
      admission: opts.admission,
      ...(opts.schemeKinds !== undefined ? { schemeKinds: opts.schemeKinds } : {}),
    });
    const versionRoot = prefix.endsWith('/') ? prefix : `${prefix}/`;
    // The version's own discovery document (`<prefix>/`) is no resource request: left to discovery.
    server.mux.handlePrefix(versionRoot, (req, res) => (req.info.isResourceRequest ? handler : (server.mux.matchExcept(req.path, versionRoot) ?? webServiceNotFound))(req, res));
  }
  const root = group.name === '' ? '/api/' : `/apis/${group.name}/`;
  server.mux.handlePrefix(root, groupRootNotFound(server, root), { listed: false });
  for (const gv of discoveryFromGroupDefinition(group, { subresources })) {
    opts.discovery.setGroupVersion(gv.group, gv.version, gv.resources, { groupPriorityMinimum: gv.groupPriorityMinimum, versionPriority: gv.versionPriority });
  }
  for (const gv of openAPIFromGroupDefinition(group, { subresources })) opts.openapi.setGroupVersion(gv.group, gv.version, () => gv.document);
}

/** The time to live the group declares for a kind's writes, from the server's storage flags (a standalone aggregated server has none). */
function resourceTTL(group: APIGroupDefinition, kind: string, flags: InstallGroupOptions['options']): TTLFunc | undefined {
  const ttl = group.declaration?.ttl;
  if (ttl === undefined || flags === undefined) return undefined;
  return (ownField(ttl, kind) as ((flags: StorageFlags) => TTLFunc | undefined) | undefined)?.(flags);
}

/** Where the group declares a kind's objects are stored, when another resource stores them. */
function cohabitation(group: APIGroupDefinition, kind: string): CohabitatingStorage | undefined {
  const storedAs = group.declaration?.storedAs;
  return storedAs === undefined ? undefined : (ownField(storedAs, kind) as CohabitatingStorage | undefined);
}

/** The installed resource that stores a cohabitating kind; kube's storage factory resolves it the same way, before any storage is built. */
function storingResource(group: APIGroupDefinition, kind: string, storedAs: CohabitatingStorage, resources: ResourceRegistry): InstalledResource {
  const host = resources.get({ group: storedAs.group, resource: storedAs.resource });
  if (host === undefined) {
    const where = storedAs.group === '' ? storedAs.resource : `${storedAs.resource}.${storedAs.group}`;
    throw new Error(`${kind} of ${group.name === '' ? 'the core group' : `group "${group.name}"`} is stored as ${where}, which is not installed: install that group first`);
  }
  if (host.kind !== storedAs.kind) throw new Error(`${kind} of group "${group.name}" is declared stored as ${storedAs.kind}, but ${storedAs.resource} stores ${host.kind}`);
  return host;
}

/** The group's declared REST override of a kind (kinds are the declaration's own keys, never inherited ones). */
function restOverride(group: APIGroupDefinition, kind: string): RESTOverride | undefined {
  const rest = group.declaration?.rest;
  return rest === undefined ? undefined : (ownField(rest, kind) as RESTOverride | undefined);
}

/**
 * Below a served group's root, what no version serves is kube's go-restful 404 (the group's web
 * service owns the subtree), not the next server's. The group and version discovery paths
 * (`<root>`, `<root><version>[/]`) stay with whatever else serves them on this server (a
 * standalone server's discovery), as kube's discovery routes are part of that web service.
 */
function groupRootNotFound(server: GenericAPIServer, root: string): Handler {
  return (req, res) => {
    const below = req.path.slice(root.length).replace(/\/$/, '');
    const discovery = below === '' || !below.includes('/') ? server.mux.matchExcept(req.path, root) : undefined;
    return (discovery ?? webServiceNotFound)(req, res);
  };
}
