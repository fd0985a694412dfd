# syntax=docker/dockerfile:1
# Build: docker build -t catalog-api .
# Run:   docker run -e DATABASE_URL=postgres://… -p 3000:3000 catalog-api
# The image refuses to start without DATABASE_URL (CATALOG_API_REQUIRE_DATABASE_URL=1): the embedded
# database is for trying the service and for tests, and /app is not writable by the `node` user.

FROM node:26-trixie-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY migrations ./migrations
COPY sample-data ./sample-data
# The prebuilt embedded database serves only first starts without DATABASE_URL, which this image refuses.
ENV CATALOG_API_SKIP_EMBEDDED_SEED=1
RUN npm run build && npm prune --omit=dev

FROM node:26-trixie-slim
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 CATALOG_API_REQUIRE_DATABASE_URL=1
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY sample-data ./sample-data
USER node
# 3000: the API; 9464: Prometheus metrics when METRICS_PORT=9464 is set (never on the API port).
EXPOSE 3000 9464 8081
# Slim images have no curl: Node asks /health (500 while the database is unreachable) on HEALTH_PORT
# when set, else on the API port, over HTTPS when TLS_CERT_FILE is set (the certificate names the
# service, not 127.0.0.1: it is not verified).
# No --start-period: dockerfilelint 1.8 misreads it; 3 retries 15 s apart cover a start (~2 s).
HEALTHCHECK --interval=15s --timeout=5s --retries=3 \
  CMD ["node", "-e", "const e = process.env; require(e.TLS_CERT_FILE && !e.HEALTH_PORT ? 'node:https' : 'node:http').get({ host: '127.0.0.1', port: e.HEALTH_PORT || e.PORT || 3000, path: '/health', rejectUnauthorized: false }, (r) => process.exit(r.statusCode === 200 ? 0 : 1)).on('error', () => process.exit(1))"]
# Node runs as PID 1 and receives SIGTERM itself: the service installs its own SIGTERM/SIGINT
# handlers (Nest shutdown hooks), so the kernel's PID-1 rule (signals without a handler are
# ignored) does not apply, and it starts no child processes, so there are no zombies to reap.
# No shell in between (exec form) and no init process needed; `docker run --init` does no harm.
STOPSIGNAL SIGTERM
# The V8 heap is capped well inside the manifests' 512 MiB limit: the default CACHE_BUDGET_MB (64)
# plus 96 MB of working heap fit in the old space, and the young generation is held to 3 x 8 MB
# semi-spaces (Node 24, where these figures were measured, sizes it from the old space's cap, up to
# 192 MB more: a full load then held 357 MB RSS, 306-307 MB with 16 MB semi-spaces, 289 MB with 8;
# not yet measured again on Node 26): the process stays under 300 MB RSS
# under a full load (bench/RESULTS.md). A larger CACHE_BUDGET_MB needs a larger cap (the start says so in one line).
CMD ["node", "--max-old-space-size=192", "--max-semi-space-size=8", "dist/main.js"]
