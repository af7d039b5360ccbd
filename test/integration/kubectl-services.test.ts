// Issue 12: Services as kube-apiserver serves them, checked with the real kubectl against the
// control plane command on SQLite and etcd: cluster IPs from --service-cluster-ip-range, the
// Table kube prints, immutable cluster IPs, kube's per-field validation causes, the
// default/kubernetes Service, and the deletion conditions of a namespace stuck in Terminating.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fails, ok, until } from './assertions.js';
import { ControlPlane, describeBackends } from './harness.js';
import { Kubectl, kubectlUnavailable, squashLines } from './kubectl.js';
import { uniqueName } from './objects.js';

const noKubectl = kubectlUnavailable();
const RANGE = '10.96.0.0/26';
const AGE = '\\d+[smhd]';

interface ServiceJSON {
  metadata: { labels?: Record<string, string> };
  spec: Record<string, unknown> & { clusterIP?: string; clusterIPs?: string[] };
  status?: unknown;
}

describe('Services with kubectl', { skip: noKubectl ?? false }, () => {
  describeBackends(
    'services',
    (cp) => {
      let kc: Kubectl;
      before(() => {
        kc = new Kubectl(cp);
      });
      after(() => kc.dispose());
      const run = (args: string[], stdin?: string): ReturnType<Kubectl['run']> => kc.run(args, stdin === undefined ? {} : { stdin });
      const namespace = async (prefix: string): Promise<string> => {
        const ns = uniqueName(prefix);
        ok(await kc.createNamespace(ns), cp());
        return ns;
      };
      const getService = async (name: string, ns: string): Promise<ServiceJSON> => JSON.parse(ok(await run(['get', 'svc', name, '-n', ns, '-o', 'json']), cp())) as ServiceJSON;

      it('default/kubernetes: first IP of the range, https 443/TCP to the secure port, no selector, kube labels; Endpoints name this server', async () => {
        // The controller runs beside the server (readiness does not wait for it), as in kube.
        const lines = await until('the kubernetes Service', async () => {
          const r = await run(['get', 'svc', 'kubernetes']);
          return r.code === 0 ? squashLines(r.stdout) : undefined;
        });
        assert.equal(lines[0], 'NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE');
        assert.match(lines[1] ?? '', new RegExp(`^kubernetes ClusterIP 10\\.96\\.0\\.1 <none> 443/TCP ${AGE}$`));
        const svc = await getService('kubernetes', 'default');
        assert.deepEqual(svc.metadata.labels, { component: 'apiserver', provider: 'kubernetes' });
        assert.deepEqual(svc.spec['ports'], [{ name: 'https', port: 443, protocol: 'TCP', targetPort: cp().port }]);
        assert.equal(svc.spec['selector'], undefined);
        assert.deepEqual(svc.spec.clusterIPs, ['10.96.0.1']);
        const ep = JSON.parse(
          await until('the kubernetes Endpoints', async () => {
            const r = await run(['get', 'endpoints', 'kubernetes', '-o', 'json']);
            return r.code === 0 ? r.stdout : undefined;
          }),
        ) as { subsets: Array<{ addresses: Array<{ ip: string }>; ports: unknown[] }> };
        assert.equal(ep.subsets.length, 1);
        assert.equal(ep.subsets[0]?.addresses.length, 1);
        assert.deepEqual(ep.subsets[0]?.ports, [{ name: 'https', port: cp().port, protocol: 'TCP' }]);
      });

      it('create service clusterip: an IP from the range with clusterIPs, ipFamilies, ipFamilyPolicy and kube defaults; the Table and -o wide as kube prints them', async () => {
        const ns = await namespace('svc');
        assert.equal(ok(await run(['create', 'service', 'clusterip', 'demo', '--tcp=80:8080', '--tcp=443:8443', '-n', ns]), cp()), 'service/demo created');
        const svc = await getService('demo', ns);
        const ip = svc.spec.clusterIP ?? '';
        assert.match(ip, /^10\.96\.0\.([2-9]|[1-5]\d|6[0-2])$/);
        assert.deepEqual(svc.spec.clusterIPs, [ip]);
        assert.deepEqual(svc.spec['ipFamilies'], ['IPv4']);
        assert.equal(svc.spec['ipFamilyPolicy'], 'SingleStack');
        assert.equal(svc.spec['sessionAffinity'], 'None');
        assert.equal(svc.spec['internalTrafficPolicy'], 'Cluster');
        assert.equal(svc.spec['type'], 'ClusterIP');
        assert.deepEqual(svc.status, { loadBalancer: {} });
        const table = squashLines(ok(await run(['get', 'svc', '-n', ns]), cp()));
        assert.equal(table[0], 'NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE');
        assert.match(table[1] ?? '', new RegExp(`^demo ClusterIP ${ip.replace(/\./g, '\\.')} <none> 80/TCP,443/TCP ${AGE}$`));
        const wide = squashLines(ok(await run(['get', 'svc', '-n', ns, '-o', 'wide']), cp()));
        assert.equal(wide[0], 'NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE SELECTOR');
        assert.match(wide[1] ?? '', new RegExp(`^demo ClusterIP ${ip.replace(/\./g, '\\.')} <none> 80/TCP,443/TCP ${AGE} app=demo$`));
      });

      it('NodePort prints 80:30080/TCP; headless prints None; ExternalName gets no IP and prints its name; no selector prints <none>', async () => {
        const ns = await namespace('svcs');
        ok(await run(['create', 'service', 'nodeport', 'np', '--tcp=80:8080', '--node-port=30080', '-n', ns]), cp());
        ok(await run(['create', 'service', 'clusterip', 'hl', '--clusterip=None', '-n', ns]), cp());
        ok(await run(['create', 'service', 'externalname', 'ext', '--external-name=example.com', '-n', ns]), cp());
        const rows = squashLines(ok(await run(['get', 'svc', '-n', ns, '-o', 'wide']), cp())).slice(1);
        assert.match(rows[0] ?? '', new RegExp(`^ext ExternalName <none> example\\.com <none> ${AGE} app=ext$`));
        assert.match(rows[1] ?? '', new RegExp(`^hl ClusterIP None <none> <none> ${AGE} app=hl$`));
        assert.match(rows[2] ?? '', new RegExp(`^np NodePort 10\\.96\\.0\\.\\d+ <none> 80:30080/TCP ${AGE} app=np$`));
        const ext = await getService('ext', ns);
        assert.equal(ext.spec.clusterIP, undefined);
        assert.equal(ext.spec['ipFamilies'], undefined);
        const hl = await getService('hl', ns);
        assert.deepEqual(hl.spec.clusterIPs, ['None']);
      });

      it('clusterIP and clusterIPs cannot be changed (422 may not change once set); other updates keep them', async () => {
        const ns = await namespace('imm');
        ok(await run(['create', 'service', 'clusterip', 'fixed', '--tcp=80', '-n', ns]), cp());
        const before = (await getService('fixed', ns)).spec.clusterIP;
        const [a, b] = ['10.96.0.58', '10.96.0.59', '10.96.0.60'].filter((ip) => ip !== before);
        fails(
          await run(['patch', 'svc', 'fixed', '-n', ns, '-p', `{"spec":{"clusterIP":"${a}"}}`]),
          `The Service "fixed" is invalid: spec.clusterIPs[0]: Invalid value: []string{"${a}"}: may not change once set`,
        );
        fails(
          await run(['patch', 'svc', 'fixed', '-n', ns, '--type=merge', '-p', `{"spec":{"clusterIP":"${b}","clusterIPs":["${b}"]}}`]),
          `The Service "fixed" is invalid: spec.clusterIPs[0]: Invalid value: []string{"${b}"}: may not change once set`,
        );
        ok(await run(['label', 'svc', 'fixed', '-n', ns, 'tier=web']), cp());
        // A PUT that leaves the cluster IPs out keeps them (kube's patchAllocatedValues).
        const svc = await getService('fixed', ns);
        delete svc.spec.clusterIP;
        delete svc.spec.clusterIPs;
        ok(await run(['replace', '-f', '-'], JSON.stringify(svc)), cp());
        assert.equal((await getService('fixed', ns)).spec.clusterIP, before);
      });

      it('a requested IP: taken → 422 already allocated; outside the range → 422 with the range; released on delete and reusable', async () => {
        const ns = await namespace('req');
        fails(
          await run(['create', 'service', 'clusterip', 'taken', '--tcp=80', '--clusterip=10.96.0.1', '-n', ns]),
          'error: failed to create ClusterIP service: Service "taken" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.1"}: failed to allocate IP 10.96.0.1: provided IP is already allocated',
        );
        fails(
          await run(['create', 'service', 'clusterip', 'away', '--tcp=80', '--clusterip=1.1.1.1', '-n', ns]),
          `error: failed to create ClusterIP service: Service "away" is invalid: spec.clusterIPs: Invalid value: []string{"1.1.1.1"}: failed to allocate IP 1.1.1.1: the provided IP (1.1.1.1) is not in the valid range. The range of valid IPs is ${RANGE}`,
        );
        ok(await run(['create', 'service', 'clusterip', 'first', '--tcp=80', '--clusterip=10.96.0.3', '-n', ns]), cp());
        fails(
          await run(['create', 'service', 'clusterip', 'second', '--tcp=80', '--clusterip=10.96.0.3', '-n', ns]),
          'error: failed to create ClusterIP service: Service "second" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.3"}: failed to allocate IP 10.96.0.3: provided IP is already allocated',
        );
        ok(await run(['delete', 'svc', 'first', '-n', ns]), cp());
        ok(await run(['create', 'service', 'clusterip', 'second', '--tcp=80', '--clusterip=10.96.0.3', '-n', ns]), cp());
        assert.equal((await getService('second', ns)).spec.clusterIP, '10.96.0.3');
      });

      it("twelve concurrent creates never share an IP; a deleted Service's allocated IP can be requested again", async () => {
        const ns = await namespace('conc');
        const names = Array.from({ length: 12 }, (_, i) => `c${i}`);
        const results = await Promise.all(names.map((n) => run(['create', 'service', 'clusterip', n, '--tcp=80', '-n', ns])));
        for (const r of results) ok(r, cp());
        const list = JSON.parse(ok(await run(['get', 'svc', '-n', ns, '-o', 'json']), cp())) as { items: ServiceJSON[] };
        const ips = list.items.map((s) => s.spec.clusterIP ?? '');
        assert.equal(ips.length, 12);
        assert.equal(new Set(ips).size, 12, `shared IPs: ${ips.join(' ')}`);
        const freed = ips[0] as string;
        ok(await run(['delete', 'svc', 'c0', '-n', ns]), cp());
        ok(await run(['create', 'service', 'clusterip', 'again', '--tcp=80', `--clusterip=${freed}`, '-n', ns]), cp());
      });

      it('node ports: allocated from 30000-32767, requested ones checked in kube words, released when the type no longer needs them', async () => {
        const ns = await namespace('np');
        ok(await run(['create', 'service', 'nodeport', 'auto', '--tcp=80:8080', '--tcp=81:8081', '-n', ns]), cp());
        const auto = await getService('auto', ns);
        const ports = (auto.spec['ports'] as Array<{ nodePort: number }>).map((p) => p.nodePort);
        assert.ok(ports.every((p) => p >= 30000 && p <= 32767) && ports[0] !== ports[1], `node ports ${ports.join(',')}`);
        assert.match(squashLines(ok(await run(['get', 'svc', 'auto', '-n', ns]), cp()))[1] ?? '', new RegExp(`^auto NodePort \\S+ <none> 80:${ports[0]}/TCP,81:${ports[1]}/TCP ${AGE}$`));
        ok(await run(['create', 'service', 'nodeport', 'fixed', '--tcp=80:8080', '--node-port=30555', '-n', ns]), cp());
        fails(
          await run(['create', 'service', 'nodeport', 'again', '--tcp=80:8080', '--node-port=30555', '-n', ns]),
          'error: failed to create NodePort service: Service "again" is invalid: spec.ports[0].nodePort: Invalid value: 30555: provided port is already allocated',
        );
        fails(
          await run(['create', 'service', 'nodeport', 'low', '--tcp=80:8080', '--node-port=20080', '-n', ns]),
          'error: failed to create NodePort service: Service "low" is invalid: spec.ports[0].nodePort: Invalid value: 20080: provided port is not in the valid range. The range of valid ports is 30000-32767',
        );
        // NodePort → ClusterIP drops the node ports the client left as they were, and releases them.
        ok(await run(['patch', 'svc', 'fixed', '-n', ns, '-p', '{"spec":{"type":"ClusterIP"}}']), cp());
        assert.equal(((await getService('fixed', ns)).spec['ports'] as Array<{ nodePort?: number }>)[0]?.nodePort, undefined);
        ok(await run(['create', 'service', 'nodeport', 'again', '--tcp=80:8080', '--node-port=30555', '-n', ns]), cp());
        // ClusterIP → ExternalName gives the cluster IP back; and back again a new one is allocated.
        const ip = (await getService('fixed', ns)).spec.clusterIP ?? '';
        ok(await run(['patch', 'svc', 'fixed', '-n', ns, '-p', '{"spec":{"type":"ExternalName","externalName":"example.com"}}']), cp());
        const ext = await getService('fixed', ns);
        assert.equal(ext.spec.clusterIP, undefined);
        assert.equal(ext.spec['ipFamilies'], undefined);
        ok(await run(['create', 'service', 'clusterip', 'reuse', '--tcp=80', `--clusterip=${ip}`, '-n', ns]), cp());
        ok(await run(['patch', 'svc', 'fixed', '-n', ns, '-p', '{"spec":{"type":"ClusterIP"}}']), cp());
        assert.match((await getService('fixed', ns)).spec.clusterIP ?? '', /^10\.96\.0\.\d+$/);
      });

      it('deleting a namespace releases the cluster IPs and node ports of its Services', async () => {
        const ns = await namespace('gone');
        ok(await run(['create', 'service', 'clusterip', 's', '--tcp=80', '--clusterip=10.96.0.7', '-n', ns]), cp());
        ok(await run(['create', 'service', 'nodeport', 'n', '--tcp=80', '--node-port=30777', '-n', ns]), cp());
        ok(await run(['delete', 'namespace', ns]), cp());
        const other = await namespace('after');
        ok(await run(['create', 'service', 'clusterip', 's', '--tcp=80', '--clusterip=10.96.0.7', '-n', other]), cp());
        ok(await run(['create', 'service', 'nodeport', 'n', '--tcp=80', '--node-port=30777', '-n', other]), cp());
      });

      it('validation: one cause per field, in kube words', async () => {
        const ns = await namespace('val');
        const manifest = {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'bad', namespace: ns },
          spec: { ports: [{ port: 70000 }, { port: 80, protocol: 'FOO', targetPort: 'x--y' }, { name: 'a', port: 443 }, { name: 'a', port: 443 }] },
        };
        fails(
          await run(['create', '-f', '-'], JSON.stringify(manifest)),
          [
            'The Service "bad" is invalid: ',
            '* spec.ports[0].name: Required value',
            '* spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
            '* spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
            '* spec.ports[1].name: Required value',
            '* spec.ports[1].protocol: Unsupported value: "FOO": supported values: "SCTP", "TCP", "UDP"',
            '* spec.ports[1].targetPort: Invalid value: "x--y": must not contain consecutive hyphens',
            '* spec.ports[3].name: Duplicate value: "a"',
            '* spec.ports[3]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:443, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
          ].join('\n'),
        );
        // kube lists a set's supported values sorted (ValidateService's sets.List).
        const badType = { ...manifest, metadata: { name: 'type', namespace: ns }, spec: { type: 'Foo', ports: [{ port: 80 }] } };
        fails(
          await run(['create', '-f', '-'], JSON.stringify(badType)),
          'The Service "type" is invalid: spec.type: Unsupported value: "Foo": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
        );
        const oneCause = { ...manifest, metadata: { name: 'one', namespace: ns }, spec: { ports: [{ port: 80, nodePort: 30001 }] } };
        fails(await run(['create', '-f', '-'], JSON.stringify(oneCause)), 'The Service "one" is invalid: spec.ports[0].nodePort: Forbidden: may not be used when `type` is \'ClusterIP\'');
        // Nothing of the refused Services was allocated.
        const used = JSON.parse(ok(await run(['get', 'svc', '-A', '-o', 'json']), cp())) as { items: ServiceJSON[] };
        assert.ok(used.items.every((s) => s.metadata.labels?.['app'] !== 'bad'));
      });

      it("a namespace held by a finalizer stays Terminating with kube's conditions saying what is left", async () => {
        const ns = await namespace('term');
        const flunder = { apiVersion: 'wardle.example.com/v1beta1', kind: 'Flunder', metadata: { name: 'held', namespace: ns, finalizers: ['example.com/x'] }, spec: {} };
        ok(await run(['create', '-f', '-'], JSON.stringify(flunder)), cp());
        ok(await run(['delete', 'namespace', ns, '--wait=false']), cp());
        type Condition = { type: string; status: string; reason: string; message: string };
        const conditions = await until(
          'the namespace conditions',
          async () => {
            const got = JSON.parse(ok(await run(['get', 'namespace', ns, '-o', 'json']), cp())) as { status: { phase: string; conditions?: Condition[] } };
            const cs = got.status.conditions ?? [];
            return cs.some((c) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True') ? { phase: got.status.phase, cs } : undefined;
          },
          60_000,
        );
        assert.equal(conditions.phase, 'Terminating');
        assert.deepEqual(
          conditions.cs.map((c) => `${c.type} ${c.status} ${c.reason}: ${c.message}`),
          [
            'NamespaceDeletionDiscoveryFailure False ResourcesDiscovered: All resources successfully discovered',
            'NamespaceDeletionGroupVersionParsingFailure False ParsedGroupVersions: All legacy kube types successfully parsed',
            'NamespaceDeletionContentFailure False ContentDeleted: All content successfully deleted, may be waiting on finalization',
            'NamespaceContentRemaining True SomeResourcesRemain: Some resources are remaining: flunders.wardle.example.com has 1 resource instances',
            'NamespaceFinalizersRemaining True SomeFinalizersRemain: Some content in the namespace has finalizers remaining: example.com/x in 1 resource instances',
          ],
        );
        ok(await run(['patch', 'flunder', 'held', '-n', ns, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']), cp());
        await until('the namespace to go', async () => ((await run(['get', 'namespace', ns])).code === 1 ? true : undefined), 60_000);
      });
    },
    { extraArgs: ['--service-cluster-ip-range', RANGE] },
  );

  describe('cluster IPs survive a restart (SQLite)', () => {
    let cp: ControlPlane | undefined;
    let kc: Kubectl;
    before(async () => {
      cp = await ControlPlane.start({ backend: 'sqlite', extraArgs: ['--service-cluster-ip-range', RANGE] });
      kc = new Kubectl(() => cp as ControlPlane);
    });
    after(async () => {
      kc.dispose();
      await cp?.stop();
    });

    it('an IP allocated before the restart is still allocated after it', async () => {
      const current = (): ControlPlane => cp as ControlPlane;
      ok(await kc.run(['create', 'service', 'clusterip', 'kept', '--tcp=80']), current());
      const ip = ok(await kc.run(['get', 'svc', 'kept', '-o', 'jsonpath={.spec.clusterIP}']), current());
      cp = await current().restart();
      fails(
        await kc.run(['create', 'service', 'clusterip', 'other', '--tcp=80', `--clusterip=${ip}`]),
        `error: failed to create ClusterIP service: Service "other" is invalid: spec.clusterIPs: Invalid value: []string{"${ip}"}: failed to allocate IP ${ip}: provided IP is already allocated`,
      );
      assert.match(ok(await kc.run(['get', 'svc', 'kubernetes', '-o', 'jsonpath={.spec.clusterIP}']), current()), /^10\.96\.0\.1$/);
    });
  });
});
