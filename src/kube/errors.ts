/** The body of a Kubernetes Status error response, as far as Tenon reads it. */
export interface StatusBody {
  kind?: string;
  status?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: { name?: string; kind?: string; causes?: Array<{ field?: string; message?: string; reason?: string }> };
}

/** An error the API server answered with; `code` is the HTTP status and `reason` the Status reason. */
export class KubeApiError extends Error {
  readonly kind = 'KubeApiError' as const;
  /** Builds the error from a response's status code and parsed body. */
  constructor(
    readonly code: number,
    readonly status: StatusBody,
    readonly verb: string,
  ) {
    super(`${verb}: ${code} ${status.reason ?? ''}: ${status.message ?? ''}`.trim());
  }

  /** True for any KubeApiError, across module copies. */
  static is(e: unknown): e is KubeApiError {
    return typeof e === 'object' && e !== null && (e as { kind?: unknown }).kind === 'KubeApiError';
  }
}

/** 409 Conflict: the object changed since it was read (stale resourceVersion). */
export function isConflict(e: unknown): boolean {
  return KubeApiError.is(e) && e.code === 409 && e.status.reason === 'Conflict';
}

/** 409 AlreadyExists. */
export function isAlreadyExists(e: unknown): boolean {
  return KubeApiError.is(e) && e.code === 409 && e.status.reason === 'AlreadyExists';
}

/** 404 NotFound. */
export function isNotFound(e: unknown): boolean {
  return KubeApiError.is(e) && e.code === 404;
}

/** 410 Gone: a watch or list resourceVersion is too old. */
export function isGone(e: unknown): boolean {
  return KubeApiError.is(e) && e.code === 410;
}

/** 429 TooManyRequests (also an eviction refused by a PodDisruptionBudget). */
export function isTooManyRequests(e: unknown): boolean {
  return KubeApiError.is(e) && e.code === 429;
}

/** Swallows NotFound, rethrows anything else; for deletes of things that may be gone already. */
export function ignoreNotFound(e: unknown): void {
  if (!isNotFound(e)) throw e;
}
