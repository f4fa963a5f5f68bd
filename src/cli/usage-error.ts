/** A mistake in how the command was called (a flag, a file, a setting): one line for the user, exit code 2. */
export class UsageError extends Error {
  readonly kind = 'UsageError' as const;

  /** True for a UsageError, across module copies. */
  static is(e: unknown): e is UsageError {
    return typeof e === 'object' && e !== null && (e as { kind?: unknown }).kind === 'UsageError';
  }
}
