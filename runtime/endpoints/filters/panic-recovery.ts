import { isStatusError, newInternalError } from '../../apimachinery/errors/index.js';
import type { Filter } from '../../apimachinery/request/http.js';
import type { Logger } from './log.js';

const PANIC_MESSAGE = 'This request caused apiserver to panic. Look in the logs for details.';

/**
 * WithPanicRecovery: the outermost filter. Whatever the rest of the chain throws or rejects
 * with ends here and never reaches the process:
 * - a StatusError is the answer the handler meant (a 413 from readBody, say) and is written as is;
 * - anything else is logged with its stack and answered with 500 InternalError, whose message
 *   says nothing about the failure (kube's wording);
 * - once headers are out, the connection is cut so the client sees a broken response, not a
 *   truncated one that looks whole.
 */
export function withPanicRecovery(logger: Logger): Filter {
  return async (req, res, next) => {
    try {
      await next(req, res);
    } catch (err) {
      const status = isStatusError(err);
      if (!status) logger.error("apiserver panic'd", { method: req.method, URI: req.raw.url, err });
      if (res.headersSent) {
        if (!res.raw.writableEnded) res.raw.destroy();
        return;
      }
      res.writeError(status ? err : newInternalError(new Error(PANIC_MESSAGE)));
    }
  };
}
