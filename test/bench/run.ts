// `npm run bench`: runs every test/bench/*.bench.ts as its own process, in
// sequence, so one benchmark's heap and event loop never skew another's.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort()
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)));
let failed = 0;
for (const bench of benches) {
  console.log(`\n=== ${bench} ===`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(dir, bench)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
console.log(`\n${benches.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
