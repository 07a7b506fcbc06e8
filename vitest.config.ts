import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    // Tests spawn the compiled CLI: build it first (incremental).
    globalSetup: ["tests/setup/build.ts"],
    testTimeout: 60_000,
    pool: "forks",
    // Most test files wait (local servers with latency, child processes, a browser) rather than compute:
    // with one worker per core the 2-core machine sat half idle (135.6 s wall for 129 s of CPU); two
    // per core measured 79 s.
    maxWorkers: availableParallelism() * 2,
  },
});
