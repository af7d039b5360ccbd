// `npm start`: this repository's control plane command, serving the groups of its apis/ (through
// its generated index) on the embedded SQLite store unless told otherwise. The runtime itself
// takes the groups as a parameter; this entry is where this repository passes its own.
import { runControlPlane } from './run.js';

// Loaded by a process that serves; a --workers primary never evaluates the groups.
runControlPlane({ groups: async () => (await import('../../generated/index.js')).apiGroups });
