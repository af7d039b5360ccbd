// Requests carry headers and a request line up to kube-apiserver's 1 MiB (net/http
// MaxHeaderBytes), on plain HTTP and on the TLS port's HTTP/1.1 fallback: a list with a
// 10,000-term label selector reaches the handler instead of node's 16 KiB refusal.
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { describe, it } from 'node:test';
import type { GenericAPIServer } from '../../runtime/server/genericapiserver.js';
import { startServer } from './harness.js';
import { newCA, newLeaf } from './pki.js';

const selector = Array.from({ length: 10_000 }, (_, i) => `k${i}=v${i}`).join(',');
const path = `/echo?labelSelector=${encodeURIComponent(selector)}`;
const echo = (s: GenericAPIServer) => s.mux.handle('/echo', async (req, res) => res.writeJSON(200, { length: req.raw.url?.length ?? 0 }));

describe('request header size', () => {
  it(`reads a ${path.length}-byte request line on plain HTTP`, async () => {
    const t = await startServer({ setup: echo });
    try {
      const res = await fetch(t.url + path);
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { length: path.length });
    } finally {
      await t.close();
    }
  });

  it('reads it on the TLS port over HTTP/1.1, and still refuses more than 1 MiB', async () => {
    const ca = await newCA('cluster-ca');
    const leaf = await newLeaf(ca, { subject: 'CN=kube-apiserver', usage: 'server', ips: ['127.0.0.1'] });
    const t = await startServer({ setup: echo, serving: { tls: { cert: leaf.certPEM, key: leaf.keyPEM } } });
    const get = (p: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpsRequest(t.url + p, { ca: ca.certPEM, maxHeaderSize: 4 << 20 }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      const ok = await get(path);
      assert.equal(ok.status, 200);
      assert.deepEqual(JSON.parse(ok.body), { length: path.length });
      const tooLong = await get(`/echo?x=${'a'.repeat(1 << 20)}`).catch((e: Error) => ({ status: 0, body: e.message }));
      assert.ok(tooLong.status === 400 || tooLong.status === 431 || /ECONNRESET|socket hang up/.test(tooLong.body), `${tooLong.status} ${tooLong.body.slice(0, 100)}`);
    } finally {
      await t.close();
    }
  });
});
