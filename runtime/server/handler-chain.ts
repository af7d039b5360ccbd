import { withAudit, withAuditInit, withFailedAuthenticationAudit } from '../endpoints/filters/audit.js';
import { unauthorizedHandler, withAuthentication } from '../endpoints/filters/authentication.js';
import { withAuthorization } from '../endpoints/filters/authorization.js';
import { withCacheControl } from '../endpoints/filters/cachecontrol.js';
import { withImpersonation } from '../endpoints/filters/impersonation.js';
import { withMaxInFlightLimit } from '../endpoints/filters/maxinflight.js';
import { withRequestMetrics } from '../endpoints/filters/metrics.js';
import { withPanicRecovery } from '../endpoints/filters/panic-recovery.js';
import { withRequestInfo } from '../endpoints/filters/requestinfo.js';
import { withRetryAfter } from '../endpoints/filters/retryafter.js';
import { withRequestTimeout } from '../endpoints/filters/timeout.js';
import { withWaitGroup } from '../endpoints/filters/waitgroup.js';
import type { CompletedConfig } from './config.js';
import { withFilters, type Filter, type Handler } from '../apimachinery/request/http.js';

/**
 * DefaultBuildHandlerChain: kube-apiserver's filters around a server's handler, outermost
 * first. Each filter may rely on everything set before it (RequestInfo from the second on, the
 * user after authentication).
 *
 * 1. audit init: `Audit-Id` on every response
 * 2. panic recovery: throws and rejections → Status (500 for anything not a Status)
 * 3. request info
 * 4. request metrics (kube records these in each route; here once for every answer)
 * 5. cache control
 * 6. retry-after (with --shutdown-send-retry-after): 429 to new requests once shutdown stops
 *    accepting them
 * 7. wait group: in-flight tracking for graceful shutdown; 503 once draining
 * 8. request deadline and timeout: 504, `timeout` query; long-running exempt
 * 9. authentication: 401 (audited when a sink is set)
 * 10. audit
 * 11. impersonation: Impersonate-* headers, each authorized as the real user (403, 400)
 * 12. max in flight: 429 + Retry-After (counted from the moment node parsed the request)
 * 13. authorization: 403
 * (kube's CORS, HSTS, APF and the warning recorder have no counterpart here; warnings are
 * APIResponse.addWarning.)
 */
export function buildHandlerChain(handler: Handler, config: CompletedConfig): Handler {
  const { logger, longRunning, auditSink } = config;
  const failedAuthentication = auditSink ? withFailedAuthenticationAudit(unauthorizedHandler, { sink: auditSink, logger }) : unauthorizedHandler;
  const filters: Filter[] = [
    withAuditInit(),
    withPanicRecovery(logger),
    withRequestInfo(),
    withRequestMetrics(config.metrics),
    withCacheControl(),
    ...(config.shutdownSendRetryAfter ? [withRetryAfter(config.lifecycleSignals.notAcceptingNewRequest)] : []),
    withWaitGroup(config.nonLongRunningRequestWaitGroup, longRunning),
    withRequestTimeout({ requestTimeoutMs: config.requestTimeoutMs, longRunning, logger }),
    withAuthentication({ authenticator: config.authenticator, logger, failed: failedAuthentication }),
    ...(auditSink ? [withAudit({ sink: auditSink, logger })] : []),
    withImpersonation(config.authorizer, logger),
    withMaxInFlightLimit({
      maxRequestsInFlight: config.maxRequestsInFlight,
      maxMutatingRequestsInFlight: config.maxMutatingRequestsInFlight,
      longRunning,
      requestsInFlight: config.requestsInFlight,
    }),
    withAuthorization(config.authorizer, logger),
  ];
  return withFilters(filters, handler);
}
