// The in-process REST client (client-go's loopback client): requests go into a server's handler as in-memory objects.
export { LoopbackRESTClient, type LoopbackClientOptions } from './client.js';
