# mm: build the TypeScript once, ship only the runtime dependencies and the compiled output.
FROM node:20-bookworm-slim AS build
# better-sqlite3 (the journal) compiles its native addon when no prebuilt binary can be fetched.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY strategies ./strategies
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
COPY config ./config
# The journal defaults to ~/.local/share/mm/journal.sqlite: mount a volume at
# /home/node/.local/share/mm to keep it across containers. The folder exists in the image owned by
# node: Docker gives a new named volume the ownership of the folder it is mounted on, and one it
# has to create is root's, where node could write neither the journal nor the account lock.
RUN mkdir -p /home/node/.local/share/mm && chown -R node:node /home/node/.local
# Secrets come from the environment (MM_API_KEY, MM_PRIVATE_KEY) or mounted files, never the image.
# Run it with an init and a stop timeout above shutdown.timeoutMs (`docker run --init --stop-timeout 30`,
# compose `init: true` and `stop_grace_period: 30s`): see README, Observability ("The stack").
USER node
ENTRYPOINT ["node", "bin/mm.js"]
CMD ["--help"]
