import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { unionAuthorizer, type Attributes, type Authorizer } from '../../runtime/authorization/authorizer.js';

const attrs: Attributes = {
  user: { name: 'jane', groups: ['system:authenticated'] },
  verb: 'get',
  isResourceRequest: true,
  path: '/api/v1/namespaces/ns/pods/p',
  namespace: 'ns',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: '',
  name: 'p',
};

const failing = (message: string): Authorizer => ({ authorize: () => Promise.reject(new Error(message)) });
const noOpinion = (reason: string): Authorizer => ({ authorize: () => Promise.resolve({ decision: 'noOpinion', reason }) });

describe('unionAuthorizer (kube union.unionAuthzHandler)', () => {
  it("rejects with Go's aggregate wording: one error alone, several in brackets, a repeated one once", async () => {
    await assert.rejects(unionAuthorizer(noOpinion('r'), failing('a')).authorize(attrs), { message: 'a' });
    await assert.rejects(unionAuthorizer(failing('a'), noOpinion('r'), failing('b')).authorize(attrs), { message: '[a, b]' });
    await assert.rejects(unionAuthorizer(failing('a'), failing('a')).authorize(attrs), { message: 'a' });
  });

  it('an allow after an error is the answer; no opinion joins the reasons with newlines', async () => {
    const allow: Authorizer = { authorize: () => Promise.resolve({ decision: 'allow', reason: 'ok' }) };
    assert.deepEqual(await unionAuthorizer(failing('a'), allow).authorize(attrs), { decision: 'allow', reason: 'ok' });
    assert.deepEqual(await unionAuthorizer(noOpinion('x'), noOpinion(''), noOpinion('y')).authorize(attrs), { decision: 'noOpinion', reason: 'x\ny' });
  });
});
