// A TCP load balancer on loopback for the replica tests, as an L4 balancer (HAProxy in TCP mode,
// a cloud NLB) fronts kube-apiserver replicas: TLS passes through untouched, each client
// connection goes to the next backend in round-robin order, and a backend that refuses (killed,
// not yet listening) is skipped for the next one. A backend's close or reset is passed on to its
// client (FIN or RST), so a killed replica shows its clients a broken connection, not a hang.
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export class LoadBalancer {
  private server: Server | undefined;
  private next = 0;
  private backends: number[] = [];
  /** Open client↔backend pairs per backend port: what a kill of that backend breaks. */
  private readonly open = new Map<number, Set<Socket>>();
  /** Pairs ever made per backend port. */
  private readonly made = new Map<number, number>();
  port = 0;

  constructor(backends: readonly number[]) {
    this.setBackends(backends);
  }

  /** Replaces the backend ports (a restarted replica listens on a new one); open pairs stay. */
  setBackends(ports: readonly number[]): void {
    this.backends = [...ports];
  }

  /** Connections currently open to `backendPort`. */
  openTo(backendPort: number): number {
    return this.open.get(backendPort)?.size ?? 0;
  }

  /** Connections ever made to `backendPort`. */
  madeTo(backendPort: number): number {
    return this.made.get(backendPort) ?? 0;
  }

  async listen(): Promise<number> {
    const server = createServer((client) => this.accept(client));
    this.server = server;
    await new Promise<void>((res, rej) => {
      server.once('error', rej);
      server.listen(0, '127.0.0.1', () => res());
    });
    const addr = server.address();
    this.port = typeof addr === 'object' && addr !== null ? addr.port : 0;
    return this.port;
  }

  async close(): Promise<void> {
    for (const set of this.open.values()) for (const s of set) s.destroy();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  private accept(client: Socket): void {
    client.pause();
    client.on('error', () => undefined);
    const tried = new Set<number>();
    const attempt = (): void => {
      if (client.destroyed) return;
      const candidates = this.backends.filter((p) => !tried.has(p));
      if (candidates.length === 0) {
        client.destroy();
        return;
      }
      const port = this.pick(candidates);
      tried.add(port);
      const backend = createConnection({ host: '127.0.0.1', port });
      let connected = false;
      backend.once('connect', () => {
        connected = true;
        this.pair(client, backend, port);
      });
      backend.once('error', () => {
        // Refused before connecting: skip this backend; after: the pair is torn down below.
        if (!connected) attempt();
      });
    };
    attempt();
  }

  /** The next backend in round-robin order among `candidates`. */
  private pick(candidates: readonly number[]): number {
    for (let i = 0; i < this.backends.length; i++) {
      const p = this.backends[(this.next + i) % this.backends.length]!;
      if (candidates.includes(p)) {
        this.next = (this.next + i + 1) % this.backends.length;
        return p;
      }
    }
    return candidates[0]!;
  }

  private pair(client: Socket, backend: Socket, port: number): void {
    let set = this.open.get(port);
    if (set === undefined) this.open.set(port, (set = new Set()));
    set.add(backend);
    this.made.set(port, (this.made.get(port) ?? 0) + 1);
    client.pipe(backend);
    backend.pipe(client);
    client.resume();
    // A backend's FIN reaches the client through the pipe (end); a reset is passed on as one.
    backend.on('error', () => undefined);
    backend.on('close', (hadError) => {
      set.delete(backend);
      if (hadError && !client.destroyed) client.resetAndDestroy();
    });
    client.on('close', () => {
      set.delete(backend);
      if (!backend.destroyed) backend.destroy();
    });
  }
}
