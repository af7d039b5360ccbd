import cluster from 'node:cluster';

/**
 * What a worker and its primary say to each other over the cluster's IPC channel, and how a
 * worker knows it is one: the primary sets its index (stable across restarts, unlike
 * cluster.worker.id) in the environment of the processes it forks.
 */

export const WORKER_INDEX_ENV = 'KUBE_TS_APISERVER_WORKER_INDEX';

/**
 * The secure port the primary listens on and hands connections from: the port of the worker's
 * URL (with --secure-port 0, the flag says nothing of it).
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
  if (typeOf(m) !== 'kube-ts-apiserver/worker-ready') return false;
  const r = m as Record<string, unknown>;
  return typeof r['url'] === 'string' && typeof r['storageDescription'] === 'string' && typeof r['kubeconfigPath'] === 'string';
}

/**
 * A connection the primary accepted and hands to a worker (the socket travels with the message),
 * and the worker's answer: accepted, or refused because it no longer takes connections.
 */
export interface HandedConnection {
  readonly type: 'kube-ts-apiserver/connection';
  readonly id: number;
}

export interface ConnectionAnswer {
  readonly type: 'kube-ts-apiserver/connection-answer';
  readonly id: number;
  readonly accepted: boolean;
}

/** A worker that has stopped taking connections (its graceful shutdown began): hand it nothing more. */
export interface WorkerDraining {
  readonly type: 'kube-ts-apiserver/worker-draining';
}

export function handedConnection(id: number): HandedConnection {
  return { type: 'kube-ts-apiserver/connection', id };
}

export function connectionAnswer(id: number, accepted: boolean): ConnectionAnswer {
  return { type: 'kube-ts-apiserver/connection-answer', id, accepted };
}

export function workerDraining(): WorkerDraining {
  return { type: 'kube-ts-apiserver/worker-draining' };
}

export function isHandedConnection(m: unknown): m is HandedConnection {
  return typeOf(m) === 'kube-ts-apiserver/connection' && typeof (m as Record<string, unknown>)['id'] === 'number';
}

export function isConnectionAnswer(m: unknown): m is ConnectionAnswer {
  if (typeOf(m) !== 'kube-ts-apiserver/connection-answer') return false;
  const r = m as Record<string, unknown>;
  return typeof r['id'] === 'number' && typeof r['accepted'] === 'boolean';
}

export function isWorkerDraining(m: unknown): m is WorkerDraining {
  return typeOf(m) === 'kube-ts-apiserver/worker-draining';
}

function typeOf(m: unknown): unknown {
  return typeof m === 'object' && m !== null ? (m as Record<string, unknown>)['type'] : undefined;
}

/** The secure port of this worker's primary (WORKER_PORT_ENV); undefined outside a --workers worker. */
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
