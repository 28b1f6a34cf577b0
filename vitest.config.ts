import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Integration tests run real servers on 127.0.0.1; a slow CI box needs headroom.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
  },
});
