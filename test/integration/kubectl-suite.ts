// One suite for one kubectl minor against the control plane command on SQLite: a namespace of
// its own and `run` pinned to that minor. Skipped (with the reason) where the minor is not
// installed, so version-skew tests need no set-up of their own.
import { after, before, describe } from 'node:test';
import { ok } from './assertions.js';
import { describeBackends, type ControlPlane } from './harness.js';
import { Kubectl, kubectlUnavailable, type KubectlResult } from './kubectl.js';
import { uniqueName } from './objects.js';

export interface KubectlSuite {
  readonly cp: () => ControlPlane;
  /** The suite's namespace, created before its tests. */
  readonly ns: () => string;
  /** kubectl of the suite's minor. */
  readonly run: (args: string[], stdin?: string) => Promise<KubectlResult>;
}

export function describeKubectlMinor(minor: number, title: string, nsPrefix: string, body: (s: KubectlSuite) => void): void {
  describe(title, { skip: kubectlUnavailable(minor) ?? false }, () => {
    describeBackends(
      `kubectl 1.${minor}`,
      (cp) => {
        let kc: Kubectl;
        let ns = '';
        before(async () => {
          kc = new Kubectl(cp);
          ns = uniqueName(nsPrefix);
          ok(await kc.createNamespace(ns), cp());
        });
        after(() => kc.dispose());
        body({ cp, ns: () => ns, run: (args, stdin) => kc.run(args, stdin === undefined ? { minor } : { minor, stdin }) });
      },
      { only: ['sqlite'] },
    );
  });
}
