import { runConformanceSuite } from '../../runtime/storage/testing/suite.js';
import { cachedBackend } from './cachedBackend.js';
import { sqliteBackend } from './sqliteBackend.js';

// The conformance suite against the watch cache in front of SQLite in shared mode, writes on one
// instance and the cache fed by the other (a replica's watch cache seeing another replica's
// writes): consistent reads from the cache must see every write committed before them.
runConformanceSuite(cachedBackend(sqliteBackend({ shared: true, split: true })));
