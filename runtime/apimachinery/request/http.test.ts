import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { resolveRequestInfo } from './requestinfo.js';
import { Cancellation } from './cancellation.js';
import { adaptRequest, withCancellation } from './http.js';

describe('withCancellation', () => {
  it('replaces the cancellation, shares the body and forwards info and user to the original', async () => {
    const raw = Object.assign(new PassThrough(), { url: '/api/v1/namespaces?watch=1', method: 'GET', headers: {} }) as unknown as IncomingMessage;
    const response = Object.assign(new PassThrough(), { headersSent: false }) as unknown as ServerResponse;
    const { req } = adaptRequest(raw, response);
    const deadline = new Cancellation([req.cancellation]);
    const derived = withCancellation(req, deadline);
    assert.equal(derived.signal, deadline.signal);
    assert.equal(derived.path, '/api/v1/namespaces');
    derived.info = resolveRequestInfo(derived.method, derived.path, derived.query);
    derived.user = { name: 'u', groups: [] };
    assert.equal(req.info.verb, 'watch');
    assert.equal(req.user?.name, 'u');
    const spread = { ...withCancellation(derived, deadline) };
    assert.equal(spread.path, '/api/v1/namespaces');
    assert.equal(spread.info.verb, 'watch');
    (raw as unknown as PassThrough).end('body');
    assert.equal((await derived.readBody()).toString(), 'body');
    assert.equal(await req.readBody(), await derived.readBody());
  });
});

describe('Cancellation', () => {
  it('makes no AbortSignal until asked, and one already aborted when asked late', () => {
    const c = new Cancellation();
    c.abort(new Error('gone'));
    c.abort(new Error('later'));
    assert.equal(c.signal.aborted, true);
    assert.equal((c.signal.reason as Error).message, 'gone');
  });

  it('follows its parents, and the signal of a child made before the abort fires', () => {
    const parent = new Cancellation();
    const child = new Cancellation([parent]);
    const signal = child.signal;
    let fired = 0;
    signal.addEventListener('abort', () => fired++);
    parent.abort('deadline');
    assert.equal(fired, 1);
    assert.equal(signal.reason, 'deadline');
    assert.equal(new Cancellation([parent]).aborted, true);
  });

  it('aborts the request when its response closes', () => {
    const raw = Object.assign(new PassThrough(), { url: '/healthz?verbose', method: 'get', headers: {} }) as unknown as IncomingMessage;
    const response = Object.assign(new PassThrough(), { headersSent: false }) as unknown as ServerResponse;
    const { req } = adaptRequest(raw, response);
    assert.equal(req.method, 'GET');
    assert.equal(req.path, '/healthz');
    assert.equal(req.query.has('verbose'), true);
    assert.equal(req.cancellation.aborted, false);
    (response as unknown as PassThrough).emit('close');
    assert.equal(req.signal.aborted, true);
  });
});
