#!/usr/bin/env node
// Runs the bundled CLI (dist/bundle/, built by `npm run build`, which `npm ci` and `npm install` run
// through `prepare`). Node starts it without compiling anything; each command's code loads only when it runs.
import { existsSync } from "node:fs";
import { setFlagsFromString } from "node:v8";

// The engine runs a few hundred large regular expressions (word lists joined into alternations) only a
// handful of times each. V8's default compiles each one to bytecode first and again to machine code on
// its second run, so most were compiled twice; compiled straight to machine code, `npm run bench` spent
// about 10 % less CPU. Matching is the same either way (only how V8 executes the pattern changes).
setFlagsFromString("--no-regexp-tier-up");

const main = new URL("../dist/bundle/cli.js", import.meta.url);
if (!existsSync(main)) {
  process.stderr.write("anamnesis: the compiled CLI is missing (dist/); run `npm run build` in the package folder\n");
  process.exit(2);
}
const { main: run } = await import(main.href);
process.exitCode = await run(process.argv.slice(2));
