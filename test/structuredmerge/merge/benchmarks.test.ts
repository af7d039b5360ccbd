// SMD's merge benchmarks check their case before timing it: the same checks, by the benchmarks' names.
import { test } from 'node:test';
import { deducedParser, runTestCase } from '../fixture/index.js';
import { benchmarkDeducedNested, benchmarkDeducedNestedAcrossVersion, benchmarkDeducedSimple, benchmarkLeafConflictAcrossVersion } from './benchmarks.js';
import { leafFieldsParser } from './parsers.js';

test('BenchmarkDeducedSimple', () => runTestCase(benchmarkDeducedSimple, deducedParser));
test('BenchmarkDeducedNested', () => runTestCase(benchmarkDeducedNested, deducedParser));
test('BenchmarkDeducedNestedAcrossVersion', () => runTestCase(benchmarkDeducedNestedAcrossVersion, deducedParser));
test('BenchmarkLeafConflictAcrossVersion', () => runTestCase(benchmarkLeafConflictAcrossVersion, leafFieldsParser));
