# syntax=docker/dockerfile:1
# Build: docker build -t catalog-api .
# Run:   docker run -e DATABASE_URL=postgres://… -p 3000:3000 catalog-api
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY migrations ./migrations
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY sample-data ./sample-data
USER node
EXPOSE 3000
CMD ["node", "dist/main.js"]
