// Group version priorities: one table (kube-apiserver's apiVersionPriorities) that the built-in
// discovery and the aggregator's local APIServices both read. Ports the expectations of kube's
// cmd/kube-apiserver aggregator tables (no kube unit test covers them).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiGroups } from '../../generated/index.js';
import { builtinAPIServices } from '../../runtime/aggregator/index.js';
import type { APIGroupDefinition } from '../../runtime/registry/types.js';
import { AGGREGATOR_GROUP_PRIORITY_MINIMUM, DEFAULT_GROUP_PRIORITY_MINIMUM, discoveryFromGroupDefinition, KUBE_API_VERSION_PRIORITIES } from '../../runtime/server/discovery/index.js';

const wardle = apiGroups.find((g) => g.name === 'wardle.example.com') as APIGroupDefinition;
/** wardle's versions (v1beta1, v1alpha1) under another group's name. */
const named = (name: string): APIGroupDefinition => ({ ...wardle, name });
const priorities = (def: APIGroupDefinition): [string, number, number][] => discoveryFromGroupDefinition(def).map((gv) => [gv.version, gv.groupPriorityMinimum, gv.versionPriority]);

describe('group version priorities', () => {
  it("gives a group kube defines kube's priorities, with nothing but its definition (events.k8s.io: 17750, v1beta1 5)", () => {
    assert.deepEqual(priorities(named('events.k8s.io')), [
      ['v1beta1', 17750, 5],
      // A version kube's table does not list keeps the group's priority and counts down from 15.
      ['v1alpha1', 17750, 14],
    ]);
  });

  it('gives every built-in group of this tree the priority of kube-apiserver', () => {
    for (const def of apiGroups) {
      for (const gv of discoveryFromGroupDefinition(def)) {
        const kube = KUBE_API_VERSION_PRIORITIES.get(`${gv.group}/${gv.version}`);
        if (kube === undefined) continue;
        assert.deepEqual({ groupPriorityMinimum: gv.groupPriorityMinimum, versionPriority: gv.versionPriority }, kube, `${gv.group}/${gv.version}`);
      }
    }
    const core = apiGroups.find((g) => g.name === '') as APIGroupDefinition;
    assert.deepEqual(priorities(core), [['v1', 18000, 1]]);
  });

  it("lists the aggregator's own group first and gives other groups the default, versions counting down from 15", () => {
    assert.deepEqual(priorities(named('apiregistration.k8s.io'))[0]?.[1], AGGREGATOR_GROUP_PRIORITY_MINIMUM);
    assert.deepEqual(priorities(wardle), [
      ['v1beta1', DEFAULT_GROUP_PRIORITY_MINIMUM, 15],
      ['v1alpha1', DEFAULT_GROUP_PRIORITY_MINIMUM, 14],
    ]);
  });

  it("registers the aggregator's local APIServices with the priorities discovery uses", () => {
    const defs = [named('events.k8s.io'), named('coordination.k8s.io'), wardle];
    const fromDiscovery = defs
      .flatMap((d) => discoveryFromGroupDefinition(d))
      .map((gv) => ({ group: gv.group, version: gv.version, groupPriorityMinimum: gv.groupPriorityMinimum, versionPriority: gv.versionPriority }));
    assert.deepEqual(
      builtinAPIServices(defs).map((s) => s.spec),
      fromDiscovery,
    );
  });

  it('keys group versions as data: a hostile group name finds nothing', () => {
    assert.deepEqual(priorities(named('__proto__')), [
      ['v1beta1', DEFAULT_GROUP_PRIORITY_MINIMUM, 15],
      ['v1alpha1', DEFAULT_GROUP_PRIORITY_MINIMUM, 14],
    ]);
  });
});
