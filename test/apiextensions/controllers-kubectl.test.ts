// The CRD controllers seen through the real kubectl, against the control plane command started
// as a user runs it (SQLite and etcd): the CronTab CRD applied, `kubectl wait` for Established,
// discovery (api-resources, short name), OpenAPI (explain, validated apply), and a delete that
// takes the custom resources with it. Skipped (with the reason) where kubectl is not installed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fails, ok } from '../integration/assertions.js';
import { describeBackends } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { Kubectl, kubectlUnavailable, squashLines } from '../integration/kubectl.js';

const CRONTAB_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              description: The schedule and what runs on it.
              properties:
                cronSpec:
                  type: string
                  description: The cron schedule.
                image:
                  type: string
                replicas:
                  type: integer
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames:
    - ct
`;

const CRONTAB = (name: string, extra = ''): string => `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: ${name}
spec:
  cronSpec: "* * * * */5"
  image: my-awesome-cron-image
${extra}`;

describe('the CRD controllers through kubectl', { skip: kubectlUnavailable() ?? false }, () => {
  describeBackends('CronTab CRD', (cp) => {
    let kc: Kubectl;
    let https: HttpsClient;
    before(() => {
      kc = new Kubectl(cp);
      https = new HttpsClient(cp().credentials);
    });
    after(() => {
      https.close();
      kc.dispose();
    });

    it('apply the CRD; kubectl wait --for=condition=Established returns', async () => {
      ok(await kc.run(['apply', '-f', '-'], { stdin: CRONTAB_CRD }), cp());
      const waited = ok(await kc.run(['wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', '--timeout=10s']), cp());
      assert.equal(waited, 'customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com condition met');
      const status = JSON.parse(ok(await kc.run(['get', 'crd', 'crontabs.stable.example.com', '-o', 'json']), cp())) as { status: { conditions: { type: string; status: string; reason: string }[] } };
      assert.deepEqual(
        status.status.conditions.map((c) => [c.type, c.status, c.reason]),
        [
          ['NamesAccepted', 'True', 'NoConflicts'],
          ['Established', 'True', 'InitialNamesAccepted'],
        ],
      );
    });

    it('api-resources lists crontabs with its short name; kubectl get ct works', async () => {
      const lines = squashLines(ok(await kc.run(['api-resources', '--api-group=stable.example.com']), cp()));
      assert.deepEqual(lines, ['NAME SHORTNAMES APIVERSION NAMESPACED KIND', 'crontabs ct stable.example.com/v1 true CronTab']);
      assert.equal(ok(await kc.run(['get', 'ct']), cp()), '');
      ok(await kc.run(['apply', '-f', '-'], { stdin: CRONTAB('my-new-cron-object') }), cp());
      const got = squashLines(ok(await kc.run(['get', 'ct']), cp()));
      assert.equal(got.length, 2);
      assert.match(got[1] ?? '', /^my-new-cron-object /);
      const one = ok(await kc.run(['get', 'crontab', 'my-new-cron-object', '-o', 'jsonpath={.spec.cronSpec}']), cp());
      assert.equal(one, '* * * * */5');
    });

    it('explain crontab.spec reads the schema from /openapi/v3', async () => {
      const out = ok(await kc.run(['explain', 'crontab.spec']), cp());
      assert.match(out, /GROUP:\s+stable\.example\.com/);
      assert.match(out, /KIND:\s+CronTab/);
      assert.match(out, /VERSION:\s+v1/);
      assert.match(out, /FIELD:\s+spec\s+<Object>/);
      assert.match(out, /The schedule and what runs on it\./);
      assert.match(out, /cronSpec\s+<string>/);
      assert.match(out, /The cron schedule\./);
      assert.match(out, /image\s+<string>/);
      assert.match(out, /replicas\s+<integer>/);
    });

    it('apply validates on the server (fieldValidation=Strict from the OpenAPI): an unknown field is refused', async () => {
      const r = await kc.run(['apply', '-f', '-'], { stdin: CRONTAB('strict', '  bogus: 1\n') });
      fails(r, /unknown field "spec\.bogus"/);
    });

    it('delete crd removes every CronTab with it; the resource type is gone from discovery', async () => {
      ok(await kc.run(['create', 'namespace', 'crontab-other']), cp());
      ok(await kc.run(['apply', '-n', 'crontab-other', '-f', '-'], { stdin: CRONTAB('elsewhere') }), cp());
      ok(await kc.run(['delete', 'crd', 'crontabs.stable.example.com', '--wait=true', '--timeout=30s']), cp());
      fails(await kc.run(['get', 'crd', 'crontabs.stable.example.com']), 'Error from server (NotFound): customresourcedefinitions.apiextensions.k8s.io "crontabs.stable.example.com" not found');
      // api-resources refreshes the discovery cache: the group is gone.
      const resources = squashLines(ok(await kc.run(['api-resources', '-o', 'name']), cp()));
      assert.ok(!resources.includes('crontabs.stable.example.com'), resources.join('\n'));
      fails(await kc.run(['get', 'ct']), /the server doesn't have a resource type "ct"/);
      // Created again, the CRD has no CronTab left from before.
      ok(await kc.run(['apply', '-f', '-'], { stdin: CRONTAB_CRD }), cp());
      ok(await kc.run(['wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', '--timeout=10s']), cp());
      const left = await https.json('GET', '/apis/stable.example.com/v1/crontabs');
      assert.equal(left.status, 200);
      assert.deepEqual(left.body['items'], []);
    });
  });
});
