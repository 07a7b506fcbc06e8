import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    // Tests spawn the compiled CLI: build it first (incremental).
    globalSetup: ["tests/setup/build.ts"],
    testTimeout: 60_000,
    // Setup hooks load native models and start servers, as tests do: the same allowance.
    hookTimeout: 60_000,
    pool: "forks",
    // Most test files wait (local servers with latency, child processes, a browser) rather than compute:
    // with one worker per core the 2-core machine sat half idle (135.6 s wall for 129 s of CPU); two
    // per core measured 79 s.
    maxWorkers: availableParallelism() * 2,
    // A worker keeps its loaded modules from one test file to the next instead of importing src/ again
    // for each file: module loading was most of the suite's worker time, and npm test ran about a
    // quarter faster on 2 cores. The tests share no mutable global state (no env changes, no module
    // mocks, provider names unique per file); files in shuffled orders pass.
    isolate: false,
    // Regular expressions compiled to machine code at once instead of interpreted for their first runs
    // (the suite runs hundreds of patterns a few times each): about a tenth less CPU for the clinical,
    // simulator and policy tests. Only as a command-line flag: set at run time (v8.setFlagsFromString),
    // after Node's own start has made patterns, it crashed about 1 process in 20 (SIGSEGV).
    execArgv: ["--no-regexp-tier-up"],
  },
});
