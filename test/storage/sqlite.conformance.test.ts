import { runConformanceSuite } from '../../runtime/storage/testing/suite.js';
import { sqliteBackend } from './sqliteBackend.js';

// The Kubernetes storage conformance suite against the embedded SQLite backend.
runConformanceSuite(sqliteBackend());
