#!/usr/bin/env node
// Runs before `npm test` (the pretest script): installs what the tests need beyond package.json, so that
// `npm ci && npm test` works on a fresh machine.
// - node-llama-cpp (optional for users, loaded only for llamacpp: ids): its CPU build alone (83 MB) into
//   a side prefix, linked into node_modules. A plain install pulls ~730 MB of GPU builds, and
//   --omit=optional inside the project would drop esbuild's and rolldown's platform binaries.
// - @huggingface/transformers (optional for users, loaded only for the native BERTScore/BLEURT) with
//   the onnxruntime-node it depends on, into a side prefix linked as .cache/transformers-js:
//   onnxruntime-node's install script downloads CUDA binaries from a host this machine cannot reach, so
//   it is skipped (ONNXRUNTIME_NODE_INSTALL=skip; the CPU binaries ship inside the package). Nothing is
//   linked into node_modules: src/metrics/onnx/transformers-runtime.ts looks in .cache/transformers-js first.
// - Debian's chromium for the browser tests (playwright-core never downloads a browser): installed with
//   apt-get when missing and running as root; otherwise the browser tests fail with instructions.
// The side prefixes are installed once per machine and version (as Playwright keeps its browsers), in
// the user's cache folder (`$ANAMNESIS_CACHE_DIR`, else `$XDG_CACHE_HOME/anamnesis`, else
// `~/.cache/anamnesis`) under `test-tools/`, and linked into each checkout's `.cache/`: a fresh clone's
// first `npm test` does not spend a minute on npm installs a clone before it already made.
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const LLAMA_VERSION = "3.21.1";
const TRANSFORMERS_VERSION = "4.3.2";
// The cache directory as `defaultCacheDir` (src/backends/response-cache.ts) names it; a plain script cannot import the TypeScript.
const machineCache =
  process.env.ANAMNESIS_CACHE_DIR || join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "anamnesis");
const toolsDir = join(machineCache, "test-tools");

function run(command, args, env = process.env) {
  execFileSync(command, args, { stdio: ["ignore", "inherit", "inherit"], cwd: root, env });
}

/** Whether a path exists as a file, a folder or a link (a dangling link too). */
function present(path) {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Replaces whatever is at `link` by a symbolic link to `target`. */
function linkTo(link, target) {
  if (present(link)) rmSync(link, { recursive: true, force: true });
  mkdirSync(join(link, ".."), { recursive: true });
  symlinkSync(target, link);
}

/**
 * The side prefix `name` under the machine's test tools, with `packages` installed by npm (with `flags`)
 * when the first of them is missing: installed into a folder of its own, then renamed into place, so that
 * an interrupted install or two checkouts installing at once never leave a half-made prefix.
 */
function sidePrefix(name, packages, { flags = [], env = process.env } = {}) {
  const prefix = join(toolsDir, name);
  // "@scope/name@1.2.3" → "@scope/name": the package whose manifest says the prefix is installed.
  const first = packages[0].slice(0, packages[0].lastIndexOf("@"));
  const check = join("node_modules", first, "package.json");
  if (existsSync(join(prefix, check))) return prefix;
  console.error(`pretest: installing ${packages.join(" ")} into ${prefix} (once per machine) for the tests`);
  mkdirSync(toolsDir, { recursive: true });
  const building = mkdtempSync(join(toolsDir, `.${name}-`));
  try {
    run(
      "npm",
      [
        "install",
        "--prefix",
        building,
        "--no-save",
        "--no-package-lock",
        "--no-audit",
        "--no-fund",
        ...flags,
        ...packages,
      ],
      env,
    );
    if (!existsSync(join(prefix, check))) {
      rmSync(prefix, { recursive: true, force: true });
      renameSync(building, prefix);
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return prefix;
}

const llama = sidePrefix(
  `node-llama-cpp-${LLAMA_VERSION}`,
  [`node-llama-cpp@${LLAMA_VERSION}`, `@node-llama-cpp/linux-${process.arch}@${LLAMA_VERSION}`],
  { flags: ["--omit=optional"] },
);
// npm ci / npm install prune the link: recreate it every time.
linkTo(join(root, "node_modules", "node-llama-cpp"), join(llama, "node_modules", "node-llama-cpp"));

const transformers = sidePrefix(
  `transformers-js-${TRANSFORMERS_VERSION}`,
  [`@huggingface/transformers@${TRANSFORMERS_VERSION}`],
  {
    env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: "skip" },
  },
);
linkTo(join(root, ".cache", "transformers-js"), transformers);

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromium)) {
  const canInstall = process.getuid?.() === 0 && existsSync("/usr/bin/apt-get");
  if (canInstall) {
    console.error("pretest: installing Debian's chromium for the browser tests (apt-get install chromium)");
    run("apt-get", ["update", "-qq"]);
    execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  } else {
    console.error(
      `pretest: no chromium at ${chromium}; the browser tests will fail. Install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH.`,
    );
  }
}
