import cluster from 'node:cluster';

/**
 * What a worker and its primary say to each other over the cluster's IPC channel, and how a
 * worker knows it is one: the primary sets its index (stable across restarts, unlike
 * cluster.worker.id) in the environment of the processes it forks.
 */

export const WORKER_INDEX_ENV = 'KUBE_TS_APISERVER_WORKER_INDEX';

/**
 * The port a restarted worker listens on: the one its predecessors got. With --secure-port 0
 * the cluster gives every worker the port of the listening socket the primary holds, but once
 * every worker died that socket is closed, and listening on 0 again would pick a new port.
 */
export const WORKER_PORT_ENV = 'KUBE_TS_APISERVER_WORKER_PORT';

/** A worker's message once its control plane is serving (what the primary's ready lines need). */
export interface WorkerReady {
  readonly type: 'kube-ts-apiserver/worker-ready';
  readonly url: string;
  readonly storageDescription: string;
  readonly kubeconfigPath: string;
}

export function workerReady(m: Omit<WorkerReady, 'type'>): WorkerReady {
  return { type: 'kube-ts-apiserver/worker-ready', url: m.url, storageDescription: m.storageDescription, kubeconfigPath: m.kubeconfigPath };
}

export function isWorkerReady(m: unknown): m is WorkerReady {
  if (typeof m !== 'object' || m === null) return false;
  const r = m as Record<string, unknown>;
  return r['type'] === 'kube-ts-apiserver/worker-ready' && typeof r['url'] === 'string' && typeof r['storageDescription'] === 'string' && typeof r['kubeconfigPath'] === 'string';
}

/** The port this worker must listen on instead of --secure-port; undefined: the flag's. */
export function workerPort(): number | undefined {
  const v = process.env[WORKER_PORT_ENV];
  if (v === undefined || !/^[0-9]{1,5}$/.test(v)) return undefined;
  const port = Number(v);
  return port >= 1 && port <= 65535 ? port : undefined;
}

/** This process's worker index when a --workers primary forked it; undefined otherwise. */
export function workerIndex(): number | undefined {
  if (!cluster.isWorker) return undefined;
  const v = process.env[WORKER_INDEX_ENV];
  if (v === undefined || !/^[0-9]{1,4}$/.test(v)) return undefined;
  return Number(v);
}
