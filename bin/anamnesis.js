#!/usr/bin/env node
// Runs the bundled CLI (dist/bundle/, built by `npm run build`, which `npm ci` and `npm install` run
// through `prepare`). Node starts it without compiling anything; each command's code loads only when it runs.
import { existsSync } from "node:fs";
import { setFlagsFromString } from "node:v8";

// Regular expressions straight to machine code: V8 otherwise interprets a new one for its first runs,
// and the red-flag signs (about 200 patterns, and their union) and the NLU's rules are mostly run a
// few times each per process. Interpreting them cost 0.6 s of the first red-flag screening and about
// 8 % of an offline consultation run's CPU; compiling them costs a tenth of that. V8 reads the flag
// when it compiles a pattern, so setting it before any is made is enough.
setFlagsFromString("--no-regexp-tier-up");

const main = new URL("../dist/bundle/cli.js", import.meta.url);
if (!existsSync(main)) {
  process.stderr.write("anamnesis: the compiled CLI is missing (dist/); run `npm run build` in the package folder\n");
  process.exit(2);
}
const { main: run } = await import(main.href);
process.exitCode = await run(process.argv.slice(2));
