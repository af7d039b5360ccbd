import { isDeepStrictEqual } from 'node:util';
import type { ResolvedGroup, ResolvedVersion } from './documents.js';
import { DiscoverySnapshot } from './snapshot.js';
import {
  DISCOVERY_SOURCE_PRECEDENCE,
  type DiscoveryRegistry,
  type DiscoverySource,
  type GroupVersionDescription,
  type GroupVersionOptions,
  type GroupVersionPriorities,
  type GroupVersionPriority,
  type ResourceDescription,
} from './types.js';
import { compareVersionsForDiscovery } from './version-order.js';

interface Entry {
  readonly resources: readonly ResourceDescription[];
  readonly options: Required<GroupVersionOptions>;
}

/** source → group → version → entry */
type State = Map<DiscoverySource, Map<string, Map<string, Entry>>>;

/**
 * The discovery model shared by the servers of the chain (kube's aggregated-discovery
 * ResourceManager, also feeding the legacy documents). The manager itself registers as the
 * `builtin` source; forSource() gives the CRD and aggregator controllers their own view. Where
 * two sources describe the same group version, the earlier in DISCOVERY_SOURCE_PRECEDENCE wins.
 *
 * Groups and versions sort by the priorities their sources gave, unless setPriorities() names
 * the group version: kube orders discovery by APIService objects, so the aggregator feeds their
 * priorities in, for local group versions as for remote ones.
 *
 * Every change drops the current snapshot; the next snapshot() rebuilds it, so documents and
 * ETags follow changes immediately.
 */
export class DiscoveryManager implements DiscoveryRegistry {
  private readonly state: State = new Map();
  private current: DiscoverySnapshot | undefined;
  private readonly builtin: DiscoveryRegistry;
  private priorities: GroupVersionPriorities = new Map();

  constructor() {
    this.builtin = this.forSource('builtin');
  }

  /** A registry whose changes are recorded under `source`. */
  forSource(source: DiscoverySource): DiscoveryRegistry {
    return {
      setGroupVersion: (group, version, resources, options) => this.set(source, group, version, resources, options),
      removeGroupVersion: (group, version) => this.remove(source, group, version),
      removeGroup: (group) => this.remove(source, group, undefined),
      setGroupVersions: (gvs) => this.replaceSource(source, gvs),
    };
  }

  setGroupVersion(group: string, version: string, resources: readonly ResourceDescription[], options: GroupVersionOptions): void {
    this.builtin.setGroupVersion(group, version, resources, options);
  }

  removeGroupVersion(group: string, version: string): void {
    this.builtin.removeGroupVersion(group, version);
  }

  removeGroup(group: string): void {
    this.builtin.removeGroup(group);
  }

  setGroupVersions(groupVersions: readonly GroupVersionDescription[]): void {
    this.builtin.setGroupVersions(groupVersions);
  }

  /**
   * Replaces the priority overrides (see GroupVersionPriorities). The caller must not mutate the
   * map afterwards; an equal table changes nothing (ETags stay).
   */
  setPriorities(priorities: GroupVersionPriorities): void {
    if (isDeepStrictEqual(priorities, this.priorities)) return;
    this.priorities = priorities;
    this.current = undefined;
  }

  /** The documents as of now; the same object until the next change. */
  snapshot(): DiscoverySnapshot {
    return (this.current ??= resolve(this.state, this.priorities));
  }

  private set(source: DiscoverySource, group: string, version: string, resources: readonly ResourceDescription[], options: GroupVersionOptions): void {
    if (version === '') throw new Error(`discovery: empty version for group ${JSON.stringify(group)}`);
    const entry: Entry = {
      resources: structuredClone(resources),
      options: { groupPriorityMinimum: options.groupPriorityMinimum, versionPriority: options.versionPriority, freshness: options.freshness ?? 'Current' },
    };
    let groups = this.state.get(source);
    if (groups === undefined) this.state.set(source, (groups = new Map()));
    let versions = groups.get(group);
    if (versions === undefined) groups.set(group, (versions = new Map()));
    if (isDeepStrictEqual(versions.get(version), entry)) return;
    versions.set(version, entry);
    this.current = undefined;
  }

  private remove(source: DiscoverySource, group: string, version: string | undefined): void {
    const groups = this.state.get(source);
    const versions = groups?.get(group);
    if (groups === undefined || versions === undefined) return;
    if (version === undefined) groups.delete(group);
    else if (!versions.delete(version)) return;
    else if (versions.size === 0) groups.delete(group);
    this.current = undefined;
  }

  private replaceSource(source: DiscoverySource, gvs: readonly GroupVersionDescription[]): void {
    this.state.delete(source);
    for (const gv of gvs) this.set(source, gv.group, gv.version, gv.resources, gv);
    this.current = undefined;
  }
}

interface Winner {
  readonly version: string;
  readonly entry: Entry;
  readonly priority: GroupVersionPriority;
}

function resolve(state: State, priorities: GroupVersionPriorities): DiscoverySnapshot {
  // group → version → winning entry, by source precedence.
  const winners = new Map<string, Map<string, Winner>>();
  for (const source of DISCOVERY_SOURCE_PRECEDENCE) {
    for (const [group, versions] of state.get(source) ?? []) {
      let chosen = winners.get(group);
      if (chosen === undefined) winners.set(group, (chosen = new Map()));
      for (const [version, entry] of versions) {
        if (!chosen.has(version)) chosen.set(version, { version, entry, priority: priorities.get(`${group}/${version}`) ?? entry.options });
      }
    }
  }
  let core: ResolvedGroup | undefined;
  const named: { group: ResolvedGroup; priority: number }[] = [];
  for (const [name, versions] of winners) {
    const sorted = [...versions.values()].sort(byVersionPriority);
    const group: ResolvedGroup = { name, versions: sorted.map(resolvedVersion) };
    if (name === '') core = group;
    else named.push({ group, priority: Math.max(...sorted.map((w) => w.priority.groupPriorityMinimum)) });
  }
  named.sort((a, b) => b.priority - a.priority || (a.group.name < b.group.name ? -1 : a.group.name > b.group.name ? 1 : 0));
  return new DiscoverySnapshot(
    core,
    named.map((n) => n.group),
  );
}

function byVersionPriority(a: Winner, b: Winner): number {
  return b.priority.versionPriority - a.priority.versionPriority || compareVersionsForDiscovery(a.version, b.version);
}

function resolvedVersion(w: Winner): ResolvedVersion {
  return { version: w.version, freshness: w.entry.options.freshness, resources: w.entry.resources };
}
