// The group seam: what a group declares (admission plugins, REST overrides, its server) is
// installed generically by the control plane, with no group named in the runtime. The group
// here is wardle's generated definition with a declaration of the test's own in place of
// apis/wardle/group.ts, so nothing but the declaration can explain what the server does.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Fischer } from '../../apis/wardle/v1alpha1/types.js';
import type { Flunder } from '../../apis/wardle/v1beta1/types.js';
import { Clientset } from '../../generated/clientset/index.js';
import { apiGroups } from '../../generated/index.js';
import { wardleGroup } from '../../generated/registry/wardle.js';
import type { Attributes, Operation, ValidationInterface } from '../../runtime/admission/types.js';
import { completeAggregatedOptions } from '../../runtime/aggregated/options.js';
import { startAggregatedServer, type AggregatedServer } from '../../runtime/aggregated/server.js';
import { newForbidden } from '../../runtime/apimachinery/errors/index.js';
import { bodyMediaTypes } from '../../runtime/apimachinery/serializer/body.js';
import type { ProtobufPackage } from '../../runtime/apimachinery/serializer/protobuf/descriptor.js';
import { ensurePKI } from '../../runtime/controlplane/certs.js';
import { startControlPlane, type ControlPlane } from '../../runtime/controlplane/controlplane.js';
import { BUILTIN_GROUPS, withBuiltinGroups } from '../../runtime/controlplane/groups.js';
import { withDelete } from '../../runtime/registry/rest.js';
import type { APIGroupDefinition } from '../../runtime/registry/types.js';
import { asStatus, HttpsClient } from '../integration/https.js';

const GROUP = wardleGroup.name;
const REFUSED_NAME = 'refused-by-declaration';

/** What the declaration's plugin saw: proof it runs, built once per server. */
const admitted: string[] = [];
let pluginsBuilt = 0;

function seamPlugin(): ValidationInterface {
  pluginsBuilt++;
  return {
    name: 'SeamTest',
    handles: (op: Operation) => op === 'CREATE',
    async validate(a: Attributes): Promise<void> {
      if (a.group !== GROUP) return;
      admitted.push(`${a.kind}/${a.name}`);
      if (a.name === REFUSED_NAME) throw newForbidden({ group: a.group, resource: a.resource }, a.name, "refused by the test group's declared plugin");
    },
  };
}

/** Protobuf messages of the test group's preferred version: only what a Flunder envelope needs. */
const PROTOBUF: ProtobufPackage = {
  apiVersion: `${GROUP}/v1beta1`,
  messages: [{ name: 'com.example.wardle.v1beta1.Flunder', kind: 'Flunder', fields: [{ name: 'metadata', number: 1, type: 'message', message: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }] }],
};

const testGroup: APIGroupDefinition = {
  ...wardleGroup,
  versions: wardleGroup.versions.map((v) => (v.name === 'v1beta1' ? { ...v, protobuf: PROTOBUF } : v)),
  declaration: {
    admissionPlugins: [() => seamPlugin()],
    rest: {
      // A Fischer cannot be deleted: the generic store's delete is replaced.
      Fischer: ({ storages, group, kind }) => ({
        storages: withDelete(storages, async (_ctx, name) => {
          throw newForbidden({ group, resource: 'fischers' }, name, `${kind} storage of the test group keeps every object`);
        }),
      }),
    },
  },
};

describe('the group seam: a declared group is installed generically', () => {
  let dir: string;
  let cp: ControlPlane;
  let cs: Clientset;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'seam-'));
    cp = await startControlPlane({ dataDir: dir, securePort: 0, bindAddress: '127.0.0.1', groups: [testGroup] });
    cs = new Clientset(cp.loopback);
  });
  after(async () => {
    await cp?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the built-in groups are served without being given', async () => {
    const ns = await cs
      .coreV1()
      .namespaces()
      .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'seam' } });
    assert.equal(ns.metadata?.name, 'seam');
    assert.ok((await cs.apiextensionsV1().customresourcedefinitions().list()).items !== undefined);
  });

  test("the declared admission plugin runs on the group's writes, and refuses what it refuses", async () => {
    assert.equal(pluginsBuilt, 1, "built once, for the control plane's one admission chain");
    const flunders = cs.wardleV1beta1().flunders('seam');
    await flunders.create({ apiVersion: `${GROUP}/v1beta1`, kind: 'Flunder', metadata: { name: 'allowed' } } satisfies Flunder);
    await assert.rejects(
      flunders.create({ apiVersion: `${GROUP}/v1beta1`, kind: 'Flunder', metadata: { name: REFUSED_NAME } } satisfies Flunder),
      /flunders\.wardle\.example\.com "refused-by-declaration" is forbidden: refused by the test group's declared plugin/,
    );
    assert.deepEqual(admitted, ['Flunder/allowed', `Flunder/${REFUSED_NAME}`]);
  });

  test("only declared plugins run: without apis/wardle/group.ts's BanFlunder, a banned name is accepted", async () => {
    await cs
      .wardleV1alpha1()
      .fischers()
      .create({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Fischer', metadata: { name: 'banning' }, disallowedFlunders: ['banned'] } satisfies Fischer);
    const created = await cs
      .wardleV1beta1()
      .flunders('seam')
      .create({ apiVersion: `${GROUP}/v1beta1`, kind: 'Flunder', metadata: { name: 'banned' } } satisfies Flunder);
    assert.equal(created.metadata?.name, 'banned');
  });

  test("a version's protobuf messages reach the decoder when the group is installed", () => {
    assert.deepEqual(bodyMediaTypes({ apiVersion: `${GROUP}/v1beta1`, kind: 'Flunder' }), ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']);
    assert.deepEqual(bodyMediaTypes({ apiVersion: `${GROUP}/v1alpha1`, kind: 'Flunder' }), ['application/json', 'application/yaml']);
  });

  test('the declared REST override serves the kind in place of the generic store', async () => {
    await assert.rejects(cs.wardleV1alpha1().fischers().delete('banning'), /fischers\.wardle\.example\.com "banning" is forbidden: Fischer storage of the test group keeps every object/);
    assert.equal((await cs.wardleV1alpha1().fischers().get('banning')).metadata?.name, 'banning');
  });
});

describe('the group seam: which server serves a group', () => {
  test('a group declared `aggregated` is left to its aggregated server: the control plane does not serve it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seam-aggregated-'));
    const cp = await startControlPlane({ dataDir: dir, securePort: 0, bindAddress: '127.0.0.1', groups: [{ ...wardleGroup, declaration: { server: 'aggregated' } }] });
    try {
      await assert.rejects(new Clientset(cp.loopback).wardleV1beta1().flunders('default').list(), /the server could not find the requested resource/);
    } finally {
      await cp.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the built-in groups come first; the same definition given twice is one group, two definitions of one name an error', () => {
    const names = (groups: readonly APIGroupDefinition[]): string[] => groups.map((g) => g.name);
    assert.deepEqual(names(withBuiltinGroups([])), names(BUILTIN_GROUPS));
    const installed = withBuiltinGroups([...apiGroups, ...apiGroups]);
    assert.deepEqual(names(installed), [
      '',
      'apiextensions.k8s.io',
      'apiregistration.k8s.io',
      'rbac.authorization.k8s.io',
      'authentication.k8s.io',
      'authorization.k8s.io',
      'coordination.k8s.io',
      'events.k8s.io',
      GROUP,
    ]);
    assert.ok(installed.every((g, i) => i >= BUILTIN_GROUPS.length || g === BUILTIN_GROUPS[i]));
    assert.throws(() => withBuiltinGroups([...apiGroups, testGroup]), new RegExp(`^Error: group "${GROUP.replaceAll('.', '\\.')}" is defined twice$`));
    assert.throws(() => withBuiltinGroups([{ ...BUILTIN_GROUPS[0]! }]), /^Error: the core group is defined twice \(it is built in: a project cannot define it again\)$/);
  });

  test("a standalone aggregated server serves the given groups but the control plane's own, by default", () => {
    assert.deepEqual(
      completeAggregatedOptions({}, apiGroups).groups.map((g) => g.name),
      [GROUP],
    );
    assert.throws(() => completeAggregatedOptions({}, BUILTIN_GROUPS), /no group to serve: the server was given none but the control plane's own/);
    assert.throws(() => completeAggregatedOptions({ groups: [''] }, apiGroups), /--groups: "" is not a group of apis\/ a standalone server can serve \(available: wardle\.example\.com\)/);
  });
});

describe('the group seam: a standalone aggregated server installs the same declaration', () => {
  let dir: string;
  let server: AggregatedServer;
  let https: HttpsClient;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'seam-aggregated-server-'));
    // Only its front-proxy CA is needed: a control plane's PKI, made without the control plane.
    await ensurePKI(join(dir, 'cp'), { hosts: ['127.0.0.1'] });
    server = await startAggregatedServer([...apiGroups.filter((g) => g.name !== GROUP), testGroup], {
      dataDir: join(dir, 'aggregated'),
      securePort: 0,
      requestheaderClientCAFile: join(dir, 'cp', 'pki', 'front-proxy-ca.crt'),
      anonymousAuth: true,
    });
    https = new HttpsClient({ server: server.url, caPEM: server.servingCA!.certPEM }, { anonymous: true });
  });
  after(async () => {
    https?.close();
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const send = (method: string, path: string, body?: unknown) =>
    https.request({ method, path, ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }) });

  test("it serves the given group but the control plane's own, with the declared plugin and REST override", async () => {
    assert.deepEqual(server.groups, [GROUP]);
    const flunders = `/apis/${GROUP}/v1beta1/namespaces/default/flunders`;
    assert.equal((await send('POST', flunders, { apiVersion: `${GROUP}/v1beta1`, kind: 'Flunder', metadata: { name: 'allowed' } })).status, 201);
    const refused = await send('POST', flunders, { apiVersion: `${GROUP}/v1beta1`, kind: 'Flunder', metadata: { name: REFUSED_NAME } });
    assert.equal(refused.status, 403);
    assert.equal(asStatus(refused.text).message, `flunders.${GROUP} "${REFUSED_NAME}" is forbidden: refused by the test group's declared plugin`);
    const fischers = `/apis/${GROUP}/v1alpha1/fischers`;
    assert.equal((await send('POST', fischers, { apiVersion: `${GROUP}/v1alpha1`, kind: 'Fischer', metadata: { name: 'kept' } })).status, 201);
    const deleted = await send('DELETE', `${fischers}/kept`);
    assert.equal(deleted.status, 403);
    assert.equal(asStatus(deleted.text).message, `fischers.${GROUP} "kept" is forbidden: Fischer storage of the test group keeps every object`);
  });
});
