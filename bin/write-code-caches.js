// The build's last step: runs `npm run bench`'s command (read from package.json), on the validation
// split, through the CommonJS CLI once for each set of Node flags the package uses — none, and
// `npm run bench`'s — so that each writes V8's code cache for later starts (see code-cache.js). The
// runs' output goes to a temporary folder, removed after.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CODE_CACHE_DIR } from "./code-cache.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const scripts = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts;
/** `npm run bench`'s command: `node <flags> bin/anamnesis.js <arguments>`. */
const BENCH_SCRIPT = /^node((?: --[\w-]+(?:=\S+)?)*) bin\/anamnesis\.js (.+)$/;
const bench = BENCH_SCRIPT.exec(scripts.bench);
if (!bench) throw new Error(`package.json's bench script is not 'node <flags> bin/anamnesis.js …': ${scripts.bench}`);
const flags = bench[1].trim().split(" ").filter(Boolean);
const args = bench[2].split(" ");

/** An `import(` call: `await import("node:os")`. */
const IMPORT_CALL = /(?<![\w$.])import\(/g;
// Node 20 cannot run an import() of a vm.Script's own code: every one goes through importExternal
// (src/foundation/external-import.ts), whose fallback is the only one the CommonJS bundle may hold.
const cli = readFileSync(join(root, "dist", "bundle", "cli.cjs"), "utf8");
const calls = [...cli.matchAll(IMPORT_CALL)].map((match) => cli.slice(0, match.index).split("\n").length);
if (calls.length !== 1) {
  throw new Error(`dist/bundle/cli.cjs has import() calls outside importExternal, at lines ${calls.join(", ")}`);
}

rmSync(CODE_CACHE_DIR, { recursive: true, force: true });
const out = mkdtempSync(join(tmpdir(), "anamnesis-code-cache-"));
// The same command on the validation split: the build has no business scoring the test split.
const runArgs = args.map((arg, index) =>
  args[index - 1] === "--out" ? join(out, "run") : args[index - 1] === "--split" ? "valid" : arg,
);
try {
  for (const nodeFlags of [[], flags]) {
    const run = spawnSync(process.execPath, [...nodeFlags, join(root, "bin", "anamnesis.js"), ...runArgs], {
      env: { ...process.env, ANAMNESIS_WRITE_CODE_CACHE: "1" },
      stdio: ["ignore", "ignore", "pipe"],
      encoding: "utf8",
    });
    if (run.status !== 0) {
      throw new Error(`writing the code cache: the benchmark exited with ${run.status}: ${run.stderr}`);
    }
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
