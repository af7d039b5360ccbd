import type { Worker } from 'node:cluster';
import { createServer, type Server, type Socket } from 'node:net';
import { handedConnection, isConnectionAnswer } from './messages.js';

/** Connections held while no worker takes any (all starting or restarting); beyond, new ones are closed. */
const MAX_WAITING = 1024;
/**
 * How long a connection may wait for a worker: kube's default request timeout (60 s), the
 * longest any request may take. A client still waiting then has given up or is about to, and
 * a listener that never gets a worker again must not hold its connections for ever.
 */
const WAITING_TIMEOUT_MS = 60_000;

/**
 * The --workers primary's listener: it accepts every connection on the secure port and hands
 * each, unread, to the next worker in rotation (round robin), as node:cluster's round-robin
 * scheduler does, but it keeps its own copy of the socket until the worker answers. A worker
 * that dies before answering cannot have read from the connection, and the primary closes it:
 * the client sees the connection end at once (as for a request in flight on the dead worker),
 * where with node:cluster it stayed open, unserved, until the client's own timeout. A worker
 * that refuses (it began shutting down) gets the connection taken back and given to another.
 *
 * While no worker is in rotation (all starting or restarting), a connection waits for one, at
 * most WAITING_TIMEOUT_MS and at most MAX_WAITING of them.
 *
 * A worker is in rotation from its ready message (kube's load balancer takes a replica in once
 * its /readyz passes) until it drains or exits.
 */
export class ConnectionBalancer {
  private readonly server: Server;
  private readonly rotation: Worker[] = [];
  private next = 0;
  /** Connections waiting for a worker, oldest first, each with the timer that closes it. */
  private readonly waiting = new Map<Socket, NodeJS.Timeout>();
  /** Handed over and not yet answered, by id. */
  private readonly unanswered = new Map<number, { socket: Socket; worker: Worker }>();
  private lastId = 0;
  private closeWhenEmpty = false;

  constructor(private readonly waitingTimeoutMs = WAITING_TIMEOUT_MS) {
    // Paused: the primary never reads a byte; the worker that gets the socket reads it all.
    this.server = createServer({ pauseOnConnect: true }, (socket) => this.distribute(socket));
    // A connection reset before it is handed over is nobody's concern.
    this.server.on('connection', (socket: Socket) => socket.on('error', () => {}));
  }

  /** Listens on host:port (0: a free port); resolves with the bound port. */
  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen({ host, port }, () => {
        this.server.off('error', reject);
        const addr = this.server.address();
        resolve(typeof addr === 'object' && addr !== null ? addr.port : port);
      });
    });
  }

  /** Takes a worker's answers; call once per worker, before it can be in rotation. */
  attach(worker: Worker): void {
    worker.on('message', (m: unknown) => {
      if (!isConnectionAnswer(m)) return;
      const handed = this.unanswered.get(m.id);
      if (handed === undefined || handed.worker !== worker) return;
      this.unanswered.delete(m.id);
      // Accepted: the worker holds its own descriptor of the connection, and closing this copy
      // does not end it. Refused: nothing was read, another worker can serve it.
      if (m.accepted) handed.socket.destroy();
      else this.distribute(handed.socket);
    });
    // The channel is closed: every message the worker sent has been read, so a connection
    // still unanswered was never read by it. Closing this last copy ends it for the client.
    worker.once('disconnect', () => this.lost(worker));
    worker.once('exit', () => this.lost(worker));
  }

  /** A ready worker joins the rotation; connections waiting for one go to it. */
  add(worker: Worker): void {
    if (this.rotation.includes(worker) || !worker.isConnected()) return;
    this.rotation.push(worker);
    for (const socket of this.takeWaiting()) this.distribute(socket);
  }

  /** A worker leaves the rotation (it drains, or it is gone). */
  remove(worker: Worker): void {
    const i = this.rotation.indexOf(worker);
    if (i >= 0) this.rotation.splice(i, 1);
    if (this.closeWhenEmpty && this.rotation.length === 0) this.closeNow();
  }

  /**
   * Stops listening once no worker is in rotation any more (each leaves as it starts draining),
   * as node:cluster closes the shared socket when its last worker stops listening: until then a
   * worker still in its shutdown delay takes new connections, as kube's listener does.
   */
  closeWhenDrained(): void {
    this.closeWhenEmpty = true;
    if (this.rotation.length === 0) this.closeNow();
  }

  /** Stops listening and closes every connection not handed over. */
  closeNow(): void {
    this.server.close();
    for (const socket of this.takeWaiting()) socket.destroy();
  }

  private lost(worker: Worker): void {
    this.remove(worker);
    for (const [id, handed] of this.unanswered) {
      if (handed.worker !== worker) continue;
      this.unanswered.delete(id);
      handed.socket.destroy();
    }
  }

  private distribute(socket: Socket): void {
    if (socket.destroyed) return;
    const worker = this.pick();
    if (worker === undefined) {
      if (!this.server.listening || this.waiting.size >= MAX_WAITING) socket.destroy();
      else this.wait(socket);
      return;
    }
    const id = ++this.lastId;
    this.unanswered.set(id, { socket, worker });
    // keepOpen: this copy stays open until the worker answers (see attach).
    worker.send(handedConnection(id), socket, { keepOpen: true }, (err) => {
      if (err === null || !this.unanswered.has(id)) return;
      // Never sent: the worker cannot have it; another one can.
      this.unanswered.delete(id);
      this.remove(worker);
      this.distribute(socket);
    });
  }

  private wait(socket: Socket): void {
    const timer = setTimeout(() => {
      this.waiting.delete(socket);
      socket.destroy();
    }, this.waitingTimeoutMs);
    timer.unref();
    this.waiting.set(socket, timer);
  }

  /** Every waiting connection, oldest first, no longer waiting. */
  private takeWaiting(): Socket[] {
    const sockets = [...this.waiting.keys()];
    for (const timer of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
    return sockets;
  }

  private pick(): Worker | undefined {
    while (this.rotation.length > 0) {
      const worker = this.rotation[this.next++ % this.rotation.length]!;
      if (worker.isConnected()) return worker;
      this.remove(worker);
    }
    return undefined;
  }
}
