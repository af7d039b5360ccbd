import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { APIGroupList, APIResourceList } from '../../../apis/meta/v1/discovery.js';
import type { RESTClient } from '../types.js';
import { DiscoveryClient } from './client.js';
import { CachedDiscoveryBase } from './cached-base.js';
import { MemCacheClient } from './memory.js';
import type { DiscoveryInterface } from './types.js';

/** kubectl's discovery cache lifetime (its factory's 6 h); client-go's own default for a config is 10 minutes. */
export const KUBECTL_DISCOVERY_TTL_MS = 6 * 60 * 60 * 1000;
export const DEFAULT_DISCOVERY_TTL_MS = 10 * 60 * 1000;

/** Largest cache file read back: discovery documents are kilobytes; a bigger file is not ours. */
const MAX_CACHE_FILE_BYTES = 64 * 1024 * 1024;

export interface CachedDiscoveryOptions {
  /** `<cache-dir>/discovery/<host_port>`: see discoveryCacheDir. */
  readonly cacheDirectory: string;
  /** How long a file answers after it was written. */
  readonly ttlMs: number;
  /** Default Date.now; tests move time instead of waiting. */
  readonly now?: () => number;
}

/**
 * The discovery cache directory kubectl uses for a server (computeDiscoverCacheDir): the host
 * without its scheme, every character other than letters, digits, `_`, `/`, `.`, `(` and `)`
 * replaced by `_`, under `<cacheDir>/discovery`. So `https://127.0.0.1:6443` shares kubectl's
 * `~/.kube/cache/discovery/127.0.0.1_6443`.
 */
export function discoveryCacheDir(cacheDir: string, host: string): string {
  const schemeless = host.replace('https://', '').replace('http://', '');
  return join(cacheDir, 'discovery', schemeless.replace(/[^(\w/.)]/g, '_'));
}

/**
 * Discovery answered from JSON files under a directory, each valid for a TTL after it was
 * written (client-go's discovery/cached/disk): `servergroups.json` and
 * `<group>/<version>/serverresources.json`, the same files kubectl reads and writes, so the two
 * share a cache. Misses go to the delegate (a MemCacheClient over the server) and are written
 * back atomically: a temporary file in the same directory (mode 0660) renamed over the old one,
 * directories made with mode 0750.
 *
 * fresh() is true while every answer came from the server or from files this client wrote since
 * the last invalidate(); after invalidate() only files written since are read.
 */
export class CachedDiscoveryClient extends CachedDiscoveryBase {
  private ourFiles = new Set<string>();
  private invalidated = false;
  private isFresh = true;
  private readonly now: () => number;

  constructor(
    delegate: DiscoveryInterface,
    readonly options: CachedDiscoveryOptions,
  ) {
    super(delegate);
    this.now = options.now ?? Date.now;
  }

  async serverResourcesForGroupVersion(groupVersion: string): Promise<APIResourceList> {
    const file = join(this.options.cacheDirectory, ...groupVersion.split('/').filter(safeSegment), 'serverresources.json');
    const cached = await this.readCached<APIResourceList>(file, 'APIResourceList');
    if (cached !== undefined) return { ...cached, resources: cached.resources ?? [] };
    const live = await this.delegate.serverResourcesForGroupVersion(groupVersion);
    if (live.resources.length === 0) return live;
    await this.writeCached(file, { kind: 'APIResourceList', apiVersion: 'v1', ...live });
    return live;
  }

  async serverGroups(): Promise<APIGroupList> {
    const file = join(this.options.cacheDirectory, 'servergroups.json');
    const cached = await this.readCached<APIGroupList>(file, 'APIGroupList');
    if (cached !== undefined) return { ...cached, groups: cached.groups ?? [] };
    const live = await this.delegate.serverGroups();
    if (live.groups.length === 0) return live;
    await this.writeCached(file, { kind: 'APIGroupList', apiVersion: 'v1', ...live });
    return live;
  }

  fresh(): boolean {
    return this.isFresh;
  }

  invalidate(): void {
    this.ourFiles = new Set();
    this.isFresh = true;
    this.invalidated = true;
    this.invalidateDelegate();
  }

  /** The file's object when it is ours or still within the TTL and decodes as `kind`; undefined otherwise. */
  private async readCached<T>(file: string, kind: string): Promise<T | undefined> {
    const ours = this.ourFiles.has(file);
    if (this.invalidated && !ours) return undefined;
    let bytes: Buffer;
    try {
      const st = await stat(file);
      if (!st.isFile() || st.size > MAX_CACHE_FILE_BYTES) return undefined;
      if (this.now() > st.mtimeMs + this.options.ttlMs) return undefined;
      bytes = await readFile(file);
    } catch {
      return undefined;
    }
    let obj: unknown;
    try {
      obj = JSON.parse(bytes.toString('utf8'));
    } catch {
      return undefined;
    }
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return undefined;
    const k = (obj as { kind?: unknown }).kind;
    if (k !== undefined && k !== kind) return undefined;
    this.isFresh = this.isFresh && ours;
    return obj as T;
  }

  /** Writes atomically; a failure to write is not the caller's failure (the answer is still good). */
  private async writeCached(file: string, obj: unknown): Promise<void> {
    const dir = dirname(file);
    const tmp = join(dir, `${basename(file)}.${randomBytes(6).toString('hex')}`);
    try {
      await mkdir(dir, { recursive: true, mode: 0o750 });
      const fh = await open(tmp, 'wx', 0o660);
      try {
        await fh.writeFile(JSON.stringify(obj));
      } finally {
        await fh.close();
      }
      await chmod(tmp, 0o660);
      await rename(tmp, file);
      this.ourFiles.add(file);
    } catch {
      await rm(tmp, { force: true }).catch(() => undefined);
    }
  }
}

/** `.` and `..` never become path segments: a group version names a directory under the cache, nothing above it. */
function safeSegment(s: string): boolean {
  return s !== '' && s !== '.' && s !== '..';
}

/**
 * A disk-cached discovery client for a server as kubectl builds one
 * (disk.NewCachedDiscoveryClientForConfig): files under `discoveryCacheDir(cacheDir, host)`,
 * in front of a MemCacheClient over the server's discovery.
 */
export function newCachedDiscoveryClient(o: {
  readonly rest: RESTClient;
  readonly cacheDir: string;
  readonly host: string;
  readonly ttlMs?: number;
  readonly now?: () => number;
}): CachedDiscoveryClient {
  const memory = new MemCacheClient(new DiscoveryClient(o.rest));
  return new CachedDiscoveryClient(memory, { cacheDirectory: discoveryCacheDir(o.cacheDir, o.host), ttlMs: o.ttlMs ?? DEFAULT_DISCOVERY_TTL_MS, ...(o.now ? { now: o.now } : {}) });
}
