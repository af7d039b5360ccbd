// Service-account token micro-benchmark (issue 14): the cost of one bearer-token authentication
// of a bound service-account token in process, with no HTTP, for the two key kinds the server
// signs with (ES256 with the data dir's default P-256 key, RS256 with a 2048-bit RSA key): the
// first sight of a token (decode, signature by jose, claims, the store lookup through the getter)
// and a repeat within the success cache's 10 s (kube's TokenSuccessCacheTTL), and one issuance.
// The getter answers from memory, so the figures are the authenticator's own; the lead's getter
// adds its store read (a watch cache read) to the uncached figure only.
// Per case: µs per call (median of 7 rounds, every case measured in each round).
// BENCH_QUICK=1 shrinks the rounds. Run: npm run bench -- serviceaccount
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { newServiceAccountTokenAuthenticator, newServiceAccountTokenIssuer, PublicKeySet } from '../../runtime/authentication/serviceaccount/index.js';
import { runBench } from './lib/process.js';

const quick = process.env['BENCH_QUICK'] === '1';
const ROUNDS = quick ? 3 : 7;
const CALLS = quick ? 500 : 3_000;
const ISS = 'https://kubernetes.default.svc.cluster.local';

interface Case {
  readonly name: string;
  readonly run: () => Promise<unknown>;
}

async function cases(alg: string, key: { privateKey: KeyObject; publicKey: KeyObject }): Promise<Case[]> {
  const issuer = await newServiceAccountTokenIssuer({ issuer: ISS, signingKey: key.privateKey, apiAudiences: [ISS], maxExpirationSeconds: 0, extendExpiration: true });
  const keys = await PublicKeySet.create([key.publicKey]);
  const getter = { getServiceAccount: async () => ({ uid: 'u' }), getBoundObject: async () => undefined };
  const uncached = newServiceAccountTokenAuthenticator({ issuers: [ISS], keys, apiAudiences: [ISS], getter, successCacheTTLMs: 0 });
  const cached = newServiceAccountTokenAuthenticator({ issuers: [ISS], keys, apiAudiences: [ISS], getter });
  const claims = { namespace: 'ns', serviceAccountName: 'robot', serviceAccountUID: 'u', audiences: [ISS], expirationSeconds: 3600 };
  const { token } = await issuer.issue(claims);
  const must = async (p: Promise<unknown>) => {
    if ((await p) === undefined) throw new Error('token not authenticated');
  };
  return [
    { name: `${alg}: authenticate, first sight (verify + validate)`, run: () => must(uncached.authenticateToken(token, [])) },
    { name: `${alg}: authenticate, cached success`, run: () => must(cached.authenticateToken(token, [])) },
    { name: `${alg}: issue (TokenRequest's signing)`, run: () => issuer.issue(claims) },
  ];
}

async function timeRound(c: Case): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i++) await c.run();
  return ((performance.now() - t0) * 1000) / CALLS;
}

runBench(async () => {
  console.log(
    `node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(`${CALLS.toLocaleString('en-US')} calls per round, median of ${ROUNDS} rounds\n`);
  const all = [...(await cases('ES256', generateKeyPairSync('ec', { namedCurve: 'P-256' }))), ...(await cases('RS256', generateKeyPairSync('rsa', { modulusLength: 2048 })))];
  const rounds = new Map<string, number[]>(all.map((c) => [c.name, []]));
  for (const c of all) await timeRound(c); // warm-up
  for (let r = 0; r < ROUNDS; r++) for (const c of all) rounds.get(c.name)!.push(await timeRound(c));
  console.log('| case | µs per call | calls/s |');
  console.log('| --- | --- | --- |');
  for (const c of all) {
    const sorted = [...rounds.get(c.name)!].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    console.log(`| ${c.name} | ${median.toFixed(1)} | ${Math.round(1e6 / median).toLocaleString('en-US')} |`);
  }
});
