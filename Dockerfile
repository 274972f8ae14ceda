# syntax=docker/dockerfile:1
# rampchat: compiled in a build stage, run as plain JavaScript with production dependencies only,
# non-root, with a health check.

# The lock was made against a Linux-only mirror, so npm ci may refuse it for lacking other platforms'
# optional packages; npm install then installs the same locked versions.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund || npm install --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
# Type-checked, then bundled by esbuild into dist/ (scripts/build.mjs); the tools stay in this stage.
RUN npm run build

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only: no compiler, no tsx, no hardhat.
RUN (npm ci --omit=dev --no-audit --no-fund || npm install --omit=dev --no-audit --no-fund) \
    && npm cache clean --force

FROM node:20-bookworm-slim AS runtime
# The price charts set their words in DejaVu Sans (src/charts/render.ts); the slim image has no fonts.
RUN apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    HTTP_PORT=8080 \
    HTTP_HOST=0.0.0.0
WORKDIR /app
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --chown=node:node package.json ./
# `npm start` and `npm run doctor` (docker compose exec app npm run doctor) run the build from here.
COPY --chown=node:node scripts/start.mjs scripts/doctor.mjs ./scripts/
COPY --chown=node:node --from=build /app/dist ./dist
COPY --chown=node:node locales ./locales
COPY --chown=node:node contracts/build ./contracts/build
# The order journal (DATA_DIR); mount a volume here, shared by replicas.
RUN mkdir -p /app/data && chown node:node /app/data
ENV DATA_DIR=/app/data
USER node
EXPOSE 8080
# Readiness: /readyz answers 200 only once every route and handler exists and Redis answers (a
# starting replica answers other requests 503 with Retry-After); /healthz is liveness only.
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.HTTP_PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# A 2 MB young generation (Node's default grows it to 16 MB): measured 2026-11-28 with
# `BENCH_START_NODE_FLAGS=... npx tsx bench/run.ts start`, the bundle starts in 0.56 s at 70 MB with it
# and 0.71 s at 75 MB without; the conversation benchmark showed no change in CPU per update.
# bench/start.ts reads these flags from this line.
CMD ["node", "--max-semi-space-size=2", "dist/main.js"]
