/** metav1.Status failures with the reasons and codes kube-apiserver uses. */
import type { Json } from './types.js';

/** One cause of an Invalid status. */
export interface StatusCause {
  reason: string;
  message: string;
  field?: string;
}

/** The details block of a Status. */
export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** A failure that becomes a metav1.Status response. */
export class ApiError extends Error {
  /** Builds a failure with an HTTP code, a Status reason and optional details. */
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
  }

  /** The Status body. */
  toStatus(): Json {
    const s: Json = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      code: this.code,
    };
    // kube-apiserver leaves the reason out of a failure it has no reason for (an internal error's Status).
    if (!this.reason) delete s.reason;
    if (this.details) s.details = this.details;
    return s;
  }
}

/** What a failure is about: kind, group and name as kube-apiserver qualifies them. */
export interface Subject {
  kind: string;
  group: string;
  name: string;
  /** The plural (resource) name, used in NotFound/AlreadyExists texts: `pods "x" not found`. */
  resource: string;
}

function qualified(s: Subject): string {
  return s.group ? `${s.resource}.${s.group}` : s.resource;
}

/** 404 `pods "x" not found`. */
export function notFound(s: Subject): ApiError {
  return new ApiError(404, 'NotFound', `${qualified(s)} ${JSON.stringify(s.name)} not found`, {
    name: s.name,
    group: s.group,
    kind: s.resource,
  });
}

/** 409 `pods "x" already exists`. */
export function alreadyExists(s: Subject): ApiError {
  return new ApiError(409, 'AlreadyExists', `${qualified(s)} ${JSON.stringify(s.name)} already exists`, {
    name: s.name,
    group: s.group,
    kind: s.resource,
  });
}

/** 409 Conflict, as for a stale resourceVersion. */
export function conflict(s: Subject, why: string): ApiError {
  return new ApiError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualified(s)} ${JSON.stringify(s.name)}: ${why}`,
    {
      name: s.name,
      group: s.group,
      kind: s.resource,
    },
  );
}

/** The upstream text of a stale-resourceVersion conflict. */
export const staleObjectText =
  'the object has been modified; please apply your changes to the latest version and try again';

/** 422 Invalid with one cause per field error. */
export function invalidError(s: Subject, message: string, causes: StatusCause[]): ApiError {
  return new ApiError(422, 'Invalid', message, { name: s.name, group: s.group, kind: s.kind, causes });
}

/** 400 BadRequest. */
export function badRequest(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message);
}

/** 405 MethodNotAllowed. */
export function methodNotAllowed(
  message = 'the server does not allow this method on the requested resource',
): ApiError {
  return new ApiError(405, 'MethodNotAllowed', message);
}

/** 410 Gone for a watch or list from a compacted resourceVersion. */
export function gone(rv: string, oldest?: number): ApiError {
  return new ApiError(410, 'Expired', `too old resource version: ${rv}${oldest === undefined ? '' : ` (${oldest})`}`);
}

/** The parse failure kube-apiserver reports for a resourceVersion that is not a number. */
export function malformedRvText(rv: string): string {
  return `resourceVersion: Invalid value: ${JSON.stringify(rv)}: strconv.ParseUint: parsing ${JSON.stringify(rv)}: invalid syntax`;
}

/** 403 Forbidden. */
export function forbiddenError(s: Subject, why: string): ApiError {
  return new ApiError(403, 'Forbidden', `${qualified(s)} ${JSON.stringify(s.name)} is forbidden: ${why}`, {
    name: s.name,
    group: s.group,
    kind: s.resource,
  });
}

/** 415 UnsupportedMediaType. */
export function unsupportedMediaType(_contentType: string): ApiError {
  return new ApiError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml`,
  );
}

/** 401 Unauthorized. */
export function unauthorized(): ApiError {
  return new ApiError(401, 'Unauthorized', 'Unauthorized');
}
