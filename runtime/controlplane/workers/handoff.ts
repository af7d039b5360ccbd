import type { Socket } from 'node:net';
import { connectionAnswer, isHandedConnection, workerDraining } from './messages.js';

/**
 * Connections a server takes from elsewhere instead of listening itself: the port they arrive
 * on (for the server's URL and kubeconfig), and the start of their delivery, which ends once
 * `stopped` resolves (the server no longer takes new connections).
 */
export interface ConnectionSource {
  readonly port: number;
  start(accept: (socket: Socket) => void, stopped: Promise<void>): void;
}

/**
 * The worker's end of the --workers hand-off (the primary's is ConnectionBalancer): each
 * connection arrives over the IPC channel, unread, and is answered at once, before a byte of it
 * is read here: accepted (the primary closes its copy) or, once this server has stopped taking
 * connections, refused (the primary gives it to another worker; nothing was read, so that is
 * safe). Stopping also tells the primary to hand nothing more.
 */
export function workerConnections(port: number): ConnectionSource {
  return {
    port,
    start(accept, stopped) {
      let accepting = true;
      process.on('message', (m: unknown, handle: unknown) => {
        if (!isHandedConnection(m)) return;
        const socket = handle as Socket | undefined;
        if (!accepting || socket === undefined) {
          // Our copy only: the primary holds its own until it reads the answer.
          socket?.destroy();
          send(connectionAnswer(m.id, false));
          return;
        }
        send(connectionAnswer(m.id, true));
        accept(socket);
      });
      void stopped.then(() => {
        accepting = false;
        send(workerDraining());
      });
    },
  };
}

/** A message to the primary; a channel already closed (the primary is gone) is nobody's to tell. */
function send(message: object): void {
  if (process.connected) process.send?.(message, undefined, {}, () => {});
}
