// Work queues and the reconcile loop (client-go's util/workqueue, controller-runtime's loop).
export { type Clock, FakeClock, realClock, type TimerHandle } from './clock.js';
export { Queue, type GetResult, type WorkQueue } from './queue.js';
export { DelayingQueue, type DelayingQueueOptions, type DelayingWorkQueue } from './delaying.js';
export { BucketRateLimiter, defaultControllerRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter, type RateLimiter } from './rate-limiter.js';
export { RateLimitingQueue, type RateLimitingQueueOptions, type RateLimitingWorkQueue } from './rate-limiting.js';
export { TokenBucket } from './token-bucket.js';
export { runController, type ControllerOptions, type ReconcileResult } from './controller.js';
