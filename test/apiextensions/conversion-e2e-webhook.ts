// The conversion webhook of the end-to-end conversion tests: an HTTPS server on loopback with a
// certificate from a CA of its own (SANs 127.0.0.1 and conv.default.svc), answering
// ConversionReview v1 with the CronTab conversion between v1 and v2. It can be stopped and
// started again on the same port (the webhook "down" case).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensurePKI } from '../../runtime/controlplane/certs.js';

export type Obj = Record<string, unknown>;

/** One review received: the Host it was sent to, the version asked for and the versions of the objects sent. */
export interface ReviewSeen {
  readonly host: string;
  readonly desiredAPIVersion: string;
  readonly from: readonly string[];
}

export interface ConversionWebhook {
  readonly port: number;
  /** `https://127.0.0.1:<port>/convert` */
  readonly url: string;
  /** The CA of the serving certificate, base64 (a CRD's caBundle). */
  readonly caBundle: string;
  readonly reviews: ReviewSeen[];
  /** Stops listening and drops open connections (requests then fail with connection refused). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

const record = (o: unknown): Obj => (typeof o === 'object' && o !== null && !Array.isArray(o) ? (o as Obj) : {});

/**
 * v1 `spec.cronSpec` / `spec.image` ⇄ v2 `spec.schedule.cron` / `spec.jobTemplate.image`;
 * `replicas`, metadata and status are kept as they are.
 */
export function convertCronTab(obj: Obj, desiredAPIVersion: string): Obj {
  const { cronSpec, image, schedule, jobTemplate, ...rest } = record(obj['spec']);
  const cron = cronSpec ?? record(schedule)['cron'];
  const img = image ?? record(jobTemplate)['image'];
  const spec: Obj = desiredAPIVersion.endsWith('/v2')
    ? { ...(cron !== undefined ? { schedule: { cron } } : {}), ...(img !== undefined ? { jobTemplate: { image: img } } : {}), ...rest }
    : { ...(cron !== undefined ? { cronSpec: cron } : {}), ...(img !== undefined ? { image: img } : {}), ...rest };
  return { ...obj, apiVersion: desiredAPIVersion, spec };
}

/** A webhook answering with `convert` of each object (by default the CronTab conversion). */
export async function startConversionWebhook(convert: (obj: Obj, desiredAPIVersion: string) => Obj = convertCronTab): Promise<ConversionWebhook> {
  const dir = mkdtempSync(join(tmpdir(), 'conversion-e2e-'));
  const pki = await ensurePKI(dir, { hosts: ['conv.default.svc'] });
  const reviews: ReviewSeen[] = [];
  const newServer = (): Server =>
    createServer({ cert: pki.servingCertPEM, key: pki.servingKeyPEM }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { apiVersion: string; request: { uid: string; desiredAPIVersion: string; objects: Obj[] } };
        const { uid, desiredAPIVersion, objects } = review.request;
        reviews.push({ host: req.headers.host ?? '', desiredAPIVersion, from: objects.map((o) => String(o['apiVersion'])) });
        res.setHeader('Content-Type', 'application/json');
        res.end(
          JSON.stringify({
            apiVersion: review.apiVersion,
            kind: 'ConversionReview',
            response: { uid, result: { status: 'Success' }, convertedObjects: objects.map((o) => convert(o, desiredAPIVersion)) },
          }),
        );
      });
    });
  let server = newServer();
  const listen = async (port: number): Promise<number> => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    return (server.address() as AddressInfo).port;
  };
  const port = await listen(0);
  let listening = true;
  const stop = async (): Promise<void> => {
    if (!listening) return;
    listening = false;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    port,
    url: `https://127.0.0.1:${port}/convert`,
    caBundle: Buffer.from(pki.caCertPEM).toString('base64'),
    reviews,
    stop,
    async start() {
      if (listening) return;
      server = newServer();
      await listen(port);
      listening = true;
    },
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
