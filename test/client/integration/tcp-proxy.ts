// A TCP proxy between a client and the API server, for tests that break connections: bytes are
// piped untouched (TLS passes through, so the client still verifies the server's certificate).
// `dropAll()` destroys every open connection (a network blip), `pause()` also refuses new ones
// (the server unreachable), `retarget()` follows a server that came back on another port.
import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';

export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  private targetPort: number;
  /** Connections accepted so far. */
  accepted = 0;
  /** Times dropAll() broke at least one connection. */
  drops = 0;

  private constructor(
    targetPort: number,
    readonly port: number,
    server: Server,
  ) {
    this.targetPort = targetPort;
    this.server = server;
  }

  /** Listens on a free loopback port and forwards to 127.0.0.1:targetPort. */
  static async start(targetPort: number): Promise<TcpProxy> {
    let proxy: TcpProxy | undefined;
    const server = createServer((s) => proxy?.accept(s));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const addr = server.address();
    if (addr === null || typeof addr === 'string') throw new Error('proxy has no port');
    proxy = new TcpProxy(targetPort, addr.port, server);
    return proxy;
  }

  get url(): string {
    return `https://127.0.0.1:${this.port}`;
  }

  get paused(): boolean {
    return this.server === undefined;
  }

  retarget(port: number): void {
    this.targetPort = port;
  }

  /** Destroys every open connection, both sides. */
  dropAll(): void {
    if (this.sockets.size > 0) this.drops++;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  /** Drops every connection every `ms` until the returned function is called. */
  dropEvery(ms: number): () => void {
    const t = setInterval(() => this.dropAll(), ms);
    return () => clearInterval(t);
  }

  /** Stops listening (new connections are refused) and drops the open ones. */
  async pause(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    this.server = undefined;
    const closed = new Promise<void>((r) => server.close(() => r()));
    this.dropAll();
    await closed;
  }

  /** Listens again on the same port. */
  async resume(): Promise<void> {
    if (this.server !== undefined) return;
    const server = createServer((s) => this.accept(s));
    server.listen(this.port, '127.0.0.1');
    await once(server, 'listening');
    this.server = server;
  }

  async close(): Promise<void> {
    await this.pause();
  }

  private accept(client: Socket): void {
    this.accepted++;
    const upstream = connect(this.targetPort, '127.0.0.1');
    this.sockets.add(client);
    this.sockets.add(upstream);
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
