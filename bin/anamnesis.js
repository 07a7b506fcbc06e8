#!/usr/bin/env node
// Runs the bundled CLI (dist/bundle/, built by `npm run build`, which `npm ci` and `npm install` run
// through `prepare`): with V8's cached code when the build made a cache for this Node and these flags
// (see code-cache.js), else from the ES module bundle, whose commands' code loads only when they run.
import { existsSync } from "node:fs";
import { runWithCodeCache } from "./code-cache.js";

const main = new URL("../dist/bundle/cli.js", import.meta.url);
if (!existsSync(main)) {
  process.stderr.write("anamnesis: the compiled CLI is missing (dist/); run `npm run build` in the package folder\n");
  process.exit(2);
}
const argv = process.argv.slice(2);
const cached = await runWithCodeCache(argv, { write: process.env.ANAMNESIS_WRITE_CODE_CACHE === "1" });
if (cached !== undefined) process.exitCode = cached;
else {
  const { main: run } = await import(main.href);
  process.exitCode = await run(argv);
}
