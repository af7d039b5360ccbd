import { createHash } from 'node:crypto';
import { aggregatedDiscoveryList, apiGroup, apiGroupList, apiResourceList, type AggregatedDiscoveryVersion, type ResolvedGroup, type ResolvedVersion } from './documents.js';

/** A serialized document and its strong ETag (quoted upper-case hex SHA-512 of exactly these bytes). */
export interface EncodedDocument {
  readonly body: Buffer;
  readonly etag: string;
}

export function encodeDocument(doc: unknown): EncodedDocument {
  const body = Buffer.from(JSON.stringify(doc));
  return { body, etag: `"${createHash('sha512').update(body).digest('hex').toUpperCase()}"` };
}

/**
 * The discovery state at one moment: immutable, so a request that started before a change
 * finishes with consistent documents. Each document is serialized (and hashed) at most once.
 */
export class DiscoverySnapshot {
  private readonly memo = new Map<string, EncodedDocument | undefined>();
  private readonly byName: ReadonlyMap<string, ResolvedGroup>;

  /** `core` is the legacy group (served under /api); `groups` the named ones, in priority order. */
  constructor(
    readonly core: ResolvedGroup | undefined,
    readonly groups: readonly ResolvedGroup[],
  ) {
    this.byName = new Map(groups.map((g) => [g.name, g]));
  }

  /** The group (core for ""), or undefined when it serves no version. */
  group(name: string): ResolvedGroup | undefined {
    return name === '' ? this.core : this.byName.get(name);
  }

  version(group: string, version: string): ResolvedVersion | undefined {
    return this.group(group)?.versions.find((v) => v.version === version);
  }

  /** The APIGroupDiscoveryList of /api (core only) or /apis (every named group). */
  aggregated(root: 'api' | 'apis', version: AggregatedDiscoveryVersion): EncodedDocument {
    return this.once(`agg:${root}:${version}`, () => {
      const groups = root === 'api' ? (this.core === undefined ? [] : [this.core]) : this.groups;
      return aggregatedDiscoveryList(groups, version);
    }) as EncodedDocument;
  }

  apiGroupList(): EncodedDocument {
    return this.once('groups', () => apiGroupList(this.groups)) as EncodedDocument;
  }

  /** Undefined when the named group is unknown. */
  apiGroup(name: string): EncodedDocument | undefined {
    return this.once(`group:${name}`, () => {
      const g = this.byName.get(name);
      return g === undefined ? undefined : apiGroup(g);
    });
  }

  /** Undefined when the group version is unknown. */
  apiResourceList(group: string, version: string): EncodedDocument | undefined {
    return this.once(`resources:${group}/${version}`, () => {
      const v = this.version(group, version);
      return v === undefined ? undefined : apiResourceList(group, version, v.resources);
    });
  }

  private once(key: string, build: () => unknown): EncodedDocument | undefined {
    if (this.memo.has(key)) return this.memo.get(key);
    const doc = build();
    const encoded = doc === undefined ? undefined : encodeDocument(doc);
    this.memo.set(key, encoded);
    return encoded;
  }
}
