// `npm start`: this repository's control plane command, serving the groups of its apis/ (through
// its generated index) on the embedded SQLite store unless told otherwise. The runtime itself
// takes the groups as a parameter; this entry is where this repository passes its own.
import { apiGroups } from '../../generated/index.js';
import { runControlPlane } from './run.js';

runControlPlane({ groups: apiGroups });
