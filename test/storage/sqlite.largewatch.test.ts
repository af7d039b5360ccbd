import { cachedBackend } from './cachedBackend.js';
import { describeLargeWatch } from './largeWatch.js';
import { sqliteBackend } from './sqliteBackend.js';

// Issue 12: watches over 10,000 objects on SQLite, with and without the watch cache.
describeLargeWatch(sqliteBackend());
describeLargeWatch(cachedBackend(sqliteBackend()));
