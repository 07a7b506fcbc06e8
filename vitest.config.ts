import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    // Tests spawn the compiled CLI: build it first (incremental).
    globalSetup: ["tests/setup/build.ts"],
    testTimeout: 60_000,
    pool: "forks",
  },
});
