# syntax=docker/dockerfile:1
# The controller image: `tenon controller` on Node's LTS line, production dependencies only, as a non-root user.
# test/image/layout.test.ts lays the files out the way this file does and runs the entrypoint from there.

# Build: every dependency (esbuild among them) to transpile src/ into dist/.
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY scripts ./scripts
COPY src ./src
RUN node scripts/build.mjs --outdir /out/dist --src-only

# Production dependencies only: what the built code imports at run time.
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# Run: no shell, no package manager; uid 65532 as the chart's securityContext expects.
FROM gcr.io/distroless/nodejs24-debian12:nonroot
WORKDIR /app
ENV NODE_ENV=production
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /out/dist ./dist
COPY package.json ./
COPY data ./data
COPY scenarios ./scenarios
USER 65532:65532
EXPOSE 8080 8081
ENTRYPOINT ["/nodejs/bin/node", "dist/src/cli/main.js", "controller"]
