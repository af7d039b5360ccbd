import { join } from 'node:path';
import type { RunningServer } from '../command.js';
import { prepareDataDir } from '../datadir.js';
import { electionIdentity } from '../leaderelection/identity.js';
import { completeOptions, type ServerRunOptions } from '../options.js';
import { storageConfigFor } from '../../server/options/storage.js';
import { Supervisor } from './supervisor.js';

export interface PrimaryOptions {
  readonly options: ServerRunOptions;
  readonly workers: number;
  /** The file each worker runs and its arguments: the command again, with the same flags. */
  readonly exec: string;
  readonly args: readonly string[];
}

/**
 * The --workers N primary: checks the options as a worker would (a bad flag or file fails here,
 * once, with exit 2), makes what must exist once before any worker starts (the data dir, its
 * PKI, the leader-election identity file), then forks the workers and reports ready once every
 * one of them serves. Stopping it drains every worker.
 */
export async function startPrimary(p: PrimaryOptions): Promise<RunningServer> {
  const o = completeOptions(p.options);
  storageConfigFor({ ...o, sqliteShared: true }, join(o.dataDir, 'kube.db'));
  await prepareDataDir(o);
  electionIdentity(o.dataDir);

  const supervisor = new Supervisor({ workers: p.workers, exec: p.exec, args: p.args, listen: { host: o.bindAddress, port: o.securePort }, log: (line) => process.stderr.write(`${line}\n`) });
  const first = await supervisor.start();
  return {
    readyLines: [
      `serving on ${first.url} (storage: ${first.storageDescription})`,
      `ready in ${Math.round(performance.now())} ms (${p.workers} workers). Try: kubectl --kubeconfig ${first.kubeconfigPath} api-resources`,
    ],
    stop: () => supervisor.stop(),
  };
}
