# syntax=docker/dockerfile:1
# The MFA self-service portal as one container: the Fastify server (compiled ahead of time into
# apps/server/dist by `npm run build`) serving the built web application. Multi-stage: the builds and
# the dev dependencies stay behind.

ARG NODE_IMAGE=node:26-bookworm-slim

# 1. Build the web application and the server (needs every workspace's dev dependencies).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY scripts/build-server.ts scripts/
COPY packages/shared packages/shared
COPY apps/server/src apps/server/src
COPY apps/web apps/web
COPY locales locales
RUN npm run build

# 2. Runtime dependencies of the server only.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
RUN npm ci --omit=dev --no-audit --no-fund --workspace apps/server --workspace packages/shared

# 3. The image: no compiler, no web toolchain, not root.
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8443 \
    DATA_DIR=/data \
    SHUTDOWN_DELAY_SECONDS=5 \
    NODE_OPTIONS=--enable-source-maps
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
COPY package.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/server/package.json apps/server/
COPY --from=build /app/apps/server/dist apps/server/dist
COPY locales locales
COPY --from=build /app/apps/web/dist apps/web/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8443
# Liveness: the process answers /healthz (no database call); TLS=off answers over plain HTTP.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "const m=process.env.TLS==='off'?require('node:http'):require('node:https');m.get({host:'127.0.0.1',port:process.env.PORT||8443,path:'/healthz',rejectUnauthorized:false,timeout:2000},r=>process.exit(r.statusCode===200?0:1)).on('error',()=>process.exit(1))"
STOPSIGNAL SIGTERM
CMD ["node", "apps/server/dist/server.js"]
