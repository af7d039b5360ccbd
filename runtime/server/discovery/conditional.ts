import type { IncomingHttpHeaders } from 'node:http';
import type { APIResponse } from '../../apimachinery/request/http.js';

/**
 * Whether If-None-Match names `etag` (a quoted strong ETag): `*`, or any listed tag, weak
 * (`W/"…"`) or strong, with the same opaque value.
 */
export function ifNoneMatchHits(headers: IncomingHttpHeaders, etag: string): boolean {
  const header = headers['if-none-match'];
  if (header === undefined || header === '') return false;
  return header.split(',').some((raw) => {
    const tag = raw.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

/** Answers 304 with no body; headers set before (ETag, Vary, Cache-Control, Expires) are kept. */
export function writeNotModified(res: APIResponse): void {
  if (res.headersSent) return;
  res.raw.writeHead(304);
  res.raw.end();
}
