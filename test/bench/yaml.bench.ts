// Event-loop delay while a large YAML body is decoded: on the event loop (decodeYAMLBody) and on
// the worker pool the create/update handlers use above YAML_OFF_THREAD_BYTES
// (decodeYAMLBodyOffThread). perf_hooks' monitorEventLoopDelay (10 ms resolution) samples the
// loop during each decode; the max is how long any other request would have waited.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { decodeYAMLBody } from '../../runtime/apimachinery/serializer/decode.js';
import { decodeYAMLBodyOffThread } from '../../runtime/apimachinery/serializer/yaml-pool.js';
import { largeYAMLNamespace } from './lib/yaml.js';

async function measure(label: string, decode: () => Promise<unknown> | unknown): Promise<void> {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  await new Promise((r) => setTimeout(r, 50));
  const start = performance.now();
  await decode();
  const ms = performance.now() - start;
  await new Promise((r) => setTimeout(r, 50));
  h.disable();
  console.log(`${label}: decode ${(ms / 1000).toFixed(2)} s, event-loop delay max ${(h.max / 1e6).toFixed(0)} ms, p99 ${(h.percentile(99) / 1e6).toFixed(0)} ms`);
}

const size = process.env['BENCH_QUICK'] === '1' ? 256 * 1024 : 3 * 1024 * 1024 - 4096;
const body = largeYAMLNamespace('bench', size);
console.log(`YAML body: ${(body.length / 1024 / 1024).toFixed(2)} MiB`);
await measure('on a worker, first body (starts the worker)', () => decodeYAMLBodyOffThread(body, { kind: 'Namespace' }));
await measure('on a worker, next body', () => decodeYAMLBodyOffThread(body, { kind: 'Namespace' }));
await measure('on the event loop (decodeYAMLBody)', () => decodeYAMLBody(body, { kind: 'Namespace' }));
process.exit(0);
