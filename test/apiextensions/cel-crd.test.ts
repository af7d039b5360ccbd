// Acceptance (issue 6): CEL validation rules of a CRD (x-kubernetes-validations) over HTTP
// against the control plane command: rule failures as kube-apiserver words them (message,
// messageExpression and its fallbacks, reason, fieldPath, runtime errors), transition rules
// with oldSelf (immutable fields, rules that only run on update), the cost limit stopping a
// rule over a big list, and CRDs whose rules do not compile refused when they are written.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeBackends } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';

type Obj = Record<string, unknown>;

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const PATH = '/apis/cel.example.com/v1/namespaces/default/crontabs';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };

const int = { type: 'integer' };
const str = { type: 'string' };

const SPEC_SCHEMA = {
  type: 'object',
  'x-kubernetes-validations': [
    { rule: '!has(self.minReplicas) || self.minReplicas <= self.replicas', message: 'replicas must be at least minReplicas', fieldPath: '.replicas' },
    {
      rule: '!has(self.maxReplicas) || self.replicas <= self.maxReplicas',
      messageExpression: "'replicas (' + string(self.replicas) + ') must not exceed maxReplicas (' + string(self.maxReplicas) + ')'",
    },
    { rule: "self.schedule != ''" },
    // A transition rule: only evaluated on update, against the stored object.
    { rule: 'self.replicas >= oldSelf.replicas || self.allowScaleDown', message: 'replicas may not decrease unless allowScaleDown is set', reason: 'FieldValueForbidden' },
  ],
  required: ['schedule', 'replicas'],
  properties: {
    schedule: str,
    replicas: int,
    minReplicas: int,
    maxReplicas: int,
    allowScaleDown: { type: 'boolean', default: false },
    image: { ...str, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'image is immutable' }] },
    mode: { ...str, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', messageExpression: "'mode is immutable: it was ' + oldSelf", reason: 'FieldValueForbidden' }] },
    tier: {
      ...str,
      'x-kubernetes-validations': [
        // An empty messageExpression falls back to the message; one that fails falls back too.
        { rule: "self != 'bronze'", message: 'bronze is not offered', messageExpression: "''" },
        { rule: "self != 'tin'", message: 'tin is not offered', messageExpression: "'tin: ' + string(1 / 0)" },
      ],
    },
    labels: { type: 'object', additionalProperties: str, 'x-kubernetes-validations': [{ rule: "self['team'] != ''", message: 'team must not be empty' }] },
    // maxItems keeps the rule's estimated cost under kube's static limit (kube refuses the CRD otherwise);
    // evaluated over 1000 items it still runs past the per-call limit.
    items: { type: 'array', maxItems: 1000, items: int, 'x-kubernetes-validations': [{ rule: 'self.all(x, self.all(y, x <= y || x > y))', message: 'items must be comparable' }] },
  },
};

function crd(name: string, specSchema: Obj): Obj {
  const [plural, ...group] = name.split('.');
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name },
    spec: {
      group: group.join('.'),
      scope: 'Namespaced',
      names: { plural, singular: plural?.replace(/s$/, ''), kind: 'CronTab' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: specSchema } } } }],
    },
  };
}

const cronTab = (name: string, spec: Obj): Obj => ({ apiVersion: 'cel.example.com/v1', kind: 'CronTab', metadata: { name }, spec: { schedule: '* * * * *', replicas: 2, ...spec } });
const causes = (body: Obj): string[] => ((body['details'] as { causes?: Array<{ field?: string; message?: string }> } | undefined)?.causes ?? []).map((c) => `${c.field ?? ''}: ${c.message ?? ''}`);

describeBackends(
  'CEL rules of a CRD',
  (cp) => {
    let c: HttpsClient;
    before(async () => {
      c = new HttpsClient(cp().credentials);
      const created = await c.json('POST', CRDS, crd('crontabs.cel.example.com', SPEC_SCHEMA));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const deadline = Date.now() + 30_000;
      // Until served, the path is the end of the chain's plain-text 404.
      while ((await c.request({ path: PATH })).status !== 200) {
        if (Date.now() > deadline) assert.fail('crontabs.cel.example.com never served');
        await new Promise((r) => setTimeout(r, 50));
      }
    });
    after(() => c.close());

    it('a failing rule is a 422: message, messageExpression, the default "failed rule", fieldPath, several at once', async () => {
      const r = await c.json('POST', PATH, cronTab('bad', { schedule: '', replicas: 5, minReplicas: 6, maxReplicas: 4 }));
      assert.equal(r.status, 422);
      assert.equal(r.body['reason'], 'Invalid');
      assert.deepEqual(causes(r.body), [
        'spec.replicas: Invalid value: "object": replicas must be at least minReplicas',
        'spec: Invalid value: "object": replicas (5) must not exceed maxReplicas (4)',
        'spec: Invalid value: "object": failed rule: self.schedule != \'\'',
      ]);
      assert.equal(
        r.body['message'],
        'CronTab.cel.example.com "bad" is invalid: [spec.replicas: Invalid value: "object": replicas must be at least minReplicas, spec: Invalid value: "object": replicas (5) must not exceed maxReplicas (4), spec: Invalid value: "object": failed rule: self.schedule != \'\']',
      );
      const one = await c.json('POST', PATH, cronTab('one', { replicas: 5, maxReplicas: 4 }));
      assert.equal(one.status, 422);
      assert.equal(one.body['message'], 'CronTab.cel.example.com "one" is invalid: spec: Invalid value: "object": replicas (5) must not exceed maxReplicas (4)');
      assert.deepEqual(one.body['details'], {
        name: 'one',
        group: 'cel.example.com',
        kind: 'CronTab',
        causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "object": replicas (5) must not exceed maxReplicas (4)', field: 'spec' }],
      });
    });

    it('a messageExpression that yields nothing or fails falls back to the message; a rule that fails to evaluate says so', async () => {
      const bronze = await c.json('POST', PATH, cronTab('bronze', { tier: 'bronze' }));
      assert.equal(bronze.status, 422);
      assert.deepEqual(causes(bronze.body), ['spec.tier: Invalid value: "string": bronze is not offered']);
      const tin = await c.json('POST', PATH, cronTab('tin', { tier: 'tin' }));
      assert.deepEqual(causes(tin.body), ['spec.tier: Invalid value: "string": tin is not offered']);
      const noKey = await c.json('POST', PATH, cronTab('no-key', { labels: { owner: 'x' } }));
      assert.equal(noKey.status, 422);
      assert.deepEqual(causes(noKey.body), ['spec.labels: Invalid value: "object": no such key: team evaluating rule: team must not be empty']);
      const fine = await c.json('POST', PATH, cronTab('fine', { tier: 'gold', labels: { team: 'a' } }));
      assert.equal(fine.status, 201, JSON.stringify(fine.body));
    });

    it('transition rules: oldSelf on update only; immutable fields (self == oldSelf) with message, messageExpression and reason', async () => {
      const created = await c.json('POST', PATH, cronTab('moving', { replicas: 3, image: 'a', mode: 'fast' }));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      // On create there is no oldSelf: a transition rule does not run, whatever the values.
      const image = await c.json('PATCH', `${PATH}/moving`, { spec: { image: 'b' } }, MERGE);
      assert.equal(image.status, 422);
      assert.equal(image.body['message'], 'CronTab.cel.example.com "moving" is invalid: spec.image: Invalid value: "string": image is immutable');
      const mode = await c.json('PATCH', `${PATH}/moving`, { spec: { mode: 'slow' } }, MERGE);
      assert.equal(mode.status, 422);
      assert.deepEqual(mode.body['details'], {
        name: 'moving',
        group: 'cel.example.com',
        kind: 'CronTab',
        causes: [{ reason: 'FieldValueForbidden', message: 'Forbidden: mode is immutable: it was fast', field: 'spec.mode' }],
      });
      const down = await c.json('PATCH', `${PATH}/moving`, { spec: { replicas: 1 } }, MERGE);
      assert.equal(down.status, 422);
      assert.equal(down.body['message'], 'CronTab.cel.example.com "moving" is invalid: spec: Forbidden: replicas may not decrease unless allowScaleDown is set');
      const allowed = await c.json('PATCH', `${PATH}/moving`, { spec: { replicas: 1, allowScaleDown: true } }, MERGE);
      assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
      const up = await c.json('PATCH', `${PATH}/moving`, { spec: { replicas: 4, allowScaleDown: false } }, MERGE);
      assert.equal(up.status, 200, JSON.stringify(up.body));
      // A value absent before has no oldSelf to compare with: setting it is allowed; changing it then is not.
      const fresh = await c.json('POST', PATH, cronTab('imageless', {}));
      assert.equal(fresh.status, 201);
      assert.equal((await c.json('PATCH', `${PATH}/imageless`, { spec: { image: 'first' } }, MERGE)).status, 200);
      assert.equal((await c.json('PATCH', `${PATH}/imageless`, { spec: { image: 'second' } }, MERGE)).status, 422);
      // PUT is checked against the stored object as PATCH is.
      const stored = (await c.json('GET', `${PATH}/moving`)).body;
      const put = await c.json('PUT', `${PATH}/moving`, { ...stored, spec: { ...(stored['spec'] as Obj), image: 'c' } });
      assert.equal(put.status, 422);
      assert.deepEqual(causes(put.body), ['spec.image: Invalid value: "string": image is immutable']);
      const unchanged = (await c.json('GET', `${PATH}/moving`)).body;
      assert.deepEqual(unchanged['spec'], { schedule: '* * * * *', replicas: 4, image: 'a', mode: 'fast', allowScaleDown: false });
    });

    it("the cost limit stops a rule over a big list: kube's message, no further rules, and the server keeps serving", async () => {
      const items = Array.from({ length: 1000 }, (_, i) => i);
      const started = Date.now();
      const r = await c.json('POST', PATH, cronTab('costly', { items, schedule: '' }));
      const tookMs = Date.now() - started;
      assert.equal(r.status, 422);
      // The rules of spec run before those of its fields (kube's order); then the items rule runs out of its
      // per-call budget, and no rule runs after it.
      assert.deepEqual(causes(r.body), [
        'spec: Invalid value: "object": failed rule: self.schedule != \'\'',
        'spec.items: Invalid value: "array": \'operation cancelled: actual cost limit exceeded\': no further validation rules will be run due to call cost exceeds limit for rule: items must be comparable',
      ]);
      // Quickly: the budget stops the evaluation long before the million comparisons the rule asks for (generous bound for a busy machine).
      assert.ok(tookMs < 20_000, `the request took ${tookMs} ms`);
      const small = await c.json('POST', PATH, cronTab('cheap', { items: [3, 1, 2] }));
      assert.equal(small.status, 201, JSON.stringify(small.body));
      assert.equal((await c.json('GET', `${PATH}/cheap`)).status, 200);
    });

    it("a CRD whose rule does not compile is refused when it is written, with the rule and the compiler's error", async () => {
      // What follows "compilation failed: " is cel-go v0.22.0's Issues.String() (ERROR: <input>:line:col: …,
      // the source line and a caret under the column; the three texts as a 1.32 kube-apiserver answers them).
      const rule = (src: string, rest = 'Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)'): string =>
        `Invalid value: apiextensions.ValidationRule{Rule:${JSON.stringify(src)}, ${rest}}: `;
      const at = 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0]';
      const escape = (t: string): string => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const cases: Array<[string, Obj, RegExp]> = [
        [
          'syntax',
          { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.replicas >' }], properties: { replicas: int } },
          new RegExp(
            `^${escape(`${at}.rule: ${rule('self.replicas >')}compilation failed: ERROR: <input>:1:16: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.replicas >\n | ...............^`)}$`,
          ),
        ],
        [
          'undefined field',
          { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.replicas > self.minimum' }], properties: { replicas: int } },
          new RegExp(
            `^${escape(`${at}.rule: ${rule('self.replicas > self.minimum')}compilation failed: ERROR: <input>:1:21: undefined field 'minimum'\n | self.replicas > self.minimum\n | ....................^`)}$`,
          ),
        ],
        [
          'no overload',
          { type: 'object', 'x-kubernetes-validations': [{ rule: 'size(self.replicas) > 0' }], properties: { replicas: int } },
          new RegExp(
            `^${escape(`${at}.rule: ${rule('size(self.replicas) > 0')}compilation failed: ERROR: <input>:1:5: found no matching overload for 'size' applied to '(int)'\n | size(self.replicas) > 0\n | ....^`)}$`,
          ),
        ],
        [
          'not a bool',
          { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.replicas + 1' }], properties: { replicas: int } },
          new RegExp(`^${escape(`${at}.rule: ${rule('self.replicas + 1')}cel expression must evaluate to a bool`)}$`),
        ],
        [
          'message expression',
          { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.replicas > 0', messageExpression: 'self.replicas' }], properties: { replicas: int } },
          new RegExp(
            `^${escape(`${at}.messageExpression: ${rule('self.replicas > 0', 'Message:"", MessageExpression:"self.replicas", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)')}messageExpression must evaluate to a string`)}$`,
          ),
        ],
      ];
      for (const [what, schema, cause] of cases) {
        const name = `${what.replace(/ /g, '')}s.rejected.example.com`.toLowerCase();
        const r = await c.json('POST', CRDS, crd(name, schema));
        assert.equal(r.status, 422, `${what}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body['reason'], 'Invalid');
        const all = causes(r.body);
        assert.equal(all.length, 1, `${what}: ${all.join('\n')}`);
        assert.match(all[0] ?? '', cause, what);
        assert.ok(String(r.body['message']).startsWith(`CustomResourceDefinition.apiextensions.k8s.io "${name}" is invalid: `), String(r.body['message']));
        assert.equal((await c.json('GET', `${CRDS}/${name}`)).status, 404, `${what}: nothing was stored`);
      }
    });
  },
  { only: ['sqlite'] },
);
