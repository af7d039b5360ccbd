// The example controller (hack/examples/flunder-controller) run as users run it — its own
// process, finding the server through --kubeconfig or KUBECONFIG — against the control plane:
// it writes every Flunder's conditions, follows Flunder and Fischer changes, keeps a
// condition's lastTransitionTime while its status holds, and exits cleanly on SIGTERM.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Condition } from '../../apis/meta/v1/types.js';
import type { Flunder } from '../../apis/wardle/v1alpha1/types.js';
import { Clientset } from '../../generated/clientset/index.js';
import { newSimpleClientset } from '../../generated/clientset/fake/index.js';
import { SharedInformerFactory } from '../../generated/informers/factory.js';
import { runFlunderController } from '../../hack/examples/flunder-controller/controller.js';
import { newSharedInformerFactoryCore, record, type HTTPRESTClient } from '../../runtime/client/index.js';
import { describeBackends, repoRoot } from '../integration/harness.js';
import { adminClient, eventually } from './integration/informer-harness.js';

const LONG = 3 * 60_000;
const NS = 'example';
const main = join(repoRoot, 'hack/examples/flunder-controller/main.ts');

/** The controller process; its output is kept for failure messages. */
class Controller {
  output = '';
  private constructor(readonly proc: ChildProcess) {
    proc.stdout?.on('data', (d: Buffer) => (this.output += d.toString()));
    proc.stderr?.on('data', (d: Buffer) => (this.output += d.toString()));
  }

  static start(args: readonly string[], env: NodeJS.ProcessEnv = {}): Controller {
    const proc = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', main, ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '', KUBECONFIG: '', ...env },
    });
    return new Controller(proc);
  }

  /** SIGTERM and the exit code. */
  async stop(): Promise<number | null> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return this.proc.exitCode;
    const exited = once(this.proc, 'exit');
    this.proc.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    return code;
  }
}

const flunder = (name: string, spec?: Flunder['spec']): Flunder => ({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name }, ...(spec ? { spec } : {}) });

describeBackends(
  'example flunder controller',
  (get) => {
    let rest: HTTPRESTClient;
    let cs: Clientset;
    const running: Controller[] = [];

    before(() => {
      rest = adminClient(get().kubeconfigPath);
      cs = new Clientset(rest);
    });
    after(async () => {
      for (const c of running) await c.stop();
      rest.close();
    });

    const fl = (): ReturnType<ReturnType<Clientset['wardleV1alpha1']>['flunders']> => cs.wardleV1alpha1().flunders(NS);
    const condition = async (name: string, type: string): Promise<Condition | undefined> => (await fl().get(name)).status?.conditions?.find((c) => c.type === type);
    /** Waits until the Flunder's condition has this status and reason. */
    const expectCondition = async (c: Controller, name: string, type: string, status: string, reason: string): Promise<Condition> => {
      let seen: Condition | undefined;
      await eventually(
        async () => {
          seen = await condition(name, type);
          return seen?.status === status && seen.reason === reason;
        },
        LONG,
        () => `${name} ${type}: want ${status}/${reason}, have ${JSON.stringify(seen)}\n--- controller output ---\n${c.output.slice(-4000)}`,
      );
      return seen as Condition;
    };

    test('writes conditions and follows Flunder and Fischer changes', { timeout: 2 * LONG }, async () => {
      await cs
        .coreV1()
        .namespaces()
        .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
      await fl().create(flunder('a', { reference: 'b' }));
      await fl().create(flunder('c', { reference: 'fx', referenceType: 'Fischer' }));
      await fl().create(flunder('d'));

      const c = Controller.start(['--kubeconfig', get().kubeconfigPath]);
      running.push(c);
      await expectCondition(c, 'a', 'ReferenceResolved', 'False', 'FlunderNotFound');
      await expectCondition(c, 'c', 'ReferenceResolved', 'False', 'FischerNotFound');
      await expectCondition(c, 'd', 'ReferenceResolved', 'True', 'NoReference');
      const allowedBefore = await expectCondition(c, 'a', 'Allowed', 'True', 'NotDisallowed');
      const a = await fl().get('a');
      assert.equal(a.status?.conditions?.[0]?.observedGeneration, a.metadata?.generation);

      // The referenced Flunder appears; a Fischer appears, and bans d.
      await fl().create(flunder('b'));
      await expectCondition(c, 'a', 'ReferenceResolved', 'True', 'FlunderFound');
      const fischers = cs.wardleV1alpha1().fischers();
      const fx = await fischers.create({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Fischer', metadata: { name: 'fx' }, disallowedFlunders: ['d'] });
      await expectCondition(c, 'c', 'ReferenceResolved', 'True', 'FischerFound');
      const banned = await expectCondition(c, 'd', 'Allowed', 'False', 'DisallowedByFischer');
      assert.match(banned.message, /fx/);
      assert.deepEqual(await condition('a', 'Allowed'), allowedBefore, 'an unchanged condition keeps its lastTransitionTime');

      // The Fischer lifts the ban, then goes away.
      await fischers.update({ ...fx, disallowedFlunders: [] });
      await expectCondition(c, 'd', 'Allowed', 'True', 'NotDisallowed');
      await fischers.delete('fx');
      await expectCondition(c, 'c', 'ReferenceResolved', 'False', 'FischerNotFound');
      // A Flunder changes what it refers to.
      const d = await fl().get('d');
      await fl().update({ ...d, spec: { reference: 'a' } });
      await expectCondition(c, 'd', 'ReferenceResolved', 'True', 'FlunderFound');
      await fl().delete('a');
      await expectCondition(c, 'd', 'ReferenceResolved', 'False', 'FlunderNotFound');

      assert.equal(await c.stop(), 0, `clean exit on SIGTERM\n${c.output}`);
      assert.match(c.output, /flunder-controller: stopped/);
    });

    test('finds the server through KUBECONFIG and catches up with changes made while it was not running', { timeout: 2 * LONG }, async () => {
      await fl().create(flunder('e', { reference: 'b' }));
      const c = Controller.start([], { KUBECONFIG: get().kubeconfigPath });
      running.push(c);
      await expectCondition(c, 'e', 'ReferenceResolved', 'True', 'FlunderFound');
      await expectCondition(c, 'e', 'Allowed', 'True', 'NotDisallowed');
      assert.equal(await c.stop(), 0, c.output);
    });
  },
  { only: ['sqlite'] },
);

// The same controller in-process over the generated fake clientset: how its own unit tests
// would run, without a server.
describe('example flunder controller on the fake clientset', () => {
  test('writes conditions, follows a Fischer ban and records events', { timeout: LONG }, async () => {
    const cs = newSimpleClientset(flunder('x', { reference: 'y' }), flunder('y'));
    const informers = new SharedInformerFactory(cs, newSharedInformerFactoryCore({}));
    const stop = new AbortController();
    const lines: string[] = [];
    const recorder = new record.FakeRecorder({ bufferSize: 100 });
    const done = runFlunderController({ clientset: cs, informers, log: (l) => lines.push(l), now: () => new Date('2026-01-02T03:04:05Z'), recorder }, stop.signal);
    const conditionOf = async (name: string, type: string): Promise<Condition | undefined> =>
      (await cs.wardleV1alpha1().flunders('default').get(name)).status?.conditions?.find((c) => c.type === type);
    try {
      await eventually(
        async () => (await conditionOf('x', 'ReferenceResolved'))?.reason === 'FlunderFound',
        LONG,
        () => lines.join('\n'),
      );
      assert.deepEqual(await conditionOf('x', 'Allowed'), {
        type: 'Allowed',
        status: 'True',
        reason: 'NotDisallowed',
        message: 'no fischer disallows this flunder',
        lastTransitionTime: '2026-01-02T03:04:05Z',
        observedGeneration: 1,
      });
      await cs
        .wardleV1alpha1()
        .fischers()
        .create({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Fischer', metadata: { name: 'ban' }, disallowedFlunders: ['y'] });
      await eventually(
        async () => (await conditionOf('y', 'Allowed'))?.reason === 'DisallowedByFischer',
        LONG,
        () => lines.join('\n'),
      );
      const statusWrites = cs.fake.actions().filter((a) => a.verb === 'update' && a.subresource === 'status');
      assert.equal(statusWrites.length, 3, 'x and y once each, then y again: an unchanged status is not written');
      // Synced for each write, and a Warning with the reason of the condition that turned False.
      assert.deepEqual(recorder.events.toSorted(), [
        'Normal Synced Flunder synced successfully',
        'Normal Synced Flunder synced successfully',
        'Normal Synced Flunder synced successfully',
        'Warning DisallowedByFischer disallowed by fischer ban',
      ]);
    } finally {
      stop.abort();
      await done;
    }
  });
});
