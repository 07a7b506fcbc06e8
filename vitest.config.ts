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
    // One worker per core. Two per core once paid off, when test files mostly waited (a browser started
    // per file, statement vectors encoded per run); now that they mostly compute, the extra workers only
    // load the modules again and compete for the cores: on 2 cores, alternated whole runs took 141 s and
    // 146 s of wall (221 s and 243 s of CPU) with four workers, 116 s and 119 s (184 s and 189 s) with two.
    maxWorkers: availableParallelism(),
    // A worker keeps its loaded modules from one test file to the next instead of importing src/ again
    // for each file: module loading was most of the suite's worker time, and npm test ran about a
    // quarter faster on 2 cores. The tests share no mutable global state (no env changes, no module
    // mocks, provider names unique per file); files in shuffled orders pass.
    isolate: false,
    // Regular expressions compiled to machine code at once instead of interpreted for their first runs
    // (the suite runs hundreds of patterns a few times each): about a tenth less CPU for the clinical,
    // simulator and policy tests. Only as a command-line flag: set at run time (v8.setFlagsFromString),
    // after Node's own start has made patterns, it crashed about 1 process in 20 (SIGSEGV).
    //
    // Functions optimised by TurboFan only after about 15 times as much bytecode as V8's default budget
    // (66 KB): a test file runs most of its code a handful of times, and optimising it on the default
    // budget cost more compiler CPU than the optimised code gave back. tests/modules (64 files), run
    // alternately on 2 cores: 19.3 s and 18.0 s of CPU with the default, 14.5 s and 14.7 s with this.
    // Long loops still reach TurboFan (a 13 s consult-mediq bench: 0.98 of the default's CPU).
    execArgv: ["--no-regexp-tier-up", "--interrupt-budget=1000000"],
  },
});
