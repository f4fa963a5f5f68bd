/** The one error type every AWS port implementation throws, classified so the provider can branch on it. */

/** What kind of failure an AWS call had, independent of the exact error code. */
export type AwsErrorKind =
  'Throttled' | 'NotFound' | 'InsufficientCapacity' | 'Unauthorized' | 'InvalidParameter' | 'AlreadyExists' | 'Unknown';

/** A failed AWS call: the service's error `code` (e.g. `RequestLimitExceeded`) and its classification. */
export class AwsApiError extends Error {
  readonly type = 'AwsApiError' as const;
  readonly kind: AwsErrorKind;
  readonly code: string;
  constructor(code: string, message: string, kind: AwsErrorKind = classifyAwsErrorCode(code)) {
    super(`${code}: ${message}`);
    this.name = 'AwsApiError';
    this.code = code;
    this.kind = kind;
  }
  /** True when `e` is an AwsApiError (checked by shape, so it holds across module copies). */
  static is(e: unknown): e is AwsApiError {
    return typeof e === 'object' && e !== null && (e as { type?: unknown }).type === 'AwsApiError';
  }
  /** True when `e` is an AwsApiError of kind `kind`. */
  static isKind(e: unknown, kind: AwsErrorKind): boolean {
    return AwsApiError.is(e) && e.kind === kind;
  }
}

const throttled: ReadonlySet<string> = new Set([
  'RequestLimitExceeded',
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'RequestThrottled',
]);
const capacity: ReadonlySet<string> = new Set([
  'InsufficientInstanceCapacity',
  'InsufficientCapacity',
  'InsufficientHostCapacity',
  'InsufficientReservedInstanceCapacity',
  'ReservationCapacityExceeded',
  'MaxSpotInstanceCountExceeded',
  'SpotMaxPriceTooLow',
  'UnfulfillableCapacity',
  'Unsupported',
]);
const unauthorized: ReadonlySet<string> = new Set([
  'UnauthorizedOperation',
  'AccessDenied',
  'AccessDeniedException',
  'AuthFailure',
]);

/** Maps an AWS error code (the SDK exception `name`) to its kind. */
export function classifyAwsErrorCode(code: string): AwsErrorKind {
  if (throttled.has(code)) return 'Throttled';
  if (capacity.has(code)) return 'InsufficientCapacity';
  if (unauthorized.has(code)) return 'Unauthorized';
  if (
    code.endsWith('NotFound') ||
    code.endsWith('NotFoundException') ||
    code === 'NoSuchEntity' ||
    code === 'ParameterNotFound'
  ) {
    return 'NotFound';
  }
  if (code.includes('AlreadyExists') || code === 'EntityAlreadyExists') return 'AlreadyExists';
  if (code.startsWith('Invalid') || code === 'ValidationException' || code === 'MissingParameter')
    return 'InvalidParameter';
  return 'Unknown';
}

/** Wraps anything thrown by an SDK call into an AwsApiError (SDK exceptions carry the code as `name`). */
export function toAwsApiError(e: unknown): AwsApiError {
  if (AwsApiError.is(e)) return e;
  if (e instanceof Error) return new AwsApiError(e.name === 'Error' ? 'Unknown' : e.name, e.message);
  return new AwsApiError('Unknown', String(e));
}
