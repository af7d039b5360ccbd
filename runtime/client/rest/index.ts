// The REST client over HTTP(S) (client-go's rest package).
export { decodeSuccess, encodeBody, HTTPRESTClient, isJSON, restClientForConfig } from './client.js';
export { completeRESTConfig, realClock, RESTConfigError } from './config.js';
export type { BackoffOptions, Clock, CompletedRESTConfig, RESTClientOptions, RESTConfig, TLSClientConfig } from './config.js';
export { FileTokenSource, TOKEN_FILE_PERIOD_MS } from './auth.js';
export { DecodeError, decodeObject, decodeWatchEvent } from './decode.js';
export { statusErrorFromResponse, TransportError } from './errors.js';
export { backoffDelay, retryAfterSeconds } from './retry.js';
export { defaultUserAgent } from './user-agent.js';
export { noWarnings, parseWarningHeaders, warningLogger } from './warnings.js';
export type { Warning, WarningHandler } from './warnings.js';
export { StreamWatch, type WatchBody } from './watch.js';
