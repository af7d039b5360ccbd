import { createHash } from 'node:crypto';
import { openAPIGroupVersionKey } from './naming.js';
import { toSwaggerV2 } from './swagger-v2.js';
import type { OpenAPIV3Document } from './types.js';

/** A served document: its bytes, the upper-case hex SHA-512 of them, and when it last changed. */
export interface ServedDocument {
  readonly body: Buffer;
  readonly hash: string;
  readonly lastModified: Date;
}

interface Entry extends ServedDocument {
  readonly document: OpenAPIV3Document;
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
 */
export class OpenAPIService {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => Date;
  private lastModified: Date;
  private rootCache: ServedDocument | undefined;
  private v2Cache: ServedDocument | undefined;

  constructor(options: OpenAPIServiceOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.lastModified = this.now();
  }

  /** Adds or replaces a group version's document; a byte-identical document changes nothing. */
  setGroupVersion(group: string, version: string, document: OpenAPIV3Document): void {
    const key = openAPIGroupVersionKey(group, version);
    const body = Buffer.from(JSON.stringify(document));
    const hash = sha512Hex(body);
    if (this.entries.get(key)?.hash === hash) return;
    const lastModified = this.now();
    this.entries.set(key, { document, body, hash, lastModified });
    this.changed(lastModified);
  }

  /** Removes a group version's document. Absent: no-op. */
  removeGroupVersion(group: string, version: string): void {
    if (this.entries.delete(openAPIGroupVersionKey(group, version))) this.changed(this.now());
  }

  /** The document at `key` (`api/v1`, `apis/<g>/<v>`), or undefined. */
  groupVersion(key: string): ServedDocument | undefined {
    return this.entries.get(key);
  }

  /** `{"paths":{"<key>":{"serverRelativeURL":"/openapi/v3/<key>?hash=<H>"}}}`, keys sorted. */
  root(): ServedDocument {
    return (this.rootCache ??= this.serve(() => {
      const paths: Record<string, { serverRelativeURL: string }> = {};
      for (const key of [...this.entries.keys()].sort()) paths[key] = { serverRelativeURL: serverRelativeURL(key, this.entries.get(key)!.hash) };
      return { paths };
    }));
  }

  /** The Swagger 2.0 document merged from every group version. */
  swaggerV2(): ServedDocument {
    return (this.v2Cache ??= this.serve(() => toSwaggerV2([...this.entries.keys()].sort().map((k) => this.entries.get(k)!.document))));
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
