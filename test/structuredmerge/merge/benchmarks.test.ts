// SMD's merge benchmarks check their case before timing it: the same checks, by the benchmarks' names.
import { test } from 'node:test';
import { deducedParser, runTestCase, testWithConverter } from '../fixture/index.js';
import {
  benchmarkDeducedNested,
  benchmarkDeducedNestedAcrossVersion,
  benchmarkDeducedSimple,
  benchmarkLeafConflictAcrossVersion,
  benchmarkMultipleApplierRecursiveRealConversion,
} from './benchmarks.js';
import { RepeatingConverter } from './converters.js';
import { leafFieldsParser, nestedTypeParser } from './parsers.js';

test('BenchmarkDeducedSimple', () => runTestCase(benchmarkDeducedSimple, deducedParser));
test('BenchmarkDeducedNested', () => runTestCase(benchmarkDeducedNested, deducedParser));
test('BenchmarkDeducedNestedAcrossVersion', () => runTestCase(benchmarkDeducedNestedAcrossVersion, deducedParser));
test('BenchmarkLeafConflictAcrossVersion', () => runTestCase(benchmarkLeafConflictAcrossVersion, leafFieldsParser));
test('BenchmarkMultipleApplierRecursiveRealConversion', () => testWithConverter(benchmarkMultipleApplierRecursiveRealConversion, nestedTypeParser, new RepeatingConverter(nestedTypeParser)));
