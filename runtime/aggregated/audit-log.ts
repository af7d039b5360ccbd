import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';
import type { AuditEvent, AuditSink } from '../endpoints/filters/audit.js';

/** An audit sink that can be flushed and closed at shutdown. */
export interface ClosableAuditSink extends AuditSink {
  /** Resolves once every event received so far is written; later events are dropped. */
  close(): Promise<void>;
}

/**
 * kube's audit log backend in its json format (--audit-log-path): one audit.k8s.io/v1 Event
 * per line, appended to the file (`-`: stdout). Writes are buffered by the stream, so the
 * request path never waits on the disk.
 */
export function auditLogSink(path: string): ClosableAuditSink {
  let out: Writable;
  if (path === '-') out = process.stdout;
  else {
    mkdirSync(dirname(path), { recursive: true });
    out = createWriteStream(path, { flags: 'a', mode: 0o600 });
  }
  let closed = false;
  return {
    processEvent(event: AuditEvent): void {
      if (!closed) out.write(`${JSON.stringify(event)}\n`);
    },
    close(): Promise<void> {
      closed = true;
      if (out === process.stdout) return Promise.resolve();
      return new Promise((resolve) => out.end(resolve));
    },
  };
}
