// A credential plugin for the exec-credential tests: a small node script in a temp dir that
// logs each run (its KUBERNETES_EXEC_INFO, arguments and one variable) and prints the answer
// listed for that run (the last one once the list is used up): an object as JSON, raw text,
// a non-zero exit, or no end at all.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type PluginAnswer = Record<string, unknown> | { readonly raw: string } | { readonly exit: number } | { readonly hang: true };

export interface Invocation {
  readonly info: unknown;
  readonly args: readonly string[];
  readonly env: string | null;
}

export interface TestPlugin {
  /** The executable's absolute path. */
  readonly command: string;
  answer(...answers: PluginAnswer[]): void;
  invocations(): Invocation[];
}

const V1 = 'client.authentication.k8s.io/v1';

/** An ExecCredential answer with a token. */
export function tokenAnswer(token: string, o: { apiVersion?: string; expires?: Date } = {}): Record<string, unknown> {
  return { apiVersion: o.apiVersion ?? V1, kind: 'ExecCredential', status: { token, ...(o.expires !== undefined ? { expirationTimestamp: o.expires.toISOString() } : {}) } };
}

/** An ExecCredential answer with a client certificate. */
export function certAnswer(pair: { certPEM: string; keyPEM: string }, o: { apiVersion?: string; expires?: Date } = {}): Record<string, unknown> {
  return {
    apiVersion: o.apiVersion ?? V1,
    kind: 'ExecCredential',
    status: { clientCertificateData: pair.certPEM, clientKeyData: pair.keyPEM, ...(o.expires !== undefined ? { expirationTimestamp: o.expires.toISOString() } : {}) },
  };
}

let seq = 0;

export function writePlugin(parent: string): TestPlugin {
  const dir = join(parent, `plugin-${++seq}`);
  mkdirSync(dir, { recursive: true });
  const command = join(dir, 'credential-plugin.cjs');
  const log = join(dir, 'log');
  const answers = join(dir, 'answers.json');
  writeFileSync(
    command,
    `#!${process.execPath}
'use strict';
const fs = require('node:fs');
fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ info: process.env.KUBERNETES_EXEC_INFO ?? null, args: process.argv.slice(2), env: process.env.PLUGIN_EXTRA ?? null }) + '\\n');
const n = fs.readFileSync(${JSON.stringify(log)}, 'utf8').trim().split('\\n').length;
const answers = JSON.parse(fs.readFileSync(${JSON.stringify(answers)}, 'utf8'));
const a = answers[Math.min(n, answers.length) - 1];
if (a.hang) setInterval(() => {}, 1000);
else if (a.exit !== undefined) { process.stderr.write('credential-plugin: failing on purpose\\n'); process.exit(a.exit); }
else process.stdout.write(typeof a.raw === 'string' ? a.raw : JSON.stringify(a));
`,
  );
  chmodSync(command, 0o755);
  return {
    command,
    answer: (...list) => writeFileSync(answers, JSON.stringify(list)),
    invocations: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .trim()
            .split('\n')
            .filter((l) => l !== '')
            .map((l) => {
              const r = JSON.parse(l) as { info: string | null; args: string[]; env: string | null };
              return { info: r.info === null ? null : (JSON.parse(r.info) as unknown), args: r.args, env: r.env };
            })
        : [],
  };
}
