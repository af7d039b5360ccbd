import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setErrorReporter, type ErrorReport } from '../../runtime/apimachinery/errors/index.js';
import { KindScheme } from '../../runtime/apimachinery/scheme/scheme.js';
import type { APIGroupDefinition } from '../../runtime/registry/types.js';
import { allow, ctx, flunder, newEnv, statusIs, wardleGroup, write, type Env } from './helpers.js';

// A hand-written conversion that throws is the server's fault, not the client's: kube answers
// 500 InternalError naming the conversion (as "conversion webhook for … failed: …" does for
// custom resources) and reports the error to the operator's log; the raw exception is neither
// the whole answer nor lost.

/** wardle whose v1alpha1 (storage) Flunder conversion throws both ways. */
const throwing: APIGroupDefinition = {
  ...wardleGroup,
  versions: wardleGroup.versions.map((v) =>
    v.name !== 'v1alpha1'
      ? v
      : {
          ...v,
          resources: v.resources.map((r) =>
            r.kind !== 'Flunder'
              ? r
              : {
                  ...r,
                  conversion: {
                    toHub: (): never => {
                      throw new Error('spec.reference is not a name');
                    },
                    fromHub: (): never => {
                      throw new TypeError("Cannot read properties of undefined (reading 'spec')");
                    },
                  },
                },
          ),
        },
  ),
};

describe('a conversion that throws', () => {
  let env: Env;
  const reports: ErrorReport[] = [];
  let restore: () => void;
  before(async () => {
    env = await newEnv();
    restore = setErrorReporter((r) => reports.push(r));
  });
  after(async () => {
    restore?.();
    await env?.close();
  });

  test('writing (hub to storage version) answers 500 InternalError naming the conversion, and is logged', async () => {
    reports.length = 0;
    const { main } = await env.storages(throwing, 'Flunder');
    await assert.rejects(
      main.create(ctx('ce'), flunder('a', { flunderReference: 'x' }), allow, write),
      statusIs(
        500,
        "Internal error occurred: conversion of wardle.example.com/v1beta1, Kind=Flunder to wardle.example.com/v1alpha1 failed: Cannot read properties of undefined (reading 'spec')",
        'InternalError',
      ),
    );
    assert.equal(reports.length, 1, JSON.stringify(reports));
    assert.equal(reports[0]!.message, 'conversion failed');
    const { kind, name, from, to, err } = reports[0]!.details;
    assert.deepEqual(
      { kind, name, from, to, err: String(err) },
      {
        kind: 'Flunder',
        name: 'a',
        from: 'wardle.example.com/v1beta1',
        to: 'wardle.example.com/v1alpha1',
        err: "TypeError: Cannot read properties of undefined (reading 'spec')",
      },
    );
  });

  test('reading (storage to hub version) answers the same way', async () => {
    reports.length = 0;
    const good = await env.storages(wardleGroup, 'Flunder');
    await good.main.create(ctx('ce'), flunder('b', { flunderReference: 'x' }), allow, write);
    const { main } = await env.storages(throwing, 'Flunder');
    await assert.rejects(
      main.get(ctx('ce'), 'b', { resourceVersion: '' }),
      statusIs(500, 'Internal error occurred: conversion of wardle.example.com/v1alpha1, Kind=Flunder to wardle.example.com/v1beta1 failed: spec.reference is not a name', 'InternalError'),
    );
    assert.equal(reports.length, 1, JSON.stringify(reports));
  });

  test('the scheme converts what does not throw as before', () => {
    const scheme = new KindScheme(wardleGroup, 'Flunder');
    const out = scheme.convert(flunder('c', { flunderReference: 'x' }), 'v1alpha1');
    assert.deepEqual(out['spec'], { reference: 'x' });
  });
});
