// A TCP proxy that can cut its path as a network partition does, unlike the client tests' proxy
// (which resets or refuses): while partitioned no byte moves either way, open connections stay
// open with nothing arriving, and new connections are accepted and then hear nothing, so the
// client notices only through its own timeouts and keepalives. Bytes sent meanwhile wait, as TCP
// retransmits them, and arrive once the partition heals (a request sent during it may still
// reach the server afterwards); a connection the client gave up on meanwhile is closed then.
import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';

interface Link {
  client: Socket;
  upstream: Socket | undefined;
}

export class PartitionProxy {
  private readonly links = new Set<Link>();
  private cut = false;
  /** Connections accepted so far, and those accepted while partitioned. */
  accepted = 0;
  acceptedWhileCut = 0;

  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly targetPort: number,
  ) {}

  /** Listens on a free loopback port and forwards to 127.0.0.1:targetPort. */
  static async start(targetPort: number): Promise<PartitionProxy> {
    let proxy: PartitionProxy | undefined;
    const server = createServer({ pauseOnConnect: true }, (s) => proxy?.accept(s));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const addr = server.address();
    if (addr === null || typeof addr === 'string') throw new Error('proxy has no port');
    proxy = new PartitionProxy(server, addr.port, targetPort);
    return proxy;
  }

  get partitioned(): boolean {
    return this.cut;
  }

  /** Stops every byte both ways; connections stay open and new ones are accepted but not served. */
  partition(): void {
    this.cut = true;
    for (const l of this.links) {
      l.client.pause();
      l.upstream?.pause();
    }
  }

  /** Delivers what waited and forwards again; connections accepted meanwhile reach the target now. */
  heal(): void {
    this.cut = false;
    for (const l of this.links) {
      if (l.upstream === undefined) this.connectUpstream(l);
      l.client.resume();
      l.upstream?.resume();
    }
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((r) => this.server.close(() => r()));
    for (const l of this.links) {
      l.client.destroy();
      l.upstream?.destroy();
    }
    this.links.clear();
    await closed;
  }

  private accept(client: Socket): void {
    this.accepted++;
    const link: Link = { client, upstream: undefined };
    this.links.add(link);
    client.on('error', () => this.end(link));
    client.on('close', () => this.end(link));
    // Without backpressure: etcd's traffic here is small, and pause() must be the only thing
    // that stops a socket, so that heal() resumes exactly what partition() stopped.
    client.on('data', (d: Buffer) => link.upstream?.write(d));
    client.on('end', () => link.upstream?.end());
    if (this.cut) {
      this.acceptedWhileCut++;
      return;
    }
    this.connectUpstream(link);
    client.resume();
  }

  private connectUpstream(link: Link): void {
    const upstream = connect(this.targetPort, '127.0.0.1');
    link.upstream = upstream;
    upstream.on('data', (d: Buffer) => link.client.write(d));
    upstream.on('end', () => link.client.end());
    upstream.on('error', () => this.end(link));
    upstream.on('close', () => this.end(link));
  }

  private end(link: Link): void {
    if (!this.links.delete(link)) return;
    link.client.destroy();
    link.upstream?.destroy();
  }
}
