import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { adaptRequest, type Handler } from '../../runtime/apimachinery/request/http.js';

/** A loopback node http server running `handler` through adaptRequest; close() when done. */
export interface TestServer {
  readonly url: string;
  readonly port: number;
  get(path: string, headers?: Record<string, string>): Promise<TestResponse>;
  request(method: string, path: string, headers?: Record<string, string>): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  json(): unknown;
}

export async function serveHandler(handler: Handler): Promise<TestServer> {
  const server: Server = createServer((raw, response) => {
    const { req, res } = adaptRequest(raw, response);
    handler(req, res).catch((err: unknown) => res.writeError(err));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const request = async (method: string, path: string, headers: Record<string, string> = {}): Promise<TestResponse> => {
    const r = await fetch(url + path, { method, headers, redirect: 'manual' });
    const text = await r.text();
    return { status: r.status, headers: r.headers, text, json: () => JSON.parse(text) as unknown };
  };
  return {
    url,
    port,
    request,
    get: (path, headers) => request('GET', path, headers),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
