/**
 * The legacy (unaggregated) discovery documents served at /api, /apis and
 * /apis/<group>/<version>. The aggregated form is apidiscovery.k8s.io.
 */
import type { TypeMeta } from './types.js';

/** The versions of the legacy core API, served at /api. */
export interface APIVersions extends TypeMeta {
  /**
   * The available API versions.
   *
   * @listType atomic
   */
  versions: string[];
  /**
   * Server addresses by client CIDR, so clients can pick the most efficient route; use the longest matching CIDR.
   *
   * @listType atomic
   */
  serverAddressByClientCIDRs: ServerAddressByClientCIDR[];
}

/** The API groups, served at /apis. */
export interface APIGroupList extends TypeMeta {
  /**
   * The groups.
   *
   * @listType atomic
   */
  groups: APIGroup[];
}

/** A group's name, versions and preferred version, served at /apis/<group>. */
export interface APIGroup extends TypeMeta {
  /** The group's name. */
  name: string;
  /**
   * The versions the group serves, preferred first.
   *
   * @listType atomic
   */
  versions: GroupVersionForDiscovery[];
  /** The version the server prefers, usually the storage version. */
  preferredVersion?: GroupVersionForDiscovery;
  /**
   * Server addresses by client CIDR, so clients can pick the most efficient route; use the longest matching CIDR.
   *
   * @listType atomic
   */
  serverAddressByClientCIDRs?: ServerAddressByClientCIDR[];
}

/** The server address a client should use when its IP is in a CIDR. */
export interface ServerAddressByClientCIDR {
  /** The CIDR a client's IP is matched against. */
  clientCIDR: string;
  /** The address to use: a hostname, hostname:port, IP or IP:port. */
  serverAddress: string;
}

/** One version of a group. */
export interface GroupVersionForDiscovery {
  /** The group and version as `group/version`. */
  groupVersion: string;
  /** The version alone, so clients need not split groupVersion. */
  version: string;
}

/** One resource (or subresource) of a group version and whether it is namespaced. */
export interface APIResource {
  /** The plural resource name; subresources are `resource/subresource`. */
  name: string;
  /** The singular name, accepted by kubectl in place of the plural; empty for subresources. */
  singularName: string;
  /** Whether the resource is namespaced. */
  namespaced: boolean;
  /** The group of the kind served, when it differs from the list's group (as for scale subresources). */
  group?: string;
  /** The version of the kind served, when it differs from the list's version. */
  version?: string;
  /** The kind served, such as `Foo` for resource `foos`. */
  kind: string;
  /** The supported verbs: get, list, watch, create, update, patch, delete, deletecollection, proxy. */
  verbs: string[];
  /**
   * Suggested short names.
   *
   * @listType atomic
   */
  shortNames?: string[];
  /**
   * Groupings the resource belongs to, such as `all`.
   *
   * @listType atomic
   */
  categories?: string[];
  /** An opaque hash of the storage version; only equality comparisons are meaningful. */
  storageVersionHash?: string;
}

/** The resources of one group version, served at /apis/<group>/<version> and /api/v1. */
export interface APIResourceList extends TypeMeta {
  /** The group version the list describes. */
  groupVersion: string;
  /**
   * The resources.
   *
   * @listType atomic
   */
  resources: APIResource[];
}

/** The paths a server serves at its root, such as `/healthz` and `/apis`. */
export interface RootPaths {
  /**
   * The paths.
   *
   * @listType atomic
   */
  paths: string[];
}
