import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wardleGroup } from '../../generated/registry/wardle.js';
import * as fields from '../../runtime/apimachinery/fields/index.js';
import * as labels from '../../runtime/apimachinery/labels/index.js';
import { StatusError } from '../../runtime/apimachinery/errors/index.js';
import { createResourceStorage, storagePrefix, type RandomIntFunc } from '../../runtime/registry/generic/index.js';
import type { InternalListOptions, KubeObject, RequestContext, UpdatedObjectInfo, ValidateObjectFunc } from '../../runtime/registry/rest.js';
import type { APIGroupDefinition } from '../../runtime/registry/types.js';
import type { ResourceDefinition } from '../../runtime/apimachinery/definition/resource.js';
import { newStorageFactory, type Interface, type StorageConfig, type StorageFactory, type WatchEvent, type Watcher } from '../../runtime/storage/index.js';

/** A fixed clock that tests move forward by hand. */
export class TestClock {
  constructor(public t = Date.parse('2024-05-01T10:00:00.250Z')) {}
  readonly now = (): Date => new Date(this.t);
  advance(seconds: number): void {
    this.t += seconds * 1000;
  }
}

export interface Env {
  readonly factory: StorageFactory;
  readonly clock: TestClock;
  /** The raw storage of a resource, to check what was written. */
  raw(group: string, plural: string): Promise<Interface>;
  storages(group: APIGroupDefinition, kind: string, opts?: { random?: RandomIntFunc }): Promise<ReturnType<typeof createResourceStorage>>;
  close(): Promise<void>;
}

/** Real storage: SQLite in a temp dir (watch cache on, its default) or the given backend. */
export async function newEnv(backend?: StorageConfig['backend']): Promise<Env> {
  const dir = mkdtempSync(join(tmpdir(), 'registry-store-'));
  const factory = newStorageFactory({ backend: backend ?? { backend: 'sqlite', path: join(dir, 'db') } });
  const clock = new TestClock();
  const raws = new Map<string, Promise<Interface>>();
  const raw = (group: string, plural: string): Promise<Interface> => {
    const prefix = storagePrefix(group, plural);
    let s = raws.get(prefix);
    if (s === undefined) {
      s = factory.forResource({ resourcePrefix: prefix });
      raws.set(prefix, s);
    }
    return s;
  };
  return {
    factory,
    clock,
    raw,
    async storages(group, kind, opts) {
      const plural = group.versions.flatMap((v) => v.resources).find((r) => r.kind === kind)?.plural ?? '';
      return createResourceStorage({ group, kind, storage: await raw(group.name, plural), now: clock.now, ...(opts?.random ? { random: opts.random } : {}) });
    },
    async close() {
      await factory.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function ctx(namespace: string, warnings: string[] = []): RequestContext {
  return {
    namespace,
    user: { name: 'admin', groups: ['system:masters'] },
    requestInfo: {
      isResourceRequest: true,
      path: '/',
      verb: 'get',
      apiPrefix: 'apis',
      apiGroup: 'wardle.example.com',
      apiVersion: 'v1beta1',
      namespace,
      resource: 'flunders',
      subresource: '',
      name: '',
      parts: [],
    },
    signal: new AbortController().signal,
    warn: (m) => warnings.push(m),
  };
}

export const allow: ValidateObjectFunc = async () => {};
export const allowBoth = { create: allow, update: allow };
export const write = { dryRun: false, fieldManager: 'test' };
export const dryRun = { dryRun: true, fieldManager: 'test' };
export const deleteOpts = { dryRun: false, gracePeriodSeconds: undefined, preconditions: undefined, propagationPolicy: undefined, orphanDependents: undefined };

/** PUT: the body as the new object. */
export function put(obj: KubeObject): UpdatedObjectInfo {
  return { preconditions: () => undefined, updatedObject: async () => structuredClone(obj) };
}

/** PATCH-like: a function of the stored object. */
export function patch(fn: (old: KubeObject) => KubeObject): UpdatedObjectInfo {
  return {
    preconditions: () => undefined,
    updatedObject: async (_c, old) => {
      if (old === undefined) throw new Error('absent');
      return fn(structuredClone(old));
    },
  };
}

export function listOpts(o: Partial<InternalListOptions> & { label?: string; field?: string; limit?: number; continue?: string } = {}): InternalListOptions {
  return {
    predicate: {
      label: o.label ? labels.parse(o.label) : labels.everything(),
      field: o.field ? fields.parseSelector(o.field) : fields.everything(),
      ...(o.limit !== undefined ? { limit: o.limit } : {}),
      ...(o.continue !== undefined ? { continue: o.continue } : {}),
    },
    resourceVersion: o.resourceVersion ?? '',
    resourceVersionMatch: o.resourceVersionMatch ?? '',
    allowWatchBookmarks: o.allowWatchBookmarks ?? false,
    sendInitialEvents: o.sendInitialEvents,
    timeoutSeconds: o.timeoutSeconds ?? 0,
  };
}

export function flunder(name: string, spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: 'wardle.example.com/v1beta1', kind: 'Flunder', metadata: { name, ...meta }, spec };
}

export function fischer(name: string, disallowedFlunders: string[] = [], meta: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Fischer', metadata: { name, ...meta }, disallowedFlunders };
}

/** Asserts a StatusError with the given code and exact message. */
export function statusIs(code: number, message: string, reason?: string): (e: unknown) => boolean {
  return (e) => {
    if (!(e instanceof StatusError)) throw new Error(`not a StatusError: ${String(e)}`);
    if (e.code !== code || e.message !== message || (reason !== undefined && e.reason !== reason)) {
      throw new Error(`got ${e.code} ${e.reason} ${JSON.stringify(e.message)}, want ${code} ${reason ?? ''} ${JSON.stringify(message)}`);
    }
    return true;
  };
}

/** The next event, failing after a generous timeout. */
export async function nextEvent(w: Watcher<KubeObject>, timeoutMs = 10_000): Promise<WatchEvent<KubeObject>> {
  const ev = await receiveWithin(w, timeoutMs);
  if (ev === undefined) throw new Error('watch ended');
  return ev;
}

/** receive() with a deadline on a referenced timer (AbortSignal.timeout's does not keep the loop alive). */
async function receiveWithin(w: Watcher<KubeObject>, ms: number): Promise<WatchEvent<KubeObject> | undefined> {
  const ac = new AbortController();
  const t = setTimeout(() => ac.abort(new Error(`no event within ${ms} ms`)), ms);
  try {
    return await w.receive({ signal: ac.signal });
  } finally {
    clearTimeout(t);
  }
}

/** True when no event arrives within the window (used after operations that must not emit). */
export async function noEvent(w: Watcher<KubeObject>, windowMs = 300): Promise<WatchEvent<KubeObject> | undefined> {
  try {
    return await receiveWithin(w, windowMs);
  } catch {
    return undefined;
  }
}

/** The wardle group with per-kind overrides of the hub definition (strategies, subresources). */
export function withOverrides(group: APIGroupDefinition, kind: string, override: Partial<ResourceDefinition>): APIGroupDefinition {
  return {
    ...group,
    versions: group.versions.map((v) => ({ ...v, resources: v.resources.map((r) => (r.kind === kind ? { ...r, ...override } : r)) })),
  };
}

export { wardleGroup };
