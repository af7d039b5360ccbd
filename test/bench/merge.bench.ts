// The Updater (structuredmerge/merge, issue 15) as structured-merge-diff's merge benchmarks time
// it: BenchmarkOperations (real_test.go: create, apply, apply twice, update, update across
// versions of a Pod, a Node and Endpoints typed by SMD's Kubernetes schema, with and without
// relationship overrides) and the benchmarks of deduced_test.go, leaf_test.go and
// multiple_appliers_test.go. Operations are parsed ahead (PreprocessOperations, as in Go); a
// sequence starts from an empty object each time. ms per sequence, median of the rounds.
// BENCH_QUICK=1 shrinks the rounds. Run: npm run bench -- merge
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Converter } from '../../runtime/apimachinery/structuredmerge/merge/index.js';
import type { Parser, TestCase } from '../structuredmerge/fixture/index.js';
import { benchWithConverter, deducedParser, dummyConverter, preprocessOperations, SameVersionParser, testWithConverter } from '../structuredmerge/fixture/index.js';
import {
  benchmarkDeducedNested,
  benchmarkDeducedNestedAcrossVersion,
  benchmarkDeducedSimple,
  benchmarkLeafConflictAcrossVersion,
  benchmarkMultipleApplierRecursiveRealConversion,
} from '../structuredmerge/merge/benchmarks.js';
import { RepeatingConverter } from '../structuredmerge/merge/converters.js';
import { leafFieldsParser, nestedTypeParser } from '../structuredmerge/merge/parsers.js';
import { benches, operations, read } from '../structuredmerge/merge/real.js';
import { runBench } from './lib/process.js';

const quick = process.env['BENCH_QUICK'] === '1';
const ROUNDS = quick ? 3 : 5;
const TARGET_MS = quick ? 60 : 200;

/** ms per run of the case: runs until TARGET_MS has passed, median of ROUNDS (after one round of warm-up). */
async function perRun(tc: TestCase, parser: Parser, converter: Converter): Promise<number> {
  const rounds: number[] = [];
  for (let r = 0; r <= ROUNDS; r++) {
    let n = 0;
    const t0 = performance.now();
    let t = t0;
    for (; t - t0 < TARGET_MS; t = performance.now(), n++) await benchWithConverter(tc, parser, converter);
    if (r > 0) rounds.push((t - t0) / n);
  }
  return rounds.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)] as number;
}

const fmt = (ms: number): string => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1));

runBench(async () => {
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ${ROUNDS} rounds of ${TARGET_MS} ms, median`,
  );
  const names = operations('').map((o) => o.name);
  console.log(`| object | ${names.map((n) => `${n} ms`).join(' | ')} |`);
  console.log(`| --- |${' --- |'.repeat(names.length)}`);
  for (const bench of benches) {
    const parser = new SameVersionParser(bench.parseType);
    const cells: string[] = [];
    for (const seq of operations(read(bench.filename))) {
      const tc: TestCase = { ops: seq.ops, returnInputOnNoop: seq.returnInputOnNoop };
      preprocessOperations(tc, parser);
      cells.push(fmt(await perRun(tc, parser, dummyConverter)));
    }
    console.log(`| ${bench.name} | ${cells.join(' | ')} |`);
  }

  const cases: [string, TestCase, Parser, Converter][] = [
    ['BenchmarkDeducedSimple', benchmarkDeducedSimple, deducedParser, dummyConverter],
    ['BenchmarkDeducedNested', benchmarkDeducedNested, deducedParser, dummyConverter],
    ['BenchmarkDeducedNestedAcrossVersion', benchmarkDeducedNestedAcrossVersion, deducedParser, dummyConverter],
    ['BenchmarkLeafConflictAcrossVersion', benchmarkLeafConflictAcrossVersion, leafFieldsParser, dummyConverter],
    ['BenchmarkMultipleApplierRecursiveRealConversion', benchmarkMultipleApplierRecursiveRealConversion, nestedTypeParser, new RepeatingConverter(nestedTypeParser)],
  ];
  console.log('\n| benchmark | ms per run |\n| --- | --- |');
  for (const [name, tc, parser, converter] of cases) {
    // As the Go benchmarks: the case must pass before it is timed.
    await testWithConverter(tc, parser, converter);
    const timed: TestCase = { ...tc, ops: [...tc.ops] };
    preprocessOperations(timed, parser);
    console.log(`| ${name} | ${fmt(await perRun(timed, parser, converter))} |`);
  }
});
