import { runConformanceSuite } from '../../runtime/storage/testing/suite.js';
import { sqliteBackend } from './sqliteBackend.js';

// The Kubernetes storage conformance suite against SQLite in shared mode with two instances on
// one file (two connections, as two processes would have): the store writes through one and
// reads and watches through the other, so every watch check crosses the log feed.
runConformanceSuite(sqliteBackend({ shared: true, split: true }));
