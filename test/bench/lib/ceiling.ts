// The HTTPS ceiling of the machine: a process that serves fastify over TLS with the control
// plane's own certificates (client certificates requested, as the server does) and answers every
// request with a fixed Flunder, doing nothing else. The bench drives it with the same client and
// concurrency as the server, so "HTTP / ceiling" says how much of what node's HTTPS can carry on
// this machine the API server achieves. Usage: tsx ceiling.ts <pki dir>; prints {"port":N}.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';

const pki = process.argv[2] ?? '.';
const app = Fastify({
  https: {
    cert: readFileSync(join(pki, 'apiserver.crt')),
    key: readFileSync(join(pki, 'apiserver.key')),
    ca: readFileSync(join(pki, 'ca.crt')),
    requestCert: true,
    rejectUnauthorized: false,
  },
});
const flunder = Buffer.from(
  JSON.stringify({
    apiVersion: 'wardle.example.com/v1beta1',
    kind: 'Flunder',
    metadata: { name: 'f', namespace: 'c', uid: '6f1c3b1e-0000-4000-8000-000000000000', resourceVersion: '1', generation: 1, creationTimestamp: '2026-01-01T00:00:00Z', labels: { app: 'bench' } },
    spec: { reference: 'x' },
    status: {},
  }),
);
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', (_req, _payload, done) => done(null));
app.all('/*', (req, reply) => {
  reply.hijack();
  const send = (): void => {
    reply.raw.writeHead(req.method === 'POST' ? 201 : 200, { 'Content-Type': 'application/json', 'Content-Length': flunder.length });
    reply.raw.end(flunder);
  };
  if (req.raw.readableEnded) send();
  else req.raw.on('data', () => {}).on('end', send);
});
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
app.listen({ port: 0, host: '127.0.0.1' }).then(
  () => {
    const addr = app.server.address();
    console.log(JSON.stringify({ port: typeof addr === 'object' && addr !== null ? addr.port : 0 }));
  },
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
