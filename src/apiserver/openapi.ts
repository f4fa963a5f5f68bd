/** OpenAPI documents (filled in by openapi-v3.ts / openapi-v2.ts). */
import type { Ctx } from './http-io.js';

/** Serves /openapi/v2 and /openapi/v3 paths; false for other paths. */
export function serveOpenApi(ctx: Ctx): boolean {
  void ctx;
  return false;
}
