// `npm run serve-aggregated`: this repository's standalone aggregated API server (kube's
// sample-apiserver) for the groups of its apis/ (through its generated index), to run beside
// `npm start` and register with an APIService. The runtime itself takes the groups as a
// parameter; this entry is where this repository passes its own.
import { apiGroups } from '../../generated/index.js';
import { runAggregatedServer } from './run.js';

runAggregatedServer({ groups: apiGroups });
