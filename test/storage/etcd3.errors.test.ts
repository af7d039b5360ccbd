// How an etcd error reaches the client, from the error the etcd3 client throws (built here as
// etcd3 builds it from grpc-js's error) through the KV mapping to the Status the REST layer
// answers with: etcd's server errors as kube's registry passes them through (500, empty reason,
// etcd's text, no Retry-After); a read that hit this client's deadline or lost its connection,
// and a write that never left, as 500 ServerTimeout with Retry-After; a write that was sent and
// then lost its connection or deadline as kube passes its etcd client's error through (500,
// empty reason, no Retry-After: it may have committed); compaction as 410.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { castGrpcError, ClientClosedError } from 'etcd3';
import { toStatusError } from '../../runtime/apimachinery/errors/index.js';
import { CompactedError, FutureRevisionError } from '../../runtime/storage/kv.js';
import { BackendError, BackendTimeoutError, BackendUnavailableError, mapKVError } from '../../runtime/storage/kvstore/kvErrors.js';
import { mapEtcdError, mapEtcdReadError, mapEtcdWriteError, neverSent, retryableRead, sendLimitError } from '../../runtime/storage/etcd3/errors.js';

const codeNames: Record<number, string> = {
  1: 'CANCELLED',
  2: 'UNKNOWN',
  3: 'INVALID_ARGUMENT',
  4: 'DEADLINE_EXCEEDED',
  8: 'RESOURCE_EXHAUSTED',
  9: 'FAILED_PRECONDITION',
  11: 'OUT_OF_RANGE',
  14: 'UNAVAILABLE',
  15: 'DATA_LOSS',
};

/** The error etcd3 rejects with for a gRPC status (grpc-js's message, cast by etcd3). */
function grpcError(code: number, details: string): Error {
  const e = Object.assign(new Error(`${code} ${codeNames[code]}: ${details}`), { code, details });
  return castGrpcError(e);
}

const target = { gr: { group: '', resource: 'configmaps' }, name: 'x', operation: 'create' };

/** The Status a request answers with when its storage call failed with `e`. */
function statusFor(e: Error, operation = 'create', map: (e: unknown) => Error = mapEtcdError) {
  return toStatusError(mapKVError(map(e), '/registry/configmaps/default/x'), { ...target, operation }).status;
}

// rpctypes' server errors with their gRPC codes (api/v3rpc/rpctypes/error.go).
const serverErrors: ReadonlyArray<[number, string, boolean]> = [
  [14, 'etcdserver: leader changed', true],
  [14, 'etcdserver: no leader', true],
  [14, 'etcdserver: request timed out', true],
  [14, 'etcdserver: request timed out, possibly due to previous leader failure', true],
  [14, 'etcdserver: request timed out, possibly due to connection lost', true],
  [14, 'etcdserver: server stopped', true],
  [14, 'etcdserver: unhealthy cluster', true],
  [3, 'etcdserver: request is too large', false],
  [3, 'etcdserver: too many operations in txn request', false],
  [8, 'etcdserver: too many requests', false],
  [8, 'etcdserver: mvcc: database space exceeded', false],
  [9, 'etcdserver: not capable', false],
  [15, 'etcdserver: corrupt cluster', false],
];

describe('etcd server errors', () => {
  for (const [code, text, retriedOnRead] of serverErrors) {
    it(`${codeNames[code]} "${text}": 500, no reason, etcd's text, no Retry-After; ${retriedOnRead ? '' : 'not '}retried on a read`, () => {
      const e = grpcError(code, text);
      const mapped = mapEtcdError(e);
      assert.ok(mapped instanceof BackendError, `${mapped.name}: ${mapped.message}`);
      assert.equal(mapped.message, text);
      const s = statusFor(e);
      assert.equal(s.code, 500);
      assert.equal(s.reason ?? '', '');
      assert.equal(s.message, text);
      assert.equal(s.details?.retryAfterSeconds, undefined);
      assert.equal(retryableRead(e), retriedOnRead);
      assert.equal(neverSent(e), false, 'a server error means the request was sent');
    });
  }

  it('any other status from the server reads as Go prints a gRPC error', () => {
    const s = statusFor(grpcError(2, 'raft proposal dropped'));
    assert.equal(s.code, 500);
    assert.equal(s.reason ?? '', '');
    assert.equal(s.message, 'rpc error: code = Unknown desc = raft proposal dropped');
    assert.equal(retryableRead(grpcError(2, 'raft proposal dropped')), false);
  });

  it("etcd's own proposal timeout (code Unknown) is the server's error, not this client's deadline", () => {
    const e = grpcError(2, 'context deadline exceeded');
    assert.ok(mapEtcdError(e) instanceof BackendError);
    const s = statusFor(e);
    assert.equal(s.reason ?? '', '');
    assert.equal(s.message, 'rpc error: code = Unknown desc = context deadline exceeded');
  });

  it('an oversized reply keeps the text the list pager halves its page on', () => {
    const mapped = mapEtcdError(grpcError(8, 'Received message larger than max (5000000 vs. 4194304)'));
    assert.ok(mapped instanceof BackendError);
    assert.match(mapped.message, /ResourceExhausted.*larger than max/);
  });
});

describe('compaction and future revisions', () => {
  it('a compacted revision is 410 Expired', () => {
    const e = grpcError(11, 'etcdserver: mvcc: required revision has been compacted');
    assert.ok(mapEtcdError(e, 5) instanceof CompactedError);
    const s = statusFor(e);
    assert.equal(s.code, 410);
    assert.equal(s.reason, 'Expired');
  });

  it('a future revision stays typed', () => {
    assert.ok(mapEtcdError(grpcError(11, 'etcdserver: mvcc: required revision is a future revision'), 9) instanceof FutureRevisionError);
  });
});

describe('transport failures on a read: 500 ServerTimeout with Retry-After (sending a read again is safe)', () => {
  it("this client's deadline (a hung etcd) is 500 ServerTimeout with Retry-After 2, not retried", () => {
    const e = grpcError(4, 'Deadline exceeded after 10.001s,LB pick: 0.000s,remote_addr=127.0.0.1:2379');
    assert.ok(mapEtcdError(e) instanceof BackendTimeoutError);
    const s = statusFor(e, 'get');
    assert.equal(s.code, 500);
    assert.equal(s.reason, 'ServerTimeout');
    assert.equal(s.message, 'The get operation against configmaps could not be completed at this time, please try again.');
    assert.equal(s.details?.retryAfterSeconds, 2);
    assert.equal(retryableRead(e), false);
  });

  it("the read's deadline as etcd's server reports it (code Unknown, racing this client's own timer) is the same ServerTimeout", () => {
    const e = grpcError(2, 'context deadline exceeded');
    const mapped = mapEtcdReadError(e);
    assert.ok(mapped instanceof BackendTimeoutError);
    const s = statusFor(e, 'get', mapEtcdReadError);
    assert.equal(s.reason, 'ServerTimeout');
    assert.equal(s.details?.retryAfterSeconds, 2);
    // On a write the same status is the server's error: the write may have committed.
    assert.ok(mapEtcdWriteError(e) instanceof BackendError);
  });

  it('no connection is 500 ServerTimeout, retried within the deadline', () => {
    const e = grpcError(14, 'No connection established. Last error: connect ECONNREFUSED 127.0.0.1:2379');
    assert.ok(mapEtcdError(e) instanceof BackendUnavailableError);
    const s = statusFor(e, 'get');
    assert.equal(s.reason, 'ServerTimeout');
    assert.equal(s.details?.retryAfterSeconds, 2);
    assert.equal(retryableRead(e), true);
  });

  it('a dropped connection is 500 ServerTimeout, retried within the deadline', () => {
    const e = grpcError(14, 'Connection dropped');
    assert.ok(mapEtcdError(e) instanceof BackendUnavailableError);
    const s = statusFor(e, 'list');
    assert.equal(s.reason, 'ServerTimeout');
    assert.equal(s.details?.retryAfterSeconds, 2);
    assert.equal(retryableRead(e), true);
  });
});

// client-go sends again any request answered 5xx with Retry-After, a POST or PATCH included: a
// write that may have committed must not carry one. kube passes its etcd client's error through
// (500, empty reason); Go's client reports its own expired deadline as `context deadline exceeded`.
describe('transport failures on a write', () => {
  /** kube's answer to a write whose outcome is unknown: the etcd client's error as a 500 without a reason or Retry-After. */
  function assertUncertainWrite(e: Error, message: string): void {
    const mapped = mapEtcdWriteError(e);
    assert.ok(mapped instanceof BackendError, `${mapped.name}: ${mapped.message}`);
    assert.equal(mapped.message, message);
    assert.equal(neverSent(e), false, 'the write was sent: the client must not send it again by itself');
    for (const operation of ['create', 'update', 'patch', 'delete']) {
      const s = statusFor(e, operation, mapEtcdWriteError);
      assert.deepEqual(s, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
    }
  }

  /** A write that never left: ServerTimeout with Retry-After, which client-go follows. */
  function assertUnsentWrite(e: Error): void {
    const mapped = mapEtcdWriteError(e);
    assert.ok(mapped instanceof BackendUnavailableError || mapped instanceof BackendTimeoutError, `${mapped.name}: ${mapped.message}`);
    const s = statusFor(e, 'create', mapEtcdWriteError);
    assert.equal(s.code, 500);
    assert.equal(s.reason, 'ServerTimeout');
    assert.equal(s.message, 'The create operation against configmaps could not be completed at this time, please try again.');
    assert.equal(s.details?.retryAfterSeconds, 2);
  }

  it('sent, then the connection dropped: "rpc error: code = Unavailable desc = …", no Retry-After', () => {
    assertUncertainWrite(grpcError(14, 'Connection dropped'), 'rpc error: code = Unavailable desc = Connection dropped');
  });

  it('sent, then the call was cancelled (channel closing): "rpc error: code = Canceled desc = …", no Retry-After', () => {
    assertUncertainWrite(grpcError(1, 'Call cancelled'), 'rpc error: code = Canceled desc = Call cancelled');
  });

  it('sent to a hung etcd, then this client\'s deadline passed: "context deadline exceeded", no Retry-After', () => {
    assertUncertainWrite(grpcError(4, 'Deadline exceeded after 2.001s,LB pick: 0.000s,remote_addr=127.0.0.1:2379'), 'context deadline exceeded');
  });

  it('never sent (no connection, connection refused): 500 ServerTimeout with Retry-After', () => {
    assertUnsentWrite(grpcError(14, 'No connection established. Last error: connect ECONNREFUSED 127.0.0.1:2379'));
    assertUnsentWrite(grpcError(14, 'No connection established. Last error: Failed to connect (connect ECONNRESET)'));
  });

  it('never sent (the deadline passed while waiting for a connection): 500 ServerTimeout with Retry-After', () => {
    assertUnsentWrite(grpcError(4, 'Deadline exceeded after 10.002s,Waiting for LB pick'));
  });

  it('never sent (the client or channel was closed, the server refused the stream): 500 ServerTimeout with Retry-After', () => {
    assertUnsentWrite(new ClientClosedError('KVClient'));
    assertUnsentWrite(grpcError(14, 'Channel closed before call started'));
    assertUnsentWrite(grpcError(14, 'Stream refused by server'));
  });

  it('a connection reset after sending is not "never sent"', () => {
    assertUncertainWrite(grpcError(14, 'read ECONNRESET'), 'rpc error: code = Unavailable desc = read ECONNRESET');
  });

  it("etcd's server errors on a write are mapped as on a read", () => {
    for (const [code, text] of serverErrors) {
      const mapped = mapEtcdWriteError(grpcError(code, text));
      assert.ok(mapped instanceof BackendError);
      assert.equal(mapped.message, text);
    }
    assert.ok(mapEtcdWriteError(grpcError(11, 'etcdserver: mvcc: required revision has been compacted')) instanceof CompactedError);
  });

  it("a request over the client's send limit reads as grpc-go's refusal, with the request's size", () => {
    const e = grpcError(8, 'Attempted to send message with a size larger than 2097152');
    const mapped = sendLimitError(e, () => 2306912);
    assert.ok(mapped instanceof BackendError);
    const message = 'rpc error: code = ResourceExhausted desc = trying to send message larger than max (2306912 vs. 2097152)';
    assert.deepEqual(
      statusFor(e, 'create', () => mapped),
      { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 },
    );
    assert.equal(
      sendLimitError(grpcError(8, 'etcdserver: too many requests'), () => 0),
      undefined,
    );
  });
});
