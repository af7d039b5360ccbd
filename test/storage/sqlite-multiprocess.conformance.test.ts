import { runConformanceSuite } from '../../runtime/storage/testing/suite.js';
import { sqliteBackend } from './sqliteBackend.js';

// The Kubernetes storage conformance suite against SQLite in shared (multi-process) mode: normal
// locking, BEGIN IMMEDIATE writes, revisions and compaction read from the file, watches fed by
// the log feed.
runConformanceSuite(sqliteBackend({ shared: true }));
