import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Etcd3, IOptions } from 'etcd3';
import { neverSent } from './errors.js';

/**
 * The etcd3 package, loaded on first use: it brings gRPC and parses its .proto files (about
 * 100 ms), which a server on the embedded SQLite store never needs.
 */
function etcd3(): typeof import('etcd3') {
  return createRequire(import.meta.url)('etcd3') as typeof import('etcd3');
}

/**
 * The encoded size of a TxnRequest, as grpc measures it against the send limit. grpc-js reports
 * only the limit; Go's client also names the size, and kube's answer carries it. Loaded on first
 * use (a request over the limit): it parses etcd3's rpc.proto again, with etcd3's loader options.
 */
export function txnRequestSize(request: unknown): number {
  serializeTxn ??= loadTxnSerializer();
  return serializeTxn(request).length;
}

let serializeTxn: ((request: unknown) => Buffer) | undefined;

function loadTxnSerializer(): (request: unknown) => Buffer {
  const etcd3Require = createRequire(createRequire(import.meta.url).resolve('etcd3'));
  const protoLoader = etcd3Require('@grpc/proto-loader') as typeof import('@grpc/proto-loader');
  const rpcProto = join(dirname(etcd3Require.resolve('etcd3')), '..', 'proto', 'rpc.proto');
  const definition = protoLoader.loadSync(rpcProto, { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true });
  const kv = definition['etcdserverpb.KV'] as unknown as Record<string, { requestSerialize: (request: unknown) => Buffer }>;
  return kv.Txn!.requestSerialize;
}

type Policy = NonNullable<NonNullable<IOptions['faultHandling']>['global']>;

/**
 * The signal every policy hands its call: the etcd3 client never reads it (a call ends by its
 * gRPC deadline), so one signal that is never aborted serves all calls. An AbortController per
 * policy per call cost about 0.02 ms of CPU per etcd call (two of them, and their garbage).
 */
const neverAborted = { signal: new AbortController().signal };

/**
 * Runs fn with V8's stack capture off. grpc-js makes an Error at every call only to append the
 * caller's stack to the error of a call that fails; capturing it was ~0.023 ms of a ~0.4 ms call
 * (makeUnaryRequest's self time in etcd-client.bench.ts's profile). A failed call still has the
 * stack of where it failed, and the store maps every etcd error (errors.ts) anyway. Only the
 * synchronous start of the call runs with the limit at 0 (no other code can run meanwhile).
 */
function withoutStackCapture<R>(fn: () => R): R {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return fn();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * A policy that runs each call exactly once. The etcd3 client's defaults retry failed calls
 * (including writes that may have committed) and open a per-host circuit breaker that keeps
 * failing calls for 5 s after etcd recovers; the store decides retries itself.
 */
const once: Policy = {
  // Always a promise, even when fn throws synchronously (the client's markFailed relies on it).
  // fn starts the gRPC call synchronously (etcd3's pool has already awaited the auth metadata).
  execute: (fn: (ctx: { signal: AbortSignal }) => unknown) => new Promise((resolve) => resolve(withoutStackCapture(() => fn(neverAborted)))),
  onSuccess: () => ({ dispose: () => undefined }),
  onFailure: () => ({ dispose: () => undefined }),
} as unknown as Policy;

/**
 * The client-wide policy: a call gRPC never sent, because the member it picked accepts no
 * connection (killed, restarting), is made again on the next member, once per member. etcd's Go
 * client does the same (its balancer picks only connected members; its retry interceptor repeats
 * even a write when there was no connection), which is why a kube-apiserver does not fail a
 * third of its requests while one member of three is down. A call that was sent is never
 * repeated: a write may have committed.
 */
function retryUnsentPolicy(members: number): Policy {
  return {
    execute: async (fn: (ctx: { signal: AbortSignal }) => unknown) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await fn(neverAborted);
        } catch (err) {
          if (attempt >= members || !neverSent(err)) throw err;
        }
      }
    },
    onSuccess: () => ({ dispose: () => undefined }),
    onFailure: () => ({ dispose: () => undefined }),
  } as unknown as Policy;
}

export interface EtcdClientConfig {
  /** Client URLs, e.g. ['http://127.0.0.1:2379']. */
  endpoints: readonly string[];
  /** Deadline of every unary call (get/list/txn/compact); a call still running then fails with a timeout. */
  requestTimeoutMs?: number;
  /** Extra gRPC channel options. */
  grpcOptions?: IOptions['grpcOptions'];
}

/** etcd's Go client's default limit on a request it sends (clientv3 defaultMaxCallSendMsgSize). */
export const MAX_CALL_SEND_MSG_SIZE = 2 * 1024 * 1024;

/** Builds an etcd3 client wired for storage: no blind retries, per-call deadlines, fast reconnects. */
export function newEtcdClient(config: EtcdClientConfig): Etcd3 {
  const timeout = config.requestTimeoutMs ?? 10_000;
  const { Etcd3: Client } = etcd3();
  return new Client({
    hosts: [...config.endpoints],
    dialTimeout: Math.min(timeout, 5000),
    // Each call goes to one member picked at random (the etcd3 client's pool); retryUnsentPolicy
    // moves it to the next member when the picked one is down.
    faultHandling: { global: retryUnsentPolicy(config.endpoints.length), host: () => once },
    defaultCallOptions: (ctx) => (ctx.isStream ? {} : { deadline: Date.now() + timeout }),
    grpcOptions: {
      // Reconnect quickly once etcd is back instead of backing off for tens of seconds.
      'grpc.initial_reconnect_backoff_ms': 100,
      'grpc.min_reconnect_backoff_ms': 100,
      'grpc.max_reconnect_backoff_ms': 1000,
      // Detect dead connections (a partitioned or paused member) within seconds.
      'grpc.keepalive_time_ms': 5000,
      'grpc.keepalive_timeout_ms': 3000,
      'grpc.keepalive_permit_without_calls': 1,
      // etcd's Go client refuses to send a request above 2 MiB (defaultMaxCallSendMsgSize), so
      // kube-apiserver answers such a write with that error before etcd's server sees it.
      'grpc.max_send_message_length': MAX_CALL_SEND_MSG_SIZE,
      ...config.grpcOptions,
    },
  });
}
