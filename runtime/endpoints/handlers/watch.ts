import { isResourceExpired, toStatusError } from '../../apimachinery/errors/index.js';
import type { KubeObject, Watcher } from '../../registry/rest.js';
import type { APIRequest, APIResponse, ResponseStream } from '../../apimachinery/request/http.js';
import { encodeWatchEventJSON, type WatchEvent, type Watcher as StorageWatcher } from '../../storage/index.js';
import { negotiateOutputMediaTypeStream } from '../negotiation/negotiate.js';
import { requestContext } from './context.js';
import { nameInPath } from './list.js';
import { decodeListOptions, setListOptionsDefaults, toInternalListOptions, validateListOptions } from './listoptions.js';
import { headerValue, negotiateResponse, transformResponse, type ResponseTarget } from './response.js';
import type { MaybePromise, RequestScope } from './scope.js';

/**
 * A watch (ListResource with watch, serveWatch): 200 `application/json`, chunked, one JSON event
 * per line, each flushed. Objects are in the request version with apiVersion and kind (or one-row
 * Tables, column definitions in the first only). The stream ends cleanly after timeoutSeconds
 * (default minRequestTimeout × (1 + rand)), when the client goes, or after an ERROR event; the
 * storage watcher is stopped in every case.
 */
export async function watchResource(req: APIRequest, res: APIResponse, scope: RequestScope, storage: Watcher): Promise<void> {
  const target = negotiateResponse(req, scope);
  const raw = setListOptionsDefaults(decodeListOptions(req.query, true));
  validateListOptions(raw);
  const opts = toInternalListOptions(raw, scope.definition, nameInPath(req));
  const streamMedia = negotiateOutputMediaTypeStream(headerValue(req.headers['accept']), scope.restrictions);

  const timeoutSeconds = raw.timeoutSeconds !== undefined && raw.timeoutSeconds !== 0 ? raw.timeoutSeconds : scope.minRequestTimeoutSeconds * (1 + Math.random());
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  req.signal.addEventListener('abort', stop, { once: true });
  const timer = setTimeout(stop, Math.max(0, timeoutSeconds * 1000));
  const ctx = { ...requestContext(req, res, scope), signal: controller.signal };
  try {
    let watcher: StorageWatcher<KubeObject>;
    try {
      watcher = await storage.watch(ctx, { ...opts, timeoutSeconds: Math.max(0, Math.ceil(timeoutSeconds)) });
    } catch (err) {
      // An expired resourceVersion is answered as the watch cache does: 200, one ERROR event.
      if (!isResourceExpired(err)) throw err;
      const stream = res.stream(streamMedia.serializer.mediaType);
      await stream.write(encodeWatchEventJSON({ type: 'ERROR', object: toStatusError(err).status }));
      stream.end();
      return;
    }
    await serveWatch(watcher, res.stream(streamMedia.serializer.mediaType), scope, target, raw.allowWatchBookmarks, controller.signal);
  } finally {
    clearTimeout(timer);
    req.signal.removeEventListener('abort', stop);
  }
}

async function serveWatch(watcher: StorageWatcher<KubeObject>, stream: ResponseStream, scope: RequestScope, target: ResponseTarget, allowBookmarks: boolean, signal: AbortSignal): Promise<void> {
  const encodeEvent = eventEncoder(scope, target);
  try {
    for (;;) {
      let ev: WatchEvent<KubeObject> | undefined;
      try {
        ev = await watcher.receive({ signal });
      } catch {
        return; // aborted: timeout or client gone
      }
      if (ev === undefined || stream.closed) return;
      if (ev.type === 'BOOKMARK' && !allowBookmarks) continue;
      let frame: Buffer;
      try {
        const encoded = encodeEvent(ev);
        frame = encoded instanceof Promise ? await encoded : encoded;
      } catch (err) {
        // An object that cannot be converted (conversion webhook down) ends the watch with its Status.
        await stream.write(encodeWatchEventJSON({ type: 'ERROR', object: toStatusError(err).status }));
        return;
      }
      await stream.write(frame);
      if (ev.type === 'ERROR') return;
    }
  } finally {
    watcher.stop();
    stream.end();
  }
}

/**
 * The frame of one event. Plain JSON objects in the request version are encoded once per version
 * and shared by every watcher (serializeOnce over the shared converted object); Tables are built
 * per watcher, since only the first carries column definitions. A promise only while an
 * asynchronous conversion runs.
 */
function eventEncoder(scope: RequestScope, target: ResponseTarget): (ev: WatchEvent<KubeObject>) => MaybePromise<Buffer> {
  const encoding = `json:${scope.codec.apiVersion}`;
  const frame = (type: WatchEvent<KubeObject>['type'], versioned: KubeObject): Buffer => {
    if (target.media.convert === undefined) return encodeWatchEventJSON({ type, object: versioned } as WatchEvent<KubeObject>, encoding);
    const body = transformResponse(scope, target, versioned, false);
    if (target.table !== undefined) target.table.noHeaders = true;
    return Buffer.from(`${JSON.stringify({ type, object: body })}\n`);
  };
  return (ev) => {
    if (ev.type === 'ERROR') return encodeWatchEventJSON(ev);
    if (ev.type === 'BOOKMARK') return frame(ev.type, bookmarkObject(scope, ev.object));
    const versioned = scope.codec.fromHubShared(ev.object);
    return versioned instanceof Promise ? versioned.then((v) => frame(ev.type, v)) : frame(ev.type, versioned);
  };
}

/** A BOOKMARK carries only the resourceVersion (and the initial-events-end annotation), in the request version's type. */
function bookmarkObject(scope: RequestScope, obj: KubeObject): KubeObject {
  const meta = obj.metadata ?? {};
  const metadata: Record<string, unknown> = { resourceVersion: meta.resourceVersion ?? '' };
  if (meta.annotations !== undefined) metadata['annotations'] = meta.annotations;
  return { kind: scope.codec.kind, apiVersion: scope.codec.apiVersion, metadata } as KubeObject;
}
