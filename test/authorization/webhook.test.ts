import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { UserInfo } from '../../runtime/apimachinery/request/types.js';
import { alwaysAllowAuthorizer, unionAuthorizer, type Attributes } from '../../runtime/authorization/authorizer.js';
import { WebhookAuthorizer, type Backoff } from '../../runtime/authorization/webhook.js';
import { httpsSubjectAccessReviewer, type SubjectAccessReviewVersion } from '../../runtime/authorization/webhook-client.js';
import { loadWebhookKubeconfig } from '../../runtime/authorization/webhook-kubeconfig.js';
import { completeAuthorizationOptions, newAuthorizationFromOptions } from '../../runtime/server/options/authorization.js';
import { describeBackends } from '../integration/harness.js';
import { asStatus, HttpsClient, type RawResponse } from '../integration/https.js';
import { newCA, newLeaf } from '../server/pki.js';

/**
 * The webhook authorizer against a real local HTTPS service that answers SubjectAccessReviews and
 * checks the client certificate the kubeconfig names, as kube's webhook_v1_test.go does with its
 * test server: decisions, the review sent (v1 and v1beta1), the cache and its TTLs on an
 * injected clock, retries with backoff on transient failures, and failures as errors.
 */

interface Seen {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly clientCN: string;
  readonly body: Record<string, unknown>;
}

type Answer = (seen: Seen, req: IncomingMessage, res: ServerResponse) => void;

const jane: UserInfo = { name: 'jane', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a', 'b'] } };

function attrs(more: Partial<Attributes> = {}): Attributes {
  return {
    user: jane,
    verb: 'get',
    isResourceRequest: true,
    path: '/apis/wardle.example.com/v1alpha1/namespaces/ns/flunders/f',
    namespace: 'ns',
    apiGroup: 'wardle.example.com',
    apiVersion: 'v1alpha1',
    resource: 'flunders',
    subresource: '',
    name: 'f',
    ...more,
  };
}

function answer(status: Record<string, unknown>, apiVersion = 'authorization.k8s.io/v1'): Answer {
  return (_seen, _req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ apiVersion, kind: 'SubjectAccessReview', status }));
  };
}

const NO_WAIT: Backoff = { durationMs: 500, factor: 1.5, jitter: 0, steps: 5 };

/** A local HTTPS SubjectAccessReview service that demands the client certificate its kubeconfig names. */
class WebhookService {
  readonly dir = mkdtempSync(join(tmpdir(), 'authz-webhook-'));
  readonly kubeconfig = join(this.dir, 'webhook.kubeconfig');
  readonly seen: Seen[] = [];
  url = '';
  private server: Server | undefined;

  constructor(public respond: Answer) {}

  async start(): Promise<void> {
    const ca = await newCA('webhook-ca');
    const serving = await newLeaf(ca, { subject: 'CN=webhook', usage: 'server', ips: ['127.0.0.1'] });
    const client = await newLeaf(ca, { subject: 'CN=kube-apiserver', usage: 'client' });
    const server = createServer({ cert: serving.certPEM, key: serving.keyPEM, ca: ca.certPEM, requestCert: true, rejectUnauthorized: true }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const peer = (req.socket as TLSSocket).getPeerCertificate();
        const s: Seen = { path: req.url ?? '', headers: req.headers, clientCN: String(peer.subject?.CN ?? ''), body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> };
        this.seen.push(s);
        this.respond(s, req, res);
      });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/authorize`;
    writeFileSync(join(this.dir, 'ca.crt'), ca.certPEM);
    const lines = [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: authz',
      '  cluster:',
      '    certificate-authority: ca.crt',
      `    server: ${this.url}`,
      'users:',
      '- name: apiserver',
      '  user:',
    ];
    lines.push(`    client-certificate-data: ${Buffer.from(client.certPEM).toString('base64')}`, `    client-key-data: ${Buffer.from(client.keyPEM).toString('base64')}`);
    lines.push('contexts:', '- name: webhook', '  context: {cluster: authz, user: apiserver}', 'current-context: webhook', '');
    writeFileSync(this.kubeconfig, lines.join('\n'));
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server !== undefined) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

describe('webhook authorizer (plugin/pkg/authorizer/webhook)', () => {
  const svc = new WebhookService(answer({ allowed: true }));
  const { seen, kubeconfig, dir } = svc;
  let clock = 1_000_000;
  const sleeps: number[] = [];

  before(() => svc.start());
  after(() => svc.stop());
  beforeEach(() => {
    seen.length = 0;
    sleeps.length = 0;
    svc.respond = answer({ allowed: true });
  });

  function webhook(o: { version?: SubjectAccessReviewVersion; authorizedTTLMs?: number; unauthorizedTTLMs?: number; timeoutMs?: number; file?: string } = {}): WebhookAuthorizer {
    return new WebhookAuthorizer({
      reviewer: httpsSubjectAccessReviewer(loadWebhookKubeconfig(o.file ?? kubeconfig), o.version ?? 'v1', o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
      authorizedTTLMs: o.authorizedTTLMs ?? 300_000,
      unauthorizedTTLMs: o.unauthorizedTTLMs ?? 30_000,
      retryBackoff: NO_WAIT,
      now: () => clock,
      sleep: (ms) => {
        sleeps.push(ms);
        return Promise.resolve();
      },
    });
  }

  it('sends a v1 SubjectAccessReview of the attributes and user to the configured URL with the client certificate', async () => {
    const result = await webhook().authorize(attrs());
    assert.deepEqual(result, { decision: 'allow', reason: '' });
    assert.equal(seen.length, 1);
    const s = seen[0]!;
    assert.equal(s.path, '/authorize');
    assert.equal(s.clientCN, 'kube-apiserver');
    assert.equal(s.headers['content-type'], 'application/json');
    assert.deepEqual(s.body, {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      metadata: {},
      spec: {
        resourceAttributes: { namespace: 'ns', verb: 'get', group: 'wardle.example.com', version: 'v1alpha1', resource: 'flunders', name: 'f' },
        user: 'jane',
        groups: ['devs', 'system:authenticated'],
        extra: { scopes: ['a', 'b'] },
        uid: 'u-1',
      },
      status: { allowed: false },
    });
  });

  it('non-resource requests carry path and verb', async () => {
    await webhook().authorize(attrs({ isResourceRequest: false, path: '/healthz', verb: 'get', namespace: '', apiGroup: '', apiVersion: '', resource: '', name: '' }));
    assert.deepEqual((seen[0]!.body.spec as Record<string, unknown>).nonResourceAttributes, { path: '/healthz', verb: 'get' });
  });

  it('allowed → allow, denied → deny, neither → no opinion, each with the reason; allowed and denied → deny', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ allowed: true, reason: 'by policy' }, 'allow'],
      [{ allowed: false, denied: true, reason: 'never on fridays' }, 'deny'],
      [{ allowed: false, reason: 'no rule' }, 'noOpinion'],
      [{ allowed: true, denied: true, reason: 'confused' }, 'deny'],
    ];
    for (const [status, decision] of cases) {
      svc.respond = answer(status);
      assert.deepEqual(await webhook().authorize(attrs()), { decision, reason: status.reason });
    }
  });

  it('v1beta1: the review is sent as authorization.k8s.io/v1beta1 with `group`, and its answer read', async () => {
    svc.respond = answer({ allowed: false, denied: true, reason: 'beta says no' }, 'authorization.k8s.io/v1beta1');
    assert.deepEqual(await webhook({ version: 'v1beta1' }).authorize(attrs()), { decision: 'deny', reason: 'beta says no' });
    const body = seen[0]!.body;
    assert.equal(body.apiVersion, 'authorization.k8s.io/v1beta1');
    const spec = body.spec as Record<string, unknown>;
    assert.deepEqual(spec.group, ['devs', 'system:authenticated']);
    assert.equal(spec.groups, undefined);
    // Either version's answer is read (kube's codec converts); another version or kind is not.
    svc.respond = answer({ allowed: true });
    assert.equal((await webhook({ version: 'v1beta1' }).authorize(attrs())).decision, 'allow');
    svc.respond = answer({ allowed: true }, 'authorization.k8s.io/v2');
    await assert.rejects(
      webhook({ version: 'v1beta1' }).authorize(attrs()),
      /webhook answered with authorization\.k8s\.io\/v2, Kind=SubjectAccessReview, not authorization\.k8s\.io\/v1beta1, Kind=SubjectAccessReview/,
    );
  });

  it('caches an allowed answer for the authorized TTL and any other for the unauthorized TTL, per attributes', async () => {
    const w = webhook({ authorizedTTLMs: 60_000, unauthorizedTTLMs: 5_000 });
    svc.respond = answer({ allowed: true });
    await w.authorize(attrs());
    await w.authorize(attrs());
    assert.equal(seen.length, 1, 'the second identical request is answered from the cache');
    await w.authorize(attrs({ verb: 'list', name: '' }));
    assert.equal(seen.length, 2, 'other attributes ask again');
    await w.authorize(attrs({ user: { ...jane, groups: ['devs'] } }));
    assert.equal(seen.length, 3, 'another user (groups) asks again');
    clock += 59_999;
    await w.authorize(attrs());
    assert.equal(seen.length, 3);
    clock += 1;
    await w.authorize(attrs());
    assert.equal(seen.length, 4, 'expired after the authorized TTL');

    svc.respond = answer({ allowed: false, denied: true, reason: 'no' });
    const denyAttrs = attrs({ verb: 'delete' });
    assert.equal((await w.authorize(denyAttrs)).decision, 'deny');
    clock += 4_999;
    assert.equal((await w.authorize(denyAttrs)).decision, 'deny');
    assert.equal(seen.length, 5);
    clock += 1;
    svc.respond = answer({ allowed: true });
    assert.equal((await w.authorize(denyAttrs)).decision, 'allow', 'expired after the unauthorized TTL');
    assert.equal(seen.length, 6);
  });

  it('does not cache requester-controlled attributes of 10000 bytes or more', async () => {
    const w = webhook();
    const long = attrs({ name: 'x'.repeat(10_000) });
    await w.authorize(long);
    await w.authorize(long);
    assert.equal(seen.length, 2);
  });

  it('retries 500, 504, 429 and Retry-After answers with growing backoff, then succeeds', async () => {
    const failures = [
      (res: ServerResponse) => {
        res.writeHead(500);
        res.end('boom');
      },
      (res: ServerResponse) => {
        res.writeHead(504);
        res.end();
      },
      (res: ServerResponse) => {
        res.writeHead(429, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'slow down', reason: 'TooManyRequests', code: 429 }));
      },
      (res: ServerResponse) => {
        res.writeHead(503, { 'Retry-After': '1' });
        res.end();
      },
    ];
    svc.respond = (_s, _req, res) => {
      const next = failures.shift();
      if (next !== undefined) next(res);
      else answer({ allowed: true, reason: 'finally' })(_s, _req, res);
    };
    assert.deepEqual(await webhook().authorize(attrs()), { decision: 'allow', reason: 'finally' });
    assert.equal(seen.length, 5);
    assert.deepEqual(sleeps, [500, 750, 1125, 1687.5]);
  });

  it('gives up after 5 attempts with the last error, and rejects (no opinion with an error: 500 unless another authorizer allows)', async () => {
    svc.respond = (_s, _req, res) => {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end('database on fire');
    };
    const w = webhook();
    await assert.rejects(w.authorize(attrs()), (e: unknown) => e instanceof Error && e.message === 'an error on the server ("database on fire") has prevented the request from succeeding');
    assert.equal(seen.length, 5);
    assert.equal(sleeps.length, 4);
    assert.equal((await unionAuthorizer(w, alwaysAllowAuthorizer).authorize(attrs())).decision, 'allow');
    seen.length = 0;
    await assert.rejects(w.authorize(attrs()));
    assert.equal(seen.length, 5, 'failures are not cached');
  });

  it('does not retry other failures: 400, 403, an answer that is not a SubjectAccessReview', async () => {
    svc.respond = (_s, _req, res) => {
      res.writeHead(403, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'webhook says you are not the apiserver', reason: 'Forbidden', code: 403 }));
    };
    await assert.rejects(webhook().authorize(attrs()), /webhook says you are not the apiserver/);
    assert.equal(seen.length, 1);
    svc.respond = (_s, _req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"status": {"allowed": "yes"}}');
    };
    await assert.rejects(webhook().authorize(attrs()), /status\.allowed must be a boolean, got string/);
    svc.respond = (_s, _req, res) => {
      res.writeHead(200);
      res.end('<html>');
    };
    await assert.rejects(webhook().authorize(attrs()), /not JSON/);
    assert.equal(seen.length, 3);
  });

  it('retries a connection the webhook drops', async () => {
    let drops = 2;
    svc.respond = (s, req, res) => {
      if (drops-- > 0) req.socket.destroy();
      else answer({ allowed: true })(s, req, res);
    };
    assert.equal((await webhook().authorize(attrs())).decision, 'allow');
    assert.equal(seen.length, 3);
  });

  it('bounds a webhook that never answers by the request timeout', async () => {
    svc.respond = () => {};
    await assert.rejects(webhook({ timeoutMs: 300 }).authorize(attrs()), /timed out after 300 ms/);
  });

  it('refuses a webhook whose certificate the kubeconfig CA does not sign', async () => {
    const other = await newCA('other-ca');
    writeFileSync(join(dir, 'other.crt'), other.certPEM);
    const file = join(dir, 'other.kubeconfig');
    writeFileSync(file, `clusters:\n- name: c\n  cluster: {server: "${svc.url}", certificate-authority: other.crt}\ncontexts:\n- name: x\n  context: {cluster: c}\ncurrent-context: x\n`);
    await assert.rejects(webhook({ file }).authorize(attrs()), /certificate/);
    assert.equal(seen.length, 0);
  });

  it('sends a token user as a bearer token', async () => {
    // The service demands a client certificate: give one and a token.
    const text = readFileSync(kubeconfig, 'utf8').replace('    client-certificate-data:', '    token: s3cret\n    client-certificate-data:');
    const file = join(dir, 'token.kubeconfig');
    writeFileSync(file, text);
    await webhook({ file }).authorize(attrs());
    assert.equal(seen[0]!.headers.authorization, 'Bearer s3cret');
  });

  it('extra keys are data: __proto__ travels as a key', async () => {
    const extra = Object.create(null) as Record<string, string[]>;
    Object.defineProperty(extra, '__proto__', { value: ['p'], enumerable: true });
    await webhook().authorize(attrs({ user: { name: 'jane', groups: [], extra } }));
    const spec = seen[0]!.body.spec as Record<string, unknown>;
    assert.ok(Object.hasOwn(spec.extra as object, '__proto__'));
    assert.deepEqual(Object.getOwnPropertyDescriptor(spec.extra, '__proto__')?.value, ['p']);
  });

  it('cannot list rules: the rules review is incomplete, worded as kube', async () => {
    assert.deepEqual(await webhook().rulesFor(), { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'webhook authorizer does not support user rule resolution' });
  });

  it('--authorization-mode=Webhook end to end through the options: system:masters first, then the webhook', async () => {
    svc.respond = answer({ allowed: false, denied: true, reason: 'webhook denies' });
    const o = completeAuthorizationOptions({ modes: ['Webhook'], webhookConfigFile: kubeconfig });
    const { authorizer, ruleResolver } = newAuthorizationFromOptions(o, {});
    assert.deepEqual(await authorizer.authorize(attrs()), { decision: 'deny', reason: 'webhook denies' });
    assert.equal((await authorizer.authorize(attrs({ user: { name: 'admin', groups: ['system:masters'] } }))).decision, 'allow');
    assert.equal(seen.length, 1, 'system:masters never reaches the webhook');
    assert.equal((await ruleResolver.rulesFor(jane, 'ns')).incomplete, true);
  });
});

describe('webhook authorizer in the control plane', () => {
  /** Decides for alice and mallory, no opinion on anyone else: RBAC then decides, for the control plane's own controllers too. */
  const byUser: Answer = (s, req, res) => {
    const user = (s.body.spec as { user?: string }).user;
    const status = user === 'alice' ? { allowed: true, reason: 'alice may' } : user === 'mallory' ? { allowed: false, denied: true, reason: 'mallory is banned' } : { allowed: false };
    answer(status)(s, req, res);
  };
  const svc = new WebhookService(byUser);
  const { seen, kubeconfig } = svc;
  before(() => svc.start());
  after(() => svc.stop());

  describeBackends(
    '--authorization-mode=Webhook,RBAC',
    (cp) => {
      const http = (): HttpsClient => new HttpsClient(cp().credentials);
      const as = (user: string): Promise<RawResponse> => http().request({ path: '/api/v1/namespaces', headers: { 'Impersonate-User': user } });

      it('the webhook allows and denies with its reason; no opinion falls through to RBAC; system:masters never reaches it', async () => {
        const alice = await as('alice');
        assert.equal(alice.status, 200, alice.text);
        const mallory = asStatus((await as('mallory')).text);
        assert.equal(mallory.code, 403);
        assert.equal(mallory.message, 'namespaces is forbidden: User "mallory" cannot list resource "namespaces" in API group "" at the cluster scope: mallory is banned');
        const bob = asStatus((await as('bob')).text);
        assert.equal(bob.code, 403);
        assert.match(bob.message ?? '', /^namespaces is forbidden: User "bob" cannot list resource "namespaces" in API group "" at the cluster scope/);
        assert.equal((await http().request({ path: '/api/v1/namespaces' })).status, 200);
        const reviews = seen.map((x) => x.body.spec as { user?: string; groups?: string[] });
        assert.deepEqual(
          reviews.find((r) => r.user === 'alice'),
          { resourceAttributes: { verb: 'list', version: 'v1', resource: 'namespaces' }, user: 'alice', groups: ['system:authenticated'] },
        );
        assert.equal(reviews.filter((r) => r.groups?.includes('system:masters')).length, 0, 'system:masters is allowed before the webhook');
        assert.ok(seen.every((x) => x.clientCN === 'kube-apiserver'));
      });
    },
    { only: ['sqlite'], extraArgs: ['--authorization-mode=Webhook,RBAC', '--authorization-webhook-config-file', kubeconfig] },
  );
});
