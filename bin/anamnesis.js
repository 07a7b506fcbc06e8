#!/usr/bin/env node
// Runs the bundled CLI (dist/bundle/, built by `npm run build`, which `npm ci` and `npm install` run
// through `prepare`). Node starts it without compiling anything; each command's code loads only when it runs.
import { existsSync } from "node:fs";

const main = new URL("../dist/bundle/cli.js", import.meta.url);
if (!existsSync(main)) {
  process.stderr.write("anamnesis: the compiled CLI is missing (dist/); run `npm run build` in the package folder\n");
  process.exit(2);
}
const { main: run } = await import(main.href);
process.exitCode = await run(process.argv.slice(2));
