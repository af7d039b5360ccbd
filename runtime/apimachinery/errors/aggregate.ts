/**
 * The message of Go's utilerrors.NewAggregate(errs).Error(): '' for none, the one message alone,
 * else the distinct messages in order, `[a, b]` (a message met twice is printed once).
 */
export function aggregateMessage(errors: readonly unknown[]): string {
  const messages = [...new Set(errors.map((e) => (e instanceof Error ? e.message : String(e))))];
  return messages.length === 1 ? (messages[0] ?? '') : messages.length === 0 ? '' : `[${messages.join(', ')}]`;
}
