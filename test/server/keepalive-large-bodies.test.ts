// Large requests one after another on one kept-alive HTTPS connection, as `kubectl apply -f` of a
// directory of CRDs sends them: cert-manager's CRDs, each answered with the whole CRD (up to 150
// KB), the next request written the moment the previous answer is read, while the server is
// still busy with the CRD it just stored. Node's HTTP/1 server paused the connection's parser
// for the next request while the previous answer was draining, and bytes still reached the
// paused parser (it read the TLS handle directly): the second CRD was answered 400 `malformed
// HTTP request: HPE_PAUSED`. Every one must be created.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect, type TLSSocket } from 'node:tls';
import { after, before, it } from 'node:test';
import { parse } from 'yaml';
import { describeBackends, repoRoot } from '../integration/harness.js';

const CRDS = [
  'cert-manager.io_issuers.yaml',
  'cert-manager.io_certificates.yaml',
  'cert-manager.io_clusterissuers.yaml',
  'cert-manager.io_certificaterequests.yaml',
  'acme.cert-manager.io_orders.yaml',
];

/** Waits until `take()` holds one whole HTTP/1.1 response with a Content-Length; its status line. */
async function nextResponse(take: () => Buffer, wait: () => Promise<void>): Promise<string> {
  for (;;) {
    const text = take().toString('latin1');
    const head = text.indexOf('\r\n\r\n');
    const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, head));
    if (head >= 0 && length !== null && text.length >= head + 4 + Number(length[1])) return text.slice(0, text.indexOf('\r\n'));
    await wait();
  }
}

describeBackends(
  'large requests in a row on one kept-alive connection',
  (cp) => {
    let socket: TLSSocket;
    let received = Buffer.alloc(0);
    before(async () => {
      const creds = cp().credentials;
      const u = new URL(creds.server);
      socket = connect({ host: u.hostname, port: Number(u.port), ca: creds.caPEM, ...(creds.certPEM && creds.keyPEM ? { cert: creds.certPEM, key: creds.keyPEM } : {}) });
      await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
      socket.on('data', (d: Buffer) => (received = Buffer.concat([received, d])));
    });
    after(() => socket?.destroy());

    it("each of cert-manager's CRDs is created, the next sent as soon as the previous answer is read", async () => {
      const statuses: string[] = [];
      for (const file of CRDS) {
        const body = JSON.stringify(parse(readFileSync(join(repoRoot, 'test/codegen/fixtures/crds/cert-manager', file), 'utf8')));
        received = Buffer.alloc(0);
        socket.write(
          `POST /apis/apiextensions.k8s.io/v1/customresourcedefinitions HTTP/1.1\r\nHost: kube\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
        const status = await nextResponse(
          () => received,
          () =>
            new Promise((resolve, reject) => {
              const timer = setTimeout(() => reject(new Error(`${file}: no whole answer within 60 s: ${received.toString('latin1').slice(0, 300)}`)), 60_000);
              socket.once('data', () => {
                clearTimeout(timer);
                resolve();
              });
            }),
        );
        statuses.push(`${file}: ${status}${status.includes(' 201 ') ? '' : ` ${received.toString('latin1').slice(-200)}`}`);
        // A refused request closes the connection: nothing more would be answered on it.
        if (!status.includes(' 201 ')) break;
      }
      assert.deepEqual(
        statuses,
        CRDS.map((f) => `${f}: HTTP/1.1 201 Created`),
      );
    });
  },
  { only: ['sqlite'] },
);
