// What the storage encoding of managedFields costs per object (runtime/storage/kvstore/
// managedfields-frame.ts): the codec deflates an object's managedFields on every write and
// inflates them when it reads a frame it has not met lately (the watch cache decodes each event
// once; the same bytes read again skip the inflate). For a two-port Service with two entries (as
// kubectl apply and kubectl label leave it) and a ConfigMap with one: µs per call of the plain
// JSON encoding and parse against the frame's, a frame read for the first time and one read
// again, median of the rounds. BENCH_QUICK=1 shrinks the rounds. Run: npm run bench -- codec
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { StoredObject } from '../../runtime/apimachinery/object.js';
import { encodeManagedFieldsFrame, parseStoredObject } from '../../runtime/storage/kvstore/managedfields-frame.js';
import { apiObjectVersioner } from '../../runtime/storage/versioner.js';
import { runBench } from './lib/process.js';

const quick = process.env['BENCH_QUICK'] === '1';
const ROUNDS = quick ? 3 : 7;
const TARGET_MS = quick ? 60 : 250;

const entry = (manager: string, operation: string, fieldsV1: object): object => ({ manager, operation, apiVersion: 'v1', time: '2026-11-26T07:26:28Z', fieldsType: 'FieldsV1', fieldsV1 });
const port = (n: number): string => `k:{"port":${n},"protocol":"TCP"}`;

const objects: ReadonlyArray<readonly [string, StoredObject]> = [
  [
    'Service, two ports, 2 entries',
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: 'web',
        namespace: 'default',
        uid: 'f10e9d53-a037-47e3-9c90-5800885f12fa',
        creationTimestamp: '2026-11-26T07:26:28Z',
        labels: { app: 'bench', tier: 'backend', edited: 'yes' },
        managedFields: [
          entry('kubectl', 'Apply', {
            'f:metadata': { 'f:labels': { 'f:app': {}, 'f:tier': {} } },
            'f:spec': {
              'f:ports': { [port(80)]: { '.': {}, 'f:name': {}, 'f:port': {}, 'f:targetPort': {} }, [port(443)]: { '.': {}, 'f:name': {}, 'f:port': {}, 'f:targetPort': {} } },
              'f:selector': {},
            },
          }),
          entry('kubectl-label', 'Update', { 'f:metadata': { 'f:labels': { 'f:edited': {} } } }),
        ],
      },
      spec: {
        clusterIP: '10.0.0.52',
        clusterIPs: ['10.0.0.52'],
        internalTrafficPolicy: 'Cluster',
        ipFamilies: ['IPv4'],
        ipFamilyPolicy: 'SingleStack',
        ports: [
          { name: 'http', port: 80, protocol: 'TCP', targetPort: 8080 },
          { name: 'https', port: 443, protocol: 'TCP', targetPort: 8443 },
        ],
        selector: { app: 'bench' },
        sessionAffinity: 'None',
        type: 'ClusterIP',
      },
      status: { loadBalancer: {} },
    } as StoredObject,
  ],
  [
    'ConfigMap, 9 settings, 1 entry',
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'settings',
        namespace: 'default',
        uid: '0b5c3c1e-7a53-4b7e-a1f5-2f6a3c1d9e11',
        creationTimestamp: '2026-11-26T07:26:28Z',
        labels: { app: 'bench', tier: 'backend' },
        managedFields: [
          entry('kubectl', 'Apply', {
            'f:data': Object.fromEntries(['CACHE', 'HOST', 'LOG_LEVEL', 'MODE', 'PORT', 'REGION', 'RETRIES', 'TIMEOUT', 'WORKERS'].map((k) => [`f:${k}`, {}])),
            'f:metadata': { 'f:labels': { 'f:app': {}, 'f:tier': {} } },
          }),
        ],
      },
      data: { LOG_LEVEL: 'info', PORT: '8080', HOST: '0.0.0.0', TIMEOUT: '30s', RETRIES: '3', CACHE: 'on', REGION: 'eu-west-1', MODE: 'prod', WORKERS: '4' },
    } as StoredObject,
  ],
];

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** µs per call of fn: calls in batches until TARGET_MS has passed, median of ROUNDS. */
function perCall(fn: () => unknown): number {
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    let calls = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < TARGET_MS) {
      for (let i = 0; i < 100; i++) fn();
      calls += 100;
    }
    rounds.push(((performance.now() - t0) * 1000) / calls);
  }
  return median(rounds);
}

async function main(): Promise<void> {
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; ${ROUNDS} rounds of ${TARGET_MS} ms`,
  );
  const encode = (o: StoredObject): string => apiObjectVersioner.encodeForStorage(o);
  for (const [title, obj] of objects) {
    const json = Buffer.from(encode(obj));
    const frame = encodeManagedFieldsFrame(obj, encode);
    // Frames of as many distinct objects as the process's cache of inflated entries cannot hold
    // (8 MiB): read in turn, each is met for the first time since it was pushed out.
    const unseen = Array.from({ length: 20_000 }, (_, i) => encodeManagedFieldsFrame({ ...obj, metadata: { ...obj.metadata, name: `${String(obj.metadata?.name)}-${i}` } }, encode));
    let next = 0;
    const f = {
      jsonEncode: perCall(() => Buffer.from(encode(obj))),
      frameEncode: perCall(() => encodeManagedFieldsFrame(obj, encode)),
      jsonParse: perCall(() => JSON.parse(json.toString('utf8'))),
      frameParseFirst: perCall(() => parseStoredObject(unseen[next++ % unseen.length]!)),
      frameParseAgain: perCall(() => parseStoredObject(Buffer.from(frame))),
    };
    console.log(
      `${title}: ${json.length} B as JSON, ${frame.length} B framed; encode ${f.jsonEncode.toFixed(1)} → ${f.frameEncode.toFixed(1)} µs (+${(f.frameEncode - f.jsonEncode).toFixed(1)}), parse ${f.jsonParse.toFixed(1)} → ${f.frameParseFirst.toFixed(1)} µs (+${(f.frameParseFirst - f.jsonParse).toFixed(1)}) first read, ${f.frameParseAgain.toFixed(1)} µs (+${(f.frameParseAgain - f.jsonParse).toFixed(1)}) read again (a new buffer of the same bytes)`,
    );
  }
}

runBench(main);
