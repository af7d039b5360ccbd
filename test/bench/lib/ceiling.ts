// The HTTPS ceiling of the machine: a process that serves fastify over TLS with the control
// plane's own certificates (client certificates requested, as the server does) and answers every
// request with a fixed Flunder, doing nothing else. The bench drives it with the same client and
// concurrency as the server, so "HTTP / ceiling" says how much of what node's HTTPS can carry on
// this machine the API server achieves. Usage: tsx ceiling.ts <pki dir> [workers]; prints
// {"port":N}. With workers > 1 it serves as the control plane's --workers does: a node:cluster
// primary holding the socket and N worker processes answering, so the ceiling of N processes is
// compared with the server of N workers.
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';

const pki = process.argv[2] ?? '.';
const workers = Math.max(1, Number(process.argv[3] ?? '1') || 1);

if (workers > 1 && cluster.isPrimary) {
  // Every worker's listen(0) gets the one port the primary opened; print it when all serve.
  let listening = 0;
  for (let i = 0; i < workers; i++) {
    cluster.fork().on('message', (m: { port?: number }) => {
      if (typeof m.port === 'number' && ++listening === workers) console.log(JSON.stringify({ port: m.port }));
    });
  }
  cluster.on('exit', (_w, code) => {
    if (code !== 0) process.exit(1);
  });
  process.on('SIGTERM', () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGTERM');
    process.exit(0);
  });
} else {
  serve();
}

function serve(): void {
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
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      if (process.send) process.send({ port });
      else console.log(JSON.stringify({ port }));
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
