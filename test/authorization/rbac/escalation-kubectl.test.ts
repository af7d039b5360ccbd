// Issue 14, escalation prevention end to end: the real kubectl, as token users of
// --token-auth-file, against the control plane command on SQLite and etcd (authorization mode
// RBAC, the default). A user may create a role or binding only with permissions they hold, or
// with `escalate` / `bind` granted; refusals are kube's 403 wording.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ok, until } from '../../integration/assertions.js';
import { describeBackends, type ControlPlane } from '../../integration/harness.js';
import { Kubectl, kubectlUnavailable, type KubectlResult } from '../../integration/kubectl.js';
import { uniqueName } from '../../integration/objects.js';

const noKubectl = kubectlUnavailable();
const dir = mkdtempSync(join(tmpdir(), 'rbac-escalation-'));
const tokenFile = join(dir, 'tokens.csv');
writeFileSync(tokenFile, 'alice-token,alice,uid-alice,"devs"\n');
process.once('exit', () => rmSync(dir, { recursive: true, force: true }));

/** A kubeconfig for a token user of the control plane (its server and CA, the token). */
function userKubeconfig(cp: ControlPlane, user: string, token: string): string {
  const path = join(dir, `${user}-${cp.port}.kubeconfig`);
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster: { server: cp.credentials.server, 'certificate-authority-data': Buffer.from(cp.credentials.caPEM).toString('base64') } }],
    users: [{ name: user, user: { token } }],
    contexts: [{ name: 'c', context: { cluster: 'c', user } }],
    'current-context': 'c',
  };
  writeFileSync(path, JSON.stringify(config));
  return path;
}

const GRANT_PREFIX = 'is attempting to grant RBAC permissions not currently held:';
const ALICE = 'user "alice" (groups=["devs" "system:authenticated"])';

describe('RBAC escalation prevention with kubectl', { skip: noKubectl ?? false }, () => {
  describeBackends(
    'escalation',
    (cp) => {
      let kc: Kubectl;
      let ns: string;
      let aliceConfig: string;
      before(async () => {
        kc = new Kubectl(cp);
        aliceConfig = userKubeconfig(cp(), 'alice', 'alice-token');
        ns = uniqueName('esc');
        ok(await kc.createNamespace(ns), cp());
        // alice may write roles and bindings in the namespace and read config maps there.
        ok(
          await kc.run([
            'create',
            'clusterrole',
            `${ns}-rbac-writer`,
            '--verb=get,list,watch,create,update,patch,delete',
            '--resource=roles.rbac.authorization.k8s.io,rolebindings.rbac.authorization.k8s.io',
          ]),
          cp(),
        );
        ok(await kc.run(['create', 'clusterrole', `${ns}-cm-reader`, '--verb=get,list', '--resource=configmaps']), cp());
        ok(await kc.run(['create', 'clusterrole', `${ns}-cm-deleter`, '--verb=delete', '--resource=configmaps']), cp());
        ok(await kc.run(['create', 'rolebinding', 'alice-rbac-writer', `--clusterrole=${ns}-rbac-writer`, '--user=alice', '-n', ns]), cp());
        ok(await kc.run(['create', 'rolebinding', 'alice-cm-reader', `--clusterrole=${ns}-cm-reader`, '--group=devs', '-n', ns]), cp());
      });
      after(() => kc.dispose());
      const asAlice = (args: string[]): Promise<KubectlResult> => kc.run(['--kubeconfig', aliceConfig, ...args]);
      /** Retries while the authorizer has not yet seen the bindings just written (its informers). */
      const eventuallyAllowed = (args: string[]): Promise<string> =>
        until(`alice: kubectl ${args.join(' ')}`, async () => {
          const r = await asAlice(args);
          if (r.code === 0) return r.stdout;
          if (/cannot (create|get|list|patch|update) resource/.test(r.stderr)) return undefined;
          assert.fail(`kubectl ${args.join(' ')}: ${r.stderr}`);
        });

      it('a role with only rules alice holds is created; one with more is 403 naming the missing rules', async () => {
        await eventuallyAllowed(['create', 'role', 'cm-reader', '--verb=get,list', '--resource=configmaps', '-n', ns]);
        const r = await asAlice(['create', 'role', 'cm-writer', '--verb=get,create,delete', '--resource=configmaps', '-n', ns]);
        assert.equal(r.code, 1, r.stdout);
        assert.equal(
          r.stderr.trim(),
          `Error from server (Forbidden): roles.rbac.authorization.k8s.io "cm-writer" is forbidden: ${ALICE} ${GRANT_PREFIX}\n{APIGroups:[""], Resources:["configmaps"], Verbs:["create" "delete"]}`,
        );
      });

      it('a binding to a role whose rules alice holds is created; to cluster-admin or a missing role it is refused', async () => {
        await eventuallyAllowed(['create', 'rolebinding', 'bob-cm-reader', '--role=cm-reader', '--user=bob', '-n', ns]);
        const admin = await asAlice(['create', 'rolebinding', 'bob-admin', '--clusterrole=cluster-admin', '--user=bob', '-n', ns]);
        assert.equal(admin.code, 1, admin.stdout);
        assert.match(admin.stderr, new RegExp(`rolebindings\\.rbac\\.authorization\\.k8s\\.io "bob-admin" is forbidden: ${escape(ALICE)} ${escape(GRANT_PREFIX)}\\n`));
        const missing = await asAlice(['create', 'rolebinding', 'bob-missing', '--role=no-such-role', '--user=bob', '-n', ns]);
        assert.equal(missing.code, 1, missing.stdout);
        assert.match(missing.stderr, /roles\.rbac\.authorization\.k8s\.io "no-such-role" not found/);
      });

      it('`bind` on a cluster role lets alice bind it without holding its rules', async () => {
        const refused = await asAlice(['create', 'rolebinding', 'bob-cm-deleter', `--clusterrole=${ns}-cm-deleter`, '--user=bob', '-n', ns]);
        assert.equal(refused.code, 1, refused.stdout);
        assert.match(refused.stderr, /is forbidden: .*is attempting to grant RBAC permissions not currently held:\n\{APIGroups:\[""\], Resources:\["configmaps"\], Verbs:\["delete"\]\}/);
        ok(await kc.run(['create', 'role', 'binder', '--verb=bind', '--resource=clusterroles.rbac.authorization.k8s.io', `--resource-name=${ns}-cm-deleter`, '-n', ns]), cp());
        ok(await kc.run(['create', 'rolebinding', 'alice-binder', '--role=binder', '--user=alice', '-n', ns]), cp());
        await until('bind takes effect', async () => {
          const r = await asAlice(['create', 'rolebinding', 'bob-cm-deleter', `--clusterrole=${ns}-cm-deleter`, '--user=bob', '-n', ns]);
          return r.code === 0 ? true : undefined;
        });
      });

      it('`escalate` on roles lets alice write a role with rules she does not hold', async () => {
        ok(await kc.run(['create', 'role', 'escalator', '--verb=escalate', '--resource=roles.rbac.authorization.k8s.io', '-n', ns]), cp());
        ok(await kc.run(['create', 'rolebinding', 'alice-escalator', '--role=escalator', '--user=alice', '-n', ns]), cp());
        await until('escalate takes effect', async () => {
          const r = await asAlice(['create', 'role', 'cm-writer', '--verb=get,create,delete', '--resource=configmaps', '-n', ns]);
          return r.code === 0 ? true : undefined;
        });
      });

      it('the admin (system:masters) may grant anything; a binding’s roleRef cannot change', async () => {
        ok(await kc.run(['create', 'rolebinding', 'anyone-admin', '--clusterrole=cluster-admin', '--user=carol', '-n', ns]), cp());
        const json = JSON.parse(ok(await kc.run(['get', 'rolebinding', 'anyone-admin', '-n', ns, '-o', 'json']), cp())) as { roleRef: Record<string, string> };
        json.roleRef['name'] = 'view';
        const r = await kc.run(['replace', '-f', '-'], { stdin: JSON.stringify(json) });
        assert.equal(r.code, 1, r.stdout);
        assert.match(r.stderr, /^The RoleBinding "anyone-admin" is invalid: roleRef: Invalid value: .*: cannot change roleRef$/m);
      });
    },
    { extraArgs: ['--token-auth-file', tokenFile] },
  );
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
