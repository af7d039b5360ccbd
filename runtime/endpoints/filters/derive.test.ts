import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { adaptRequest } from '../../server/http.js';
import { resolveRequestInfo } from '../request/requestinfo.js';
import { withSignal } from './derive.js';

describe('withSignal', () => {
  it('replaces the signal, shares the body and forwards info and user to the original', async () => {
    const raw = Object.assign(new PassThrough(), { url: '/api/v1/namespaces?watch=1', method: 'GET', headers: {} }) as unknown as IncomingMessage;
    const response = Object.assign(new PassThrough(), { headersSent: false }) as unknown as ServerResponse;
    const { req } = adaptRequest(raw, response);
    const controller = new AbortController();
    const derived = withSignal(req, controller.signal);
    assert.equal(derived.signal, controller.signal);
    assert.equal(derived.path, '/api/v1/namespaces');
    derived.info = resolveRequestInfo(derived.method, derived.path, derived.query);
    derived.user = { name: 'u', groups: [] };
    assert.equal(req.info.verb, 'watch');
    assert.equal(req.user?.name, 'u');
    const spread = { ...withSignal(derived, controller.signal) };
    assert.equal(spread.path, '/api/v1/namespaces');
    assert.equal(spread.info.verb, 'watch');
    (raw as unknown as PassThrough).end('body');
    assert.equal((await derived.readBody()).toString(), 'body');
    assert.equal(await req.readBody(), await derived.readBody());
  });
});
