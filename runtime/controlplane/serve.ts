// `npm start`: the control plane command. The server chain (issue 4) is not
// built yet; until it is, say exactly what is missing instead of pretending.
console.error([
  'kube-ts-apiserver: the control plane is not available yet.',
  'Built so far: the API model and codegen (hack/update-codegen), the storage layer (runtime/storage),',
  'the client contracts (runtime/client). Missing: the core API server, the apiextensions server and',
  'the aggregator (runtime/server, runtime/endpoints, runtime/apiextensions, runtime/aggregator).',
].join('\n'));
process.exit(1);
