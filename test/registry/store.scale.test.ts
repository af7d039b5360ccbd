import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeObject, UpdatedObjectInfo } from '../../runtime/registry/rest.js';
import { allow, allowBoth, ctx, fischer, newEnv, statusIs, wardleGroup, withOverrides, write, type Env } from './helpers.js';

// Fischer with a scale subresource: the store is configured by data, so any kind can have one.
const scaled = withOverrides(wardleGroup, 'Fischer', {
  subresources: { status: true, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
});
const update = { ...write, forceAllowCreate: false };

function scaleTo(replicas: number, resourceVersion?: string): UpdatedObjectInfo {
  return {
    preconditions: () => undefined,
    updatedObject: async (_c, old) => ({ ...old, spec: { replicas }, ...(resourceVersion ? { metadata: { ...old?.metadata, resourceVersion } } : {}) }) as KubeObject,
  };
}

describe('generic Store: scale subresource', () => {
  let env: Env;
  before(async () => {
    env = await newEnv();
  });
  after(async () => {
    await env.close();
  });

  test('GET builds an autoscaling/v1 Scale from the object; a missing spec path is a 500', async () => {
    const { main, status, scale } = await env.storages(scaled, 'Fischer');
    assert.ok(scale && status);
    const created = await main.create(ctx(''), { ...fischer('s1'), spec: { replicas: 3 } }, allow, write);
    await status.update(ctx(''), 's1', { preconditions: () => undefined, updatedObject: async (_c, old) => ({ ...old, status: { replicas: 2, selector: 'app=x' } }) as KubeObject }, allowBoth, update);
    const s = await scale.get(ctx(''), 's1', { resourceVersion: '' });
    assert.deepEqual(s, {
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: {
        name: 's1',
        uid: created.metadata?.uid,
        resourceVersion: s.metadata?.resourceVersion,
        creationTimestamp: created.metadata?.creationTimestamp,
      },
      spec: { replicas: 3 },
      status: { replicas: 2, selector: 'app=x' },
    });
    await main.create(ctx(''), fischer('s2'), allow, write);
    await assert.rejects(scale.get(ctx(''), 's2', { resourceVersion: '' }), statusIs(500, 'Internal error occurred: the spec replicas field ".spec.replicas" does not exist', 'InternalError'));
  });

  test('updates write the spec path with the Scale resourceVersion as precondition; admission sees Scales', async () => {
    const { main, scale } = await env.storages(scaled, 'Fischer');
    assert.ok(scale);
    const created = await main.create(ctx(''), { ...fischer('s3'), spec: { replicas: 1 } }, allow, write);
    const seen: unknown[] = [];
    const r = await scale.update(
      ctx(''),
      's3',
      scaleTo(5),
      {
        create: allow,
        update: async (obj, old) => {
          seen.push([obj.kind, (obj.spec as { replicas: number }).replicas, (old?.spec as { replicas: number }).replicas]);
        },
      },
      update,
    );
    assert.deepEqual(seen, [['Scale', 5, 1]]);
    assert.equal(r.object.kind, 'Scale');
    assert.deepEqual(r.object.spec, { replicas: 5 });
    const obj = await main.get(ctx(''), 's3', { resourceVersion: '' });
    assert.deepEqual(obj.spec, { replicas: 5 });
    assert.equal(obj.metadata?.generation, 2);
    await assert.rejects(
      scale.update(ctx(''), 's3', scaleTo(6, String(created.metadata?.resourceVersion)), allowBoth, update),
      statusIs(409, 'Operation cannot be fulfilled on fischers.wardle.example.com "s3": the object has been modified; please apply your changes to the latest version and try again'),
    );
    await assert.rejects(
      scale.update(ctx(''), 's3', scaleTo(-1), allowBoth, update),
      statusIs(422, 'Scale.autoscaling "s3" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0', 'Invalid'),
    );
    await assert.rejects(scale.update(ctx(''), 'absent', scaleTo(1), allowBoth, update), statusIs(404, 'fischers.wardle.example.com "absent" not found'));
  });
});
