// The bytes kubectl sends today: kubectl 1.33 (protobuf bodies) and 1.31 (JSON bodies) run the
// same typed `create` commands against a loopback listener that records the request bodies; the
// decoded protobuf must equal the JSON. Skipped where those kubectl minors are not installed.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { decodeProtobufObject } from '../../runtime/apimachinery/serializer/protobuf/index.js';
import { kubectlBinary, kubectlUnavailable } from '../integration/kubectl.js';

const PROTOBUF_MINOR = 33;
const JSON_MINOR = 31;
const unavailable = kubectlUnavailable(PROTOBUF_MINOR) ?? kubectlUnavailable(JSON_MINOR);

interface Recorded {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

describe('typed kubectl create bodies, live', { skip: unavailable ?? false }, () => {
  let dir: string;
  let server: Server;
  let recorded: Recorded[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubectl-capture-'));
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method === 'POST') recorded.push({ path: (req.url ?? '').split('?')[0]!, headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404, message: 'recorded' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    writeFileSync(
      join(dir, 'kubeconfig'),
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        'current-context': 'c',
        clusters: [{ name: 'c', cluster: { server: `http://127.0.0.1:${port}` } }],
        users: [{ name: 'u', user: { token: 'capture' } }],
        contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
      }),
    );
  });

  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs one kubectl minor and returns the body of the one POST it made. */
  async function capture(minor: number, args: readonly string[]): Promise<Recorded> {
    recorded = [];
    const child = spawn(kubectlBinary(minor)!, ['--kubeconfig', join(dir, 'kubeconfig'), '--cache-dir', join(dir, `cache-${minor}`), ...args], {
      env: { PATH: process.env['PATH'] ?? '', HOME: dir },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    await new Promise<void>((resolve) => child.once('close', () => resolve()));
    clearTimeout(timer);
    assert.equal(recorded.length, 1, `kubectl 1.${minor} ${args.join(' ')} made ${recorded.length} POSTs`);
    return recorded[0]!;
  }

  const commands: readonly { args: readonly string[]; kind: string }[] = [
    { args: ['create', 'namespace', 'live-ns'], kind: 'Namespace' },
    { args: ['create', 'service', 'clusterip', 'live-web', '--tcp=80:8080', '--tcp=443:https'], kind: 'Service' },
    { args: ['create', 'service', 'nodeport', 'live-node', '--tcp=5678:8080', '--node-port=30080'], kind: 'Service' },
  ];
  for (const c of commands) {
    test(`kubectl ${c.args.join(' ')}`, async () => {
      const pb = await capture(PROTOBUF_MINOR, c.args);
      assert.equal(pb.headers['content-type'], 'application/vnd.kubernetes.protobuf');
      const json = await capture(JSON_MINOR, c.args);
      assert.equal(json.headers['content-type'], 'application/json');
      assert.equal(pb.path, json.path);
      const want = JSON.parse(json.body.toString('utf8')) as { metadata: Record<string, unknown> };
      // Go's creationTimestamp is omitzero now (absent); 1.31 was built before that (null).
      const { creationTimestamp, ...metadata } = want.metadata;
      assert.equal(creationTimestamp, null);
      assert.deepEqual(decodeProtobufObject(pb.body, { into: { apiVersion: 'v1', kind: c.kind }, kind: c.kind }), { ...want, metadata });
    });
  }
});
