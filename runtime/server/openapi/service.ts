import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { openAPIGroupVersionKey } from './naming.js';
import { toSwaggerV2 } from './swagger-v2.js';
import { mergeSwaggerV2, type SwaggerV2Document } from './swagger-v2-merge.js';
import { encodeSwaggerV2Protobuf } from './swagger-v2-protobuf.js';
import type { OpenAPIV3Document } from './types.js';

/** A served document: its bytes, the upper-case hex SHA-512 of them, and when it last changed. */
export interface ServedDocument {
  readonly body: Buffer;
  readonly hash: string;
  readonly lastModified: Date;
}

/**
 * A local group version: its document kept as the served bytes only. The objects it was built
 * from are not held (they were about as large again, for every group version, in every process);
 * /openapi/v2, the one reader of the document itself, parses the bytes back when it is rebuilt.
 */
interface Entry extends ServedDocument {
  readonly swaggerV2Schemas: ReadonlyMap<string, unknown>;
}

/** A local group version given as a builder: built, serialized and hashed on its first read. */
interface PendingEntry {
  readonly build: () => OpenAPIV3Document;
  readonly swaggerV2Schemas: ReadonlyMap<string, unknown>;
  readonly lastModified: Date;
}

export interface OpenAPIServiceOptions {
  /** Injected clock for Last-Modified; default the system clock. */
  readonly now?: () => Date;
}

/**
 * The OpenAPI documents of every served group version (kube-openapi's handler3 service), which
 * may be added, replaced and removed while serving. Documents are serialized and hashed once
 * per change; the /openapi/v3 root and the merged /openapi/v2 document are rebuilt lazily after
 * a change and cached until the next one.
 *
 * Aggregated servers contribute too: a remote group version's document (as its server serves
 * it) hides a local one of the same key, and their Swagger 2.0 documents are merged into
 * /openapi/v2 after the local ones.
 */
export class OpenAPIService {
  private readonly entries = new Map<string, Entry | PendingEntry>();
  /** Group versions served by aggregated servers: their document, or null when they serve none. */
  private readonly remote = new Map<string, ServedDocument | null>();
  private aggregatedV2: readonly SwaggerV2Document[] = [];
  private readonly now: () => Date;
  private lastModified: Date;
  private rootCache: ServedDocument | undefined;
  private v2Cache: { readonly served: ServedDocument; readonly document: SwaggerV2Document } | undefined;
  private v2ProtobufCache: ServedDocument | undefined;

  constructor(options: OpenAPIServiceOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.lastModified = this.now();
  }

  /**
   * Adds or replaces a group version's document; a byte-identical document (with equal
   * `swaggerV2Schemas`) changes nothing. `swaggerV2Schemas` are definitions, in OpenAPI 3 form,
   * that /openapi/v2 publishes instead of the document's own (CRD kinds, cut down as kube's v2
   * builder cuts them); default none.
   *
   * `document` may be a builder instead: it is called on the first read of this group version
   * (its own document, the /openapi/v3 root, /openapi/v2), as kube-openapi's handler3 computes a
   * group version's spec on demand; a server nobody asks for OpenAPI spends nothing on it. A
   * builder always counts as a change (it cannot be compared unbuilt).
   */
  setGroupVersion(group: string, version: string, document: OpenAPIV3Document | (() => OpenAPIV3Document), swaggerV2Schemas: ReadonlyMap<string, unknown> = new Map()): void {
    const key = openAPIGroupVersionKey(group, version);
    if (typeof document === 'function') {
      const lastModified = this.now();
      this.entries.set(key, { build: document, swaggerV2Schemas, lastModified });
      this.changed(lastModified);
      return;
    }
    const body = Buffer.from(JSON.stringify(document));
    const hash = sha512Hex(body);
    const current = this.entries.get(key);
    if (current !== undefined && 'hash' in current && current.hash === hash && isDeepStrictEqual(current.swaggerV2Schemas, swaggerV2Schemas)) return;
    const lastModified = this.now();
    this.entries.set(key, { swaggerV2Schemas, body, hash, lastModified });
    this.changed(lastModified);
  }

  /** Removes a group version's document. Absent: no-op. */
  removeGroupVersion(group: string, version: string): void {
    if (this.entries.delete(openAPIGroupVersionKey(group, version))) this.changed(this.now());
  }

  /**
   * Marks a group version as served by an aggregated server, with the document that server
   * serves for it as the bytes it sent (so the hash is the server's own), or none: either way a
   * local document of the same key is hidden, here and in /openapi/v2. Byte-identical: changes
   * nothing.
   */
  setRemoteGroupVersion(group: string, version: string, body: Buffer | undefined): void {
    const key = openAPIGroupVersionKey(group, version);
    const current = this.remote.get(key);
    const lastModified = this.now();
    const next = body === undefined ? null : { body, hash: sha512Hex(body), lastModified };
    if (current !== undefined && current?.hash === next?.hash) return;
    this.remote.set(key, next);
    this.changed(lastModified);
  }

  /** Removes a remote group version; a local document of the same key shows again. Absent: no-op. */
  removeRemoteGroupVersion(group: string, version: string): void {
    if (this.remote.delete(openAPIGroupVersionKey(group, version))) this.changed(this.now());
  }

  /**
   * Replaces the aggregated servers' Swagger 2.0 documents merged into /openapi/v2 after the
   * local ones, in this order (kube-openapi's rules: existing paths win, conflicting definitions
   * are renamed). Not mutated afterwards by the caller; an equal list changes nothing.
   */
  setAggregatedSwaggerV2(documents: readonly SwaggerV2Document[]): void {
    if (isDeepStrictEqual(documents, this.aggregatedV2)) return;
    this.aggregatedV2 = documents;
    this.changed(this.now());
  }

  /** The document at `key` (`api/v1`, `apis/<g>/<v>`), or undefined; a remote group version's own. */
  groupVersion(key: string): ServedDocument | undefined {
    const remote = this.remote.get(key);
    return remote === undefined ? this.entry(key) : (remote ?? undefined);
  }

  /** The local entry at `key`, built and serialized first if it was given as a builder. */
  private entry(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || !('build' in entry)) return entry;
    const body = Buffer.from(JSON.stringify(entry.build()));
    const built: Entry = { swaggerV2Schemas: entry.swaggerV2Schemas, body, hash: sha512Hex(body), lastModified: entry.lastModified };
    this.entries.set(key, built);
    return built;
  }

  /** `{"paths":{"<key>":{"serverRelativeURL":"/openapi/v3/<key>?hash=<H>"}}}`, keys sorted. */
  root(): ServedDocument {
    return (this.rootCache ??= this.serve(() => {
      const paths: Record<string, { serverRelativeURL: string }> = {};
      const keys = new Set([...this.entries.keys(), ...this.remote.keys()]);
      for (const key of [...keys].sort()) {
        const doc = this.groupVersion(key);
        if (doc !== undefined) paths[key] = { serverRelativeURL: serverRelativeURL(key, doc.hash) };
      }
      return { paths };
    }));
  }

  /** The Swagger 2.0 document merged from every local group version, then from the aggregated servers' documents. */
  swaggerV2(): ServedDocument {
    return this.swaggerV2Entry().served;
  }

  /**
   * swaggerV2() as gnostic's `openapi.v2.Document` in protobuf, encoded once per JSON document.
   * Its hash is the JSON document's, as kube-openapi's ETag for both forms is.
   */
  swaggerV2Protobuf(): ServedDocument {
    const { served, document } = this.swaggerV2Entry();
    const cached = this.v2ProtobufCache;
    if (cached?.hash === served.hash && cached.lastModified === served.lastModified) return cached;
    // Equal JSON (a change undone) keeps the encoded bytes; only Last-Modified moves.
    const body = cached?.hash === served.hash ? cached.body : encodeSwaggerV2Protobuf(document);
    return (this.v2ProtobufCache = { body, hash: served.hash, lastModified: served.lastModified });
  }

  private swaggerV2Entry(): { readonly served: ServedDocument; readonly document: SwaggerV2Document } {
    if (this.v2Cache === undefined) {
      const local = [...this.entries.keys()]
        .filter((k) => !this.remote.has(k))
        .sort()
        .map((k) => this.entry(k)!);
      const v2Schemas = new Map(local.flatMap((e) => [...e.swaggerV2Schemas]));
      const document = this.aggregatedV2.reduce(
        mergeSwaggerV2,
        toSwaggerV2(
          local.map((e) => JSON.parse(e.body.toString('utf8')) as OpenAPIV3Document),
          v2Schemas,
        ),
      );
      this.v2Cache = { served: this.serve(() => document), document };
    }
    return this.v2Cache;
  }

  private serve(build: () => unknown): ServedDocument {
    const body = Buffer.from(JSON.stringify(build()));
    return { body, hash: sha512Hex(body), lastModified: this.lastModified };
  }

  private changed(at: Date): void {
    this.lastModified = at;
    this.rootCache = undefined;
    this.v2Cache = undefined;
  }
}

/** Where a group version's document is served, pinned to its hash. */
export function serverRelativeURL(key: string, hash: string): string {
  return `/openapi/v3/${key}?hash=${hash}`;
}

function sha512Hex(body: Buffer): string {
  return createHash('sha512').update(body).digest('hex').toUpperCase();
}
