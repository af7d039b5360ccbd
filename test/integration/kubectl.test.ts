// Acceptance (issue 4): the real kubectl against the control plane command, started by the
// test as a user runs it, on SQLite and on etcd. Skipped (with the reason) only where kubectl
// is not installed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, fails, ok } from './assertions.js';
import { describeBackends } from './harness.js';
import { Kubectl, kubectlBinary, kubectlUnavailable, squashLines } from './kubectl.js';
import { declareVerbTests } from './kubectlVerbs.js';
import { flunderV1beta1, kindCases, uniqueName } from './objects.js';

const noKubectl = kubectlUnavailable();

describe('kubectl against the control plane', { skip: noKubectl ?? false }, () => {
  describeBackends('kubectl', (cp) => {
    let kc: Kubectl;
    before(() => {
      kc = new Kubectl(cp);
    });
    after(() => kc.dispose());
    const run = (args: string[], stdin?: string): ReturnType<Kubectl['run']> => kc.run(args, stdin === undefined ? {} : { stdin });

    it('api-resources lists the served kinds with SHORTNAMES, APIVERSION, NAMESPACED, KIND', async () => {
      const lines = squashLines(ok(await run(['api-resources']), cp()));
      assert.equal(lines[0], 'NAME SHORTNAMES APIVERSION NAMESPACED KIND');
      for (const row of [
        'flunders fl wardle.example.com/v1beta1 true Flunder',
        'fischers wardle.example.com/v1alpha1 false Fischer',
        'namespaces ns v1 false Namespace',
        'services svc v1 true Service',
        'endpoints ep v1 true Endpoints',
        'customresourcedefinitions crd,crds apiextensions.k8s.io/v1 false CustomResourceDefinition',
        'apiservices apiregistration.k8s.io/v1 false APIService',
      ]) {
        assert.ok(lines.includes(row), `missing row "${row}" in:\n${lines.join('\n')}`);
      }
      const wardle = squashLines(ok(await run(['api-resources', '--api-group=wardle.example.com', '-o', 'name']), cp()));
      assert.deepEqual(wardle.sort(), ['fischers.wardle.example.com', 'flunders.wardle.example.com']);
    });

    it('api-versions lists every served group version', async () => {
      const lines = squashLines(ok(await run(['api-versions']), cp()));
      for (const gv of ['v1', 'wardle.example.com/v1alpha1', 'wardle.example.com/v1beta1', 'apiextensions.k8s.io/v1', 'apiregistration.k8s.io/v1']) {
        assert.ok(lines.includes(gv), `missing ${gv} in ${lines.join(', ')}`);
      }
    });

    it('explain flunder.spec (preferred version) and --api-version v1alpha1', async () => {
      const out = ok(await run(['explain', 'flunder.spec']), cp());
      assert.match(out, /GROUP:\s+wardle\.example\.com/);
      assert.match(out, /KIND:\s+Flunder/);
      assert.match(out, /VERSION:\s+v1beta1/);
      assert.match(out, /FIELD:\s+spec\s+<\w+>/);
      assert.match(out, /flunderReference\s+<string>/);
      assert.match(out, /fischerReference\s+<string>/);
      assert.match(out, /referenceType\s+<string>/);
      const alpha = ok(await run(['explain', 'flunder.spec', '--api-version=wardle.example.com/v1alpha1']), cp());
      assert.match(alpha, /VERSION:\s+v1alpha1/);
      assert.match(alpha, /reference\s+<string>/);
      assert.doesNotMatch(alpha, /flunderReference/);
      const fischer = ok(await run(['explain', 'fischer']), cp());
      assert.match(fischer, /disallowedFlunders\s+<\[\]string>/);
    });

    it('namespaces default, kube-system and kube-public exist and are Active', async () => {
      const lines = squashLines(ok(await run(['get', 'namespaces', 'default', 'kube-system', 'kube-public']), cp()));
      assert.equal(lines[0], 'NAME STATUS AGE');
      for (const [i, n] of ['default', 'kube-system', 'kube-public'].entries()) assert.match(lines[i + 1] ?? '', new RegExp(`^${n} Active \\d+[smh]`));
      fails(await run(['delete', 'namespace', 'kube-system']), 'Error from server (Forbidden): namespaces "kube-system" is forbidden: this namespace may not be deleted');
    });

    it('create namespace (the typed client of kubectl sends a protobuf body)', async () => {
      const ns = uniqueName('typed');
      assert.equal(ok(await run(['create', 'namespace', ns]), cp()), `namespace/${ns} created`);
      assert.equal(ok(await run(['get', 'namespace', ns, '-o', 'jsonpath={.status.phase}']), cp()), 'Active');
    });

    it('create service clusterip (a protobuf Service with an IntOrString targetPort), then get it back', async () => {
      const ns = uniqueName('svc');
      ok(await run(['create', 'namespace', ns]), cp());
      const name = uniqueName('web');
      assert.equal(ok(await run(['create', 'service', 'clusterip', name, '--tcp=80:8080', '-n', ns]), cp()), `service/${name} created`);
      const svc = JSON.parse(ok(await run(['get', 'service', name, '-n', ns, '-o', 'json']), cp())) as { metadata: { labels?: unknown }; spec: Record<string, unknown> };
      assert.deepEqual(svc.metadata.labels, { app: name });
      assert.deepEqual(svc.spec['ports'], [{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 }]);
      assert.deepEqual(svc.spec['selector'], { app: name });
      assert.equal(svc.spec['type'], 'ClusterIP');
    });

    it('a Flunder in a missing namespace is rejected with namespaces "nope" not found', async () => {
      const m = flunderV1beta1.manifest(uniqueName('orphan'));
      fails(await run(['create', '-n', 'nope', '-f', '-'], JSON.stringify(m)), 'Error from server (NotFound): error when creating "STDIN": namespaces "nope" not found');
    });

    it('patch on a Namespace uses strategic merge by default; apply on a Namespace twice', async () => {
      const ns = uniqueName('smp');
      ok(await kc.createNamespace(ns), cp());
      assert.equal(ok(await run(['patch', 'namespace', ns, '-p', '{"metadata":{"labels":{"smp":"yes"}}}']), cp()), `namespace/${ns} patched`);
      assert.equal(ok(await run(['get', 'namespace', ns, '-o', 'jsonpath={.metadata.labels.smp}']), cp()), 'yes');
      const m = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { applied: 'one' } } };
      assert.equal(ok(await run(['apply', '-f', '-'], JSON.stringify(m)), cp()), `namespace/${ns} configured`);
      m.metadata.labels.applied = 'two';
      assert.equal(ok(await run(['apply', '-f', '-'], JSON.stringify(m)), cp()), `namespace/${ns} configured`);
      const labels = JSON.parse(ok(await run(['get', 'namespace', ns, '-o', 'jsonpath={.metadata.labels}']), cp())) as Record<string, string>;
      assert.equal(labels['applied'], 'two');
      assert.equal(labels['smp'], 'yes');
      assert.equal(labels['kubernetes.io/metadata.name'], ns);
    });

    it('deleting a namespace deletes its Flunders, then the namespace', async () => {
      const ns = uniqueName('gone');
      ok(await kc.createNamespace(ns), cp());
      for (const n of ['one', 'two', 'three']) ok(await run(['create', '-n', ns, '-f', '-'], JSON.stringify(flunderV1beta1.manifest(n))), cp());
      assert.equal(squashLines(ok(await run(['get', 'flunders', '-n', ns, '-o', 'name']), cp())).length, 3);
      assert.match(ok(await run(['delete', 'namespace', ns, '--timeout=90s']), cp()), new RegExp(`^namespace "${ns}" deleted`));
      fails(await run(['get', 'namespace', ns]), `Error from server (NotFound): namespaces "${ns}" not found`);
      const left = await run(['get', 'flunders', '-n', ns]);
      assert.equal(left.code, 0, left.stderr);
      assert.equal(left.stderr.trim(), `No resources found in ${ns} namespace.`);
    });

    it('BanFlunder admission rejects a Flunder named by a Fischer, as kube prints Forbidden', async () => {
      const ns = uniqueName('ban');
      ok(await kc.createNamespace(ns), cp());
      const banned = uniqueName('banned');
      const fischer = { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Fischer', metadata: { name: uniqueName('ban-list') }, disallowedFlunders: [banned] };
      ok(await run(['create', '-f', '-'], JSON.stringify(fischer)), cp());
      const want = `Error from server (Forbidden): error when creating "STDIN": flunders.wardle.example.com "${banned}" is forbidden: this name may not be used, please change the resource name`;
      let last = '';
      await eventually('BanFlunder to see the Fischer', async () => {
        const r = await run(['create', '-n', ns, '-f', '-'], JSON.stringify(flunderV1beta1.manifest(banned)));
        last = `${r.code} ${r.stderr}${r.stdout}`;
        if (r.code === 0) assert.fail(`a banned Flunder was created: ${last}`);
        return r.stderr.trim() === want;
      }).catch((e: Error) => assert.fail(`${e.message}; last answer: ${last}`));
      ok(await run(['create', '-n', ns, '-f', '-'], JSON.stringify(flunderV1beta1.manifest(uniqueName('allowed')))), cp());
    });

    it('Invalid with field causes: CEL rules of both versions', async () => {
      const ns = uniqueName('inv');
      ok(await kc.createNamespace(ns), cp());
      const both = { ...flunderV1beta1.manifest('both', ns), spec: { flunderReference: 'a', fischerReference: 'b' } };
      fails(await run(['create', '-f', '-'], JSON.stringify(both)), 'The Flunder "both" is invalid: spec: Invalid value: "object": flunderReference and fischerReference are mutually exclusive');
      const typeOnly = { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'typeonly', namespace: ns }, spec: { referenceType: 'Fischer' } };
      fails(await run(['create', '-f', '-'], JSON.stringify(typeOnly)), 'The Flunder "typeonly" is invalid: spec.reference: Required value: reference is required when referenceType is set');
    });

    it('an object written in v1beta1 reads back converted in v1alpha1', async () => {
      const ns = uniqueName('conv');
      ok(await kc.createNamespace(ns), cp());
      const m = { ...flunderV1beta1.manifest('conv', ns), spec: { fischerReference: 'fish' } };
      ok(await run(['create', '-f', '-'], JSON.stringify(m)), cp());
      const alpha = JSON.parse(ok(await run(['get', '-n', ns, 'flunders.v1alpha1.wardle.example.com', 'conv', '-o', 'json']), cp())) as { apiVersion: string; spec: unknown };
      assert.equal(alpha.apiVersion, 'wardle.example.com/v1alpha1');
      assert.deepEqual(alpha.spec, { reference: 'fish', referenceType: 'Fischer' });
    });

    for (const k of kindCases) declareVerbTests(k, () => ({ kc, cp: cp() }));
  });
});

// Version skew: every kubectl minor installed beside the dispatcher reads discovery and lists
// (1.27/1.28 use aggregated discovery v2beta1; apply/explain there need OpenAPI v2 protobuf).
describe('kubectl version skew', { skip: noKubectl ?? false }, () => {
  describeBackends(
    'kubectl minors',
    (cp) => {
      let kc: Kubectl;
      before(() => {
        kc = new Kubectl(cp);
      });
      after(() => kc.dispose());
      for (const minor of [27, 28, 29, 30, 31, 32, 33]) {
        it(`kubectl 1.${minor}: api-resources and get flunders`, { skip: kubectlBinary(minor) ? false : (kubectlUnavailable(minor) ?? false) }, async () => {
          const res = squashLines(ok(await kc.run(['api-resources', '--api-group=wardle.example.com'], { minor }), cp()));
          assert.ok(
            res.some((l) => l.startsWith('flunders fl wardle.example.com/v1beta1 true Flunder')),
            res.join('\n'),
          );
          const name = `skew-${minor}`;
          ok(await kc.run(['create', '--validate=false', '-f', '-'], { minor, stdin: JSON.stringify(flunderV1beta1.manifest(name, 'default')) }), cp());
          const rows = squashLines(ok(await kc.run(['get', 'flunders', name], { minor }), cp()));
          assert.deepEqual(rows[0]?.split(' '), flunderV1beta1.columns);
          assert.match(rows[1] ?? '', new RegExp(`^${name} other (<none> )?Flunder \\d+s$`));
          ok(await kc.run(['delete', 'flunder', name], { minor }), cp());
        });
      }
    },
    { only: ['sqlite'] },
  );
});
