import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { APIRequest, APIResponse, Handler } from '../apimachinery/request/http.js';
import { PathRecorderMux } from './mux.js';
import { startServer } from '../../test/server/harness.js';

function tag(name: string, seen: string[]): Handler {
  return async () => {
    seen.push(name);
  };
}

function serve(mux: PathRecorderMux, path: string): Promise<void> {
  return mux.serve({ path } as APIRequest, {} as APIResponse);
}

describe('PathRecorderMux', () => {
  it('prefers the exact path, then the longest prefix, then the not-found handler', async () => {
    const seen: string[] = [];
    const mux = new PathRecorderMux('t', tag('notfound', seen));
    mux.handle('/apis', tag('exact /apis', seen));
    mux.handlePrefix('/apis/', tag('prefix /apis/', seen));
    mux.handlePrefix('/apis/example.com/', tag('prefix group', seen));
    mux.handle('/apis/example.com/v1beta1', tag('exact group v1beta1', seen));
    for (const p of ['/apis', '/apis/x', '/apis/example.com/v1beta1', '/apis/example.com/v1beta1/widgets', '/apis/example.com', '/api', '/']) await serve(mux, p);
    assert.deepEqual(seen, ['exact /apis', 'prefix /apis/', 'exact group v1beta1', 'prefix group', 'prefix /apis/', 'notfound', 'notfound']);
  });

  it('matchExcept: what a path reaches with one prefix registration left out (undefined: the not-found handler)', async () => {
    const seen: string[] = [];
    const mux = new PathRecorderMux('t', tag('notfound', seen));
    mux.handlePrefix('/apis/', tag('discovery', seen));
    mux.handlePrefix('/apis/example.com/', tag('group root', seen));
    mux.handle('/apis/example.com/v1', tag('exact', seen));
    await mux.matchExcept('/apis/example.com/v2', '/apis/example.com/')!({ path: '' } as APIRequest, {} as APIResponse);
    await mux.matchExcept('/apis/example.com/v1', '/apis/example.com/')!({ path: '' } as APIRequest, {} as APIResponse);
    assert.deepEqual(seen, ['discovery', 'exact']);
    assert.equal(mux.matchExcept('/api/v1', '/apis/'), undefined);
  });

  it('rejects duplicates unless replacing, and prefixes without a trailing slash', () => {
    const mux = new PathRecorderMux('t');
    mux.handle('/a', async () => {});
    assert.throws(() => mux.handle('/a', async () => {}), /duplicate path registration of "\/a"/);
    mux.handle('/a', async () => {}, { replace: true });
    mux.handlePrefix('/b/', async () => {});
    assert.throws(() => mux.handlePrefix('/b/', async () => {}), /duplicate prefix/);
    assert.throws(() => mux.handlePrefix('/c', async () => {}), /must end with "\/"/);
  });

  it('unregisters exact and prefix registrations; lists listed paths only', async () => {
    const seen: string[] = [];
    const mux = new PathRecorderMux('t', tag('notfound', seen));
    mux.handle('/x', tag('x', seen));
    mux.handlePrefix('/x/', tag('x/', seen));
    mux.handle('/hidden', tag('hidden', seen), { listed: false });
    assert.deepEqual(mux.listedPaths(), ['/x']);
    mux.unregister('/x');
    assert.equal(mux.has('/x'), false);
    assert.equal(mux.has('/x/y'), true);
    mux.unregister('/x/');
    await serve(mux, '/x/y');
    assert.deepEqual(seen, ['notfound']);
    mux.setNotFoundHandler(tag('other', seen));
    await serve(mux, '/x');
    assert.deepEqual(seen, ['notfound', 'other']);
  });

  it('handlers are added and removed while requests are being served', async () => {
    const t = await startServer({
      setup: (s) => {
        s.mux.handlePrefix('/apis/one.example.com/', async (req, res) => {
          await new Promise((r) => setTimeout(r, 2));
          res.writeJSON(200, { path: req.path });
        });
      },
    });
    try {
      let churning = true;
      const churn = (async () => {
        let i = 0;
        while (churning) {
          const prefix = `/apis/g${i % 5}.example.com/`;
          if (t.server.mux.has(prefix)) t.server.mux.unregister(prefix);
          else t.server.mux.handlePrefix(prefix, async (_req, res) => res.writeJSON(200, { group: prefix }));
          i++;
          await new Promise((r) => setImmediate(r));
        }
      })();
      const codes = new Map<number, number>();
      const oneOk: boolean[] = [];
      await Promise.all(
        Array.from({ length: 300 }, async (_, i) => {
          const one = i % 2 === 0;
          const path = one ? `/apis/one.example.com/v1/things/${i}` : `/apis/g${i % 5}.example.com/v1/things`;
          const r = await fetch(`${t.url}${path}`);
          const text = await r.text();
          codes.set(r.status, (codes.get(r.status) ?? 0) + 1);
          // A removed group is a path nothing serves: Go's plain-text 404 at the end of the chain.
          if (one) oneOk.push(r.status === 200 && (JSON.parse(text) as Record<string, unknown>).path === path);
          else assert.ok(r.status === 200 || (r.status === 404 && text === '404 page not found\n'), `unexpected ${r.status}: ${text}`);
        }),
      );
      churning = false;
      await churn;
      assert.equal(oneOk.length, 150);
      assert.ok(oneOk.every(Boolean));
      assert.deepEqual(
        [...codes.keys()].filter((c) => c !== 200 && c !== 404),
        [],
      );
    } finally {
      await t.close();
    }
  });
});
