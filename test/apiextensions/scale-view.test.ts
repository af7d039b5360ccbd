// The /scale store of one CRD version reads and writes replicas in that version's objects (kube's
// per-version ScaleREST): here a version keeps its replicas at .spec.size while the stored (hub)
// objects keep them at .spec.replicas, and the conversion answers with promises, as a
// conversion webhook does. Over real storage (SQLite).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ScaleStore, type Store } from '../../runtime/registry/generic/index.js';
import type { KubeObject, UpdatedObjectInfo } from '../../runtime/registry/rest.js';
import { allow, ctx, fischer, newEnv, wardleGroup, withOverrides, write, type Env } from '../registry/helpers.js';

type Spec = Record<string, unknown>;

/** The version's view of hub objects: `.spec.replicas` there is `.spec.size` here. */
const sizeView = {
  fromHub: async (hub: KubeObject): Promise<KubeObject> => {
    const { replicas, ...rest } = (hub.spec ?? {}) as Spec;
    return { ...hub, spec: { ...rest, ...(replicas !== undefined ? { size: replicas } : {}) } };
  },
  toHub: async (obj: KubeObject): Promise<KubeObject> => {
    const { size, ...rest } = (obj.spec ?? {}) as Spec;
    return { ...obj, spec: { ...rest, ...(size !== undefined ? { replicas: size } : {}) } };
  },
};

const group = withOverrides(wardleGroup, 'Fischer', { subresources: { status: true } });

function scaleTo(replicas: number): UpdatedObjectInfo {
  return { preconditions: () => undefined, updatedObject: async (_c, old) => ({ ...old, spec: { replicas } }) as KubeObject };
}

describe("a CRD version's /scale through a conversion", () => {
  let env: Env;
  let main: Store;
  let scale: ScaleStore;
  before(async () => {
    env = await newEnv();
    main = (await env.storages(group, 'Fischer')).main;
    scale = new ScaleStore(main, { specReplicasPath: '.spec.size', statusReplicasPath: '.status.size' }, { versionView: sizeView });
  });
  after(async () => {
    await env.close();
  });

  test('GET reads the replicas of the object in the version', async () => {
    await main.create(ctx(''), { ...fischer('v1'), spec: { replicas: 3, image: 'x' } }, allow, write);
    const s = await scale.get(ctx(''), 'v1', { resourceVersion: '' });
    assert.deepEqual(s.spec, { replicas: 3 });
  });

  test('an update writes them back through the conversion; admission sees Scales of the version', async () => {
    const seen: unknown[] = [];
    const r = await scale.update(
      ctx(''),
      'v1',
      scaleTo(5),
      {
        create: allow,
        update: async (obj, old) => {
          seen.push([obj.kind, (obj.spec as Spec)['replicas'], (old?.spec as Spec)['replicas']]);
        },
      },
      { ...write, forceAllowCreate: false },
    );
    assert.deepEqual(r.object.spec, { replicas: 5 });
    assert.deepEqual(seen, [['Scale', 5, 3]]);
    const stored = await main.get(ctx(''), 'v1', { resourceVersion: '' });
    assert.deepEqual(stored.spec, { replicas: 5, image: 'x' });
  });
});
