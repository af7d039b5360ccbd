// Runs the cells of the security matrix: for each (user, probe), the request with kubectl as
// that user, and `kubectl auth can-i` about the same request; both must agree with the expected
// decision. Cells run a few at a time (kubectl is a process each), and every disagreement is
// collected with kubectl's output so that one run reports all failing cells.
import type { Kubectl, KubectlResult } from '../../integration/kubectl.js';
import type { Probe } from './probes.js';
import type { User } from './users.js';

export interface Row {
  readonly user: User;
  /** The probes this user runs (a subset when the others say nothing new). */
  readonly probes: readonly Probe[];
  /** The probes the user may make; every other one is refused. */
  readonly allowed: readonly Probe[];
  /** When set, every request (can-i included) is refused with this line instead (a refused impersonation). */
  readonly refusal?: string;
}

/** kubectl as `user`: its kubeconfig (the admin's when unset) and its flags before the command. */
export function runAs(kc: Kubectl, user: User, args: readonly string[], stdin?: string): Promise<KubectlResult> {
  const config = user.kubeconfig === undefined ? [] : ['--kubeconfig', user.kubeconfig];
  return kc.run([...config, ...user.flags, ...args], stdin === undefined ? {} : { stdin });
}

const shown = (r: KubectlResult): string => `exit ${r.code}\n    stdout: ${r.stdout.trim().slice(0, 300)}\n    stderr: ${r.stderr.trim()}`;

/** What is wrong with one cell, or undefined when the request and can-i both match. */
async function checkCell(kc: Kubectl, row: Row, probe: Probe): Promise<string | undefined> {
  const allowed = row.allowed.includes(probe);
  const problems: string[] = [];
  const request = await runAs(kc, row.user, probe.args, probe.stdin);
  const refusal = row.refusal ?? probe.forbidden(row.user.name);
  if (allowed && request.code !== 0) problems.push(`request: expected success, got ${shown(request)}`);
  if (!allowed && (request.code !== 1 || request.stderr.trim() !== refusal)) problems.push(`request: expected exit 1 and\n    ${refusal}\n  got ${shown(request)}`);
  if (row.user.reviewGroups !== undefined) {
    const review = await reviewedByAdmin(kc, row.user.name, row.user.reviewGroups, probe);
    if (review.code !== 0 || review.stdout.trim() !== String(allowed)) problems.push(`SubjectAccessReview: expected allowed ${allowed}, got ${shown(review)}`);
    return report(row, probe, problems);
  }
  const canI = await runAs(kc, row.user, probe.canI);
  if (row.refusal !== undefined) {
    if (canI.code !== 1 || canI.stderr.trim() !== row.refusal) problems.push(`can-i: expected exit 1 and\n    ${row.refusal}\n  got ${shown(canI)}`);
  } else {
    const want = allowed ? { code: 0, out: 'yes' } : { code: 1, out: 'no' };
    if (canI.code !== want.code || canI.stdout.trim() !== want.out) problems.push(`can-i: expected "${want.out}" (exit ${want.code}), got ${shown(canI)}`);
  }
  return report(row, probe, problems);
}

function report(row: Row, probe: Probe, problems: readonly string[]): string | undefined {
  return problems.length === 0 ? undefined : `${row.user.label} × ${probe.label}:\n  ${problems.join('\n  ')}`;
}

/** The admin's SubjectAccessReview for `user` in `groups` about the probe's request; stdout is status.allowed. */
function reviewedByAdmin(kc: Kubectl, user: string, groups: readonly string[], probe: Probe): Promise<KubectlResult> {
  const review = { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user, groups, ...probe.review } };
  return kc.run(['create', '-f', '-', '-o', 'jsonpath={.status.allowed}'], { stdin: JSON.stringify(review) });
}

/** Checks every cell of `row`, `parallel` at a time; returns the failures (empty when all agree). */
export async function checkRow(kc: Kubectl, row: Row, parallel = 4): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < row.probes.length; i = next++) {
      const probe = row.probes[i];
      if (probe === undefined) continue;
      const failure = await checkCell(kc, row, probe);
      if (failure !== undefined) failures.push(failure);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return failures;
}
