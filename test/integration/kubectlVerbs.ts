// The kubectl verbs every served kind must support, declared once and run per kind, version
// and backend by kubectl.test.ts. Expected outputs are what kubectl 1.32 prints against
// kube-apiserver (exit codes, "created"/"configured" lines, Error from server lines).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { eventually, fails, ok } from './assertions.js';
import type { ControlPlane } from './harness.js';
import type { Kubectl } from './kubectl.js';
import { squashLines } from './kubectl.js';
import { invalidNameMessage, uniqueName, type KindCase } from './objects.js';

type Obj = Record<string, unknown> & { metadata: Record<string, unknown> };

export function declareVerbTests(k: KindCase, get: () => { kc: Kubectl; cp: ControlPlane }): void {
  describe(k.title, () => {
    const ns = uniqueName('it-ns');
    const nsArgs = (): string[] => (k.namespaced ? ['-n', ns] : []);
    const run = (args: string[], stdin?: string): ReturnType<Kubectl['run']> => get().kc.run([...args, ...nsArgs()], stdin === undefined ? {} : { stdin });
    const create = async (o: Record<string, unknown>): Promise<string> => ok(await run(['create', '-f', '-'], JSON.stringify(o)), get().cp);
    const getObj = async (name: string): Promise<Obj> => JSON.parse(ok(await run(['get', k.resource, name, '-o', 'json']), get().cp)) as Obj;
    const jsonpath = async (name: string, path: string): Promise<string> => ok(await run(['get', k.resource, name, '-o', `jsonpath=${path}`]), get().cp);

    before(async () => {
      if (k.namespaced) ok(await get().kc.createNamespace(ns), get().cp);
    });

    it('create, get (Table with server columns and Age), get -o yaml / -o json, list', async () => {
      const name = uniqueName('c');
      assert.equal(await create(k.manifest(name, k.namespaced ? ns : undefined)), `${k.printed}/${name} created`);
      const table = squashLines(ok(await run(['get', k.resource, name]), get().cp));
      assert.deepEqual(table[0]?.split(' '), k.columns, `header: ${table[0]}`);
      const row = table[1]?.split(' ') ?? [];
      assert.equal(row[0], name);
      assert.match(row[row.length - 1] ?? '', /^\d+s$/, `Age cell of ${table[1]}`);
      const y = parse(ok(await run(['get', k.resource, name, '-o', 'yaml']), get().cp)) as Obj;
      assert.equal(y['apiVersion'], k.apiVersion);
      assert.equal(y['kind'], k.kind);
      assert.equal(y.metadata['name'], name);
      assert.equal(y.metadata['namespace'], k.namespaced ? ns : undefined);
      assert.match(String(y.metadata['uid']), /^[0-9a-f-]{36}$/);
      assert.match(String(y.metadata['resourceVersion']), /^\d+$/);
      assert.match(String(y.metadata['creationTimestamp']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const list = JSON.parse(ok(await run(['get', k.resource, '-o', 'json']), get().cp)) as { kind: string; items: Obj[] };
      assert.equal(list.kind, 'List');
      assert.ok(
        list.items.some((i) => i.metadata['name'] === name),
        'listed',
      );
      assert.ok(
        list.items.every((i) => i['apiVersion'] === k.apiVersion),
        'items in the requested version',
      );
      const names = ok(await run(['get', k.resource, '-o', 'name']), get().cp).split('\n');
      assert.ok(names.includes(`${k.printed}/${name}`), names.join(','));
    });

    it('get -w --output-watch-events shows ADDED, MODIFIED, DELETED', async () => {
      const seed = uniqueName('wseed');
      await create(k.manifest(seed, k.namespaced ? ns : undefined));
      const w = get().kc.start(['get', k.resource, '--watch', '--output-watch-events', ...nsArgs()]);
      try {
        await w.waitForLine(new RegExp(`^ADDED ${seed}\\b`));
        const name = uniqueName('w');
        await create(k.manifest(name, k.namespaced ? ns : undefined));
        await w.waitForLine(new RegExp(`^ADDED ${name}\\b`));
        ok(await run(['label', k.resource, name, 'watched=yes']), get().cp);
        await w.waitForLine(new RegExp(`^MODIFIED ${name}\\b`));
        ok(await run(['delete', k.resource, name]), get().cp);
        await w.waitForLine(new RegExp(`^DELETED ${name}\\b`));
      } finally {
        await w.stop();
      }
      assert.equal(w.stderr.trim(), '', 'kubectl get -w printed no error');
    });

    it('label, annotate, patch --type merge, patch --type json', async () => {
      const name = uniqueName('p');
      await create(k.manifest(name, k.namespaced ? ns : undefined));
      assert.equal(ok(await run(['label', k.resource, name, 'tier=web']), get().cp), `${k.printed}/${name} labeled`);
      assert.equal(ok(await run(['annotate', k.resource, name, 'note=hi']), get().cp), `${k.printed}/${name} annotated`);
      assert.equal(ok(await run(['patch', k.resource, name, '--type', 'merge', '-p', JSON.stringify(k.specChange.patch)]), get().cp), `${k.printed}/${name} patched`);
      const jp = JSON.stringify([{ op: 'add', path: '/metadata/labels/json', value: 'patched' }]);
      assert.equal(ok(await run(['patch', k.resource, name, '--type', 'json', '-p', jp]), get().cp), `${k.printed}/${name} patched`);
      const o = await getObj(name);
      assert.deepEqual(o.metadata['labels'], { app: 'it', tier: 'web', json: 'patched' });
      assert.equal((o.metadata['annotations'] as Record<string, string>)['note'], 'hi');
      assert.equal(await jsonpath(name, k.specChange.jsonpath), k.specChange.expect);
      const bad = JSON.stringify([{ op: 'test', path: '/metadata/labels/tier', value: 'nope' }]);
      // kube-apiserver answers a failed JSON patch test with a bare 422 (no details).
      fails(await run(['patch', k.resource, name, '--type', 'json', '-p', bad]), 'The request is invalid: the server rejected our request due to an error in our request');
    });

    it('apply (client-side) creates, then configures a change, then is unchanged', async () => {
      const name = uniqueName('a');
      const m = k.manifest(name, k.namespaced ? ns : undefined);
      assert.equal(ok(await run(['apply', '-f', '-'], JSON.stringify(m)), get().cp), `${k.printed}/${name} created`);
      const changed: Record<string, unknown> = { ...m, ...k.specChange.patch, metadata: { ...(m['metadata'] as object), labels: { app: 'it', applied: 'twice' } } };
      if (k.specChange.patch['spec']) changed['spec'] = { ...(m['spec'] as object), ...(k.specChange.patch['spec'] as object) };
      assert.equal(ok(await run(['apply', '-f', '-'], JSON.stringify(changed)), get().cp), `${k.printed}/${name} configured`);
      assert.equal(ok(await run(['apply', '-f', '-'], JSON.stringify(changed)), get().cp), `${k.printed}/${name} unchanged`);
      const o = await getObj(name);
      assert.deepEqual(o.metadata['labels'], { app: 'it', applied: 'twice' });
      assert.equal(await jsonpath(name, k.specChange.jsonpath), k.specChange.expect);
      const last = JSON.parse(String((o.metadata['annotations'] as Record<string, string>)['kubectl.kubernetes.io/last-applied-configuration'])) as Obj;
      assert.deepEqual(last.metadata['labels'], { app: 'it', applied: 'twice' });
    });

    it('replace with the live resourceVersion; a stale one is a Conflict', async () => {
      const name = uniqueName('r');
      await create(k.manifest(name, k.namespaced ? ns : undefined));
      const live = await getObj(name);
      const stale = structuredClone(live);
      (live.metadata['labels'] as Record<string, string>)['replaced'] = 'yes';
      assert.equal(ok(await run(['replace', '-f', '-'], JSON.stringify(live)), get().cp), `${k.printed}/${name} replaced`);
      assert.equal(await jsonpath(name, '{.metadata.labels.replaced}'), 'yes');
      const r = await run(['replace', '-f', '-'], JSON.stringify(stale));
      fails(
        r,
        `Error from server (Conflict): error when replacing "STDIN": Operation cannot be fulfilled on ${k.groupResource} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      );
    });

    it('delete, then get is NotFound exactly as kubectl prints it', async () => {
      const name = uniqueName('d');
      await create(k.manifest(name, k.namespaced ? ns : undefined));
      assert.match(ok(await run(['delete', k.resource, name]), get().cp), new RegExp(`^${k.printed.replace(/\./g, '\\.')} "${name}" deleted`));
      fails(await run(['get', k.resource, name]), `Error from server (NotFound): ${k.groupResource} "${name}" not found`);
      fails(await run(['delete', k.resource, name]), `Error from server (NotFound): ${k.groupResource} "${name}" not found`);
    });

    it('wait --for=delete returns once the last finalizer is removed', async () => {
      const name = uniqueName('f');
      const m = k.manifest(name, k.namespaced ? ns : undefined);
      (m['metadata'] as Record<string, unknown>)['finalizers'] = ['example.com/hold'];
      await create(m);
      assert.match(ok(await run(['delete', k.resource, name, '--wait=false']), get().cp), / deleted/);
      assert.match(await jsonpath(name, '{.metadata.deletionTimestamp}'), /^\d{4}-/);
      const waiter = get().kc.start(['wait', '--for=delete', `${k.resource}/${name}`, '--timeout=90s', ...nsArgs()]);
      try {
        await new Promise((r) => setTimeout(r, 1000));
        ok(await run(['patch', k.resource, name, '--type', 'json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]']), get().cp);
        const r = await waiter.wait();
        assert.equal(r.code, 0, `wait: ${r.stdout}${r.stderr}`);
        assert.equal(r.stdout.trim(), `${k.printed}/${name} condition met`);
      } finally {
        await waiter.stop();
      }
      fails(await run(['get', k.resource, name]), `Error from server (NotFound): ${k.groupResource} "${name}" not found`);
    });

    it('errors: AlreadyExists, invalid name, strict unknown field, unknown field ignored without validation', async () => {
      const name = uniqueName('e');
      const m = k.manifest(name, k.namespaced ? ns : undefined);
      await create(m);
      fails(await run(['create', '-f', '-'], JSON.stringify(m)), `Error from server (AlreadyExists): error when creating "STDIN": ${k.groupResource} "${name}" already exists`);
      const badName = 'Bad_Name';
      const bad = k.manifest(badName, k.namespaced ? ns : undefined);
      fails(await run(['create', '-f', '-'], JSON.stringify(bad)), `The ${k.kind} "${badName}" is invalid: ${invalidNameMessage(badName)}`);
      const unknown = k.manifest(uniqueName('u'), k.namespaced ? ns : undefined);
      k.unknownField.set(unknown);
      const version = k.apiVersion.split('/')[1];
      fails(
        await run(['create', '--validate=strict', '-f', '-'], JSON.stringify(unknown)),
        `Error from server (BadRequest): error when creating "STDIN": ${k.kind} in version "${version}" cannot be handled as a ${k.kind}: strict decoding error: unknown field "${k.unknownField.path}"`,
      );
      const r = await run(['create', '--validate=false', '-f', '-'], JSON.stringify(unknown));
      ok(r, get().cp);
      const stored = JSON.stringify(await getObj(String((unknown['metadata'] as Record<string, unknown>)['name'])));
      assert.ok(!stored.includes('bogus'), `unknown field dropped: ${stored}`);
    });

    it('deletecollection by label selector', async () => {
      const names = [uniqueName('dc'), uniqueName('dc')];
      for (const n of names) {
        const m = k.manifest(n, k.namespaced ? ns : undefined);
        (m['metadata'] as Record<string, Record<string, string>>)['labels'] = { batch: 'dc' };
        await create(m);
      }
      ok(await run(['delete', k.resource, '-l', 'batch=dc']), get().cp);
      await eventually('collection deleted', async () => ok(await run(['get', k.resource, '-l', 'batch=dc', '-o', 'name']), get().cp) === '');
    });
  });
}
