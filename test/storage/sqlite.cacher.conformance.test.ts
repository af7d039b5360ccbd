import { runConformanceSuite } from '../../runtime/storage/testing/suite.js';
import { cachedBackend } from './cachedBackend.js';
import { sqliteBackend } from './sqliteBackend.js';

// The conformance suite against the watch cache in front of SQLite.
runConformanceSuite(cachedBackend(sqliteBackend()));
