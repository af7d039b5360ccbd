import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ObjectMeta } from '../../apis/meta/v1/types.js';
import type { FlunderApplyConfiguration as V1alpha1Flunder } from '../../generated/applyconfigurations/wardle/v1alpha1/index.js';
import type { FlunderApplyConfiguration as V1beta1Flunder } from '../../generated/applyconfigurations/wardle/v1beta1/index.js';
import type { ConfigMapApplyConfiguration } from '../../generated/applyconfigurations/core/v1/index.js';
import type { ServiceSpecApplyConfiguration } from '../../generated/applyconfigurations/core/v1/types.js';
import type { CronTabApplyConfiguration } from '../../generated/applyconfigurations/stable/v1/index.js';
import type { Clientset } from '../../generated/clientset/index.js';
import type { ObjectMetaApplyConfiguration } from '../../runtime/client/index.js';

// Compile-time checks of the generated apply configurations and the typed apply verbs: `tsc
// --noEmit` (which covers test/) fails when a `@ts-expect-error` line stops being an error, so
// each one proves the types reject that wrong configuration. The functions are never called.

/** Every key of the hand-written ObjectMeta apply configuration is an ObjectMeta field. */
type Extra = Exclude<keyof ObjectMetaApplyConfiguration, keyof ObjectMeta>;
const noExtraMetaFields: [Extra] extends [never] ? true : false = true;

function flunders(cs: Clientset): void {
  const c = cs.wardleV1alpha1().flunders('ns');
  const ok: V1alpha1Flunder = { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'a', labels: { app: 'x' } }, spec: { reference: 'r' } };
  void c.apply(ok, { fieldManager: 'me', force: true, dryRun: true });
  void c.applyStatus({ ...ok, status: { conditions: [{ type: 'Ready', status: 'True' }] } }, { fieldManager: 'me' });
  // @ts-expect-error a field the kind does not have
  void c.apply({ ...ok, spec: { referenceTyp: 'Fischer' } }, { fieldManager: 'me' });
  // @ts-expect-error a value outside the enum
  void c.apply({ ...ok, spec: { referenceType: 'Nothing' } }, { fieldManager: 'me' });
  // @ts-expect-error v1beta1's field on the v1alpha1 client
  void c.apply({ ...ok, spec: { flunderReference: 'x' } }, { fieldManager: 'me' });
  // @ts-expect-error metadata.name is required
  void c.apply({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { namespace: 'ns' } }, { fieldManager: 'me' });
  // @ts-expect-error apiVersion is the version's literal
  void c.apply({ ...ok, apiVersion: 'wardle.example.com/v1beta1' }, { fieldManager: 'me' });
  // @ts-expect-error kind is the kind's literal
  void c.apply({ ...ok, kind: 'Fischer' }, { fieldManager: 'me' });
  // @ts-expect-error the field manager is required
  void c.apply(ok, { force: true });
  // @ts-expect-error a condition's status is True, False or Unknown
  void c.applyStatus({ ...ok, status: { conditions: [{ type: 'Ready', status: 'Yes' }] } }, { fieldManager: 'me' });
  const beta: V1beta1Flunder = { apiVersion: 'wardle.example.com/v1beta1', kind: 'Flunder', metadata: { name: 'b' }, spec: { flunderReference: 'x' } };
  void cs.wardleV1beta1().flunders('ns').apply(beta, { fieldManager: 'me' });
}

function builtIns(cs: Clientset): void {
  const cm: ConfigMapApplyConfiguration = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } };
  void cs.coreV1().configmaps('ns').apply(cm, { fieldManager: 'me' });
  const configmaps = cs.coreV1().configmaps('ns');
  // @ts-expect-error ConfigMap data values are strings
  void configmaps.apply({ ...cm, data: { a: 1 } }, { fieldManager: 'me' });
  // int-or-string ports take both; lists of named types are lists of their apply configurations
  const spec: ServiceSpecApplyConfiguration = {
    ports: [
      { port: 80, targetPort: 'http' },
      { port: 81, targetPort: 8081 },
    ],
  };
  // @ts-expect-error a port number is a number
  const badSpec: ServiceSpecApplyConfiguration = { ports: [{ port: '80' }] };
  void spec;
  void badSpec;
}

function crdKinds(cs: Clientset): void {
  const ct: CronTabApplyConfiguration = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 't' }, spec: { cronSpec: '* * * * *', replicas: 2 } };
  void cs.stableV1().crontabs('ns').apply(ct, { fieldManager: 'me' });
  const crontabs = cs.stableV1().crontabs('ns');
  // @ts-expect-error replicas is an integer field
  void crontabs.apply({ ...ct, spec: { replicas: 'two' } }, { fieldManager: 'me' });
}

test('apply configurations type-check (compile-time test; see the @ts-expect-error lines)', () => {
  assert.equal(noExtraMetaFields, true);
  assert.equal(typeof flunders, 'function');
  assert.equal(typeof builtIns, 'function');
  assert.equal(typeof crdKinds, 'function');
});
