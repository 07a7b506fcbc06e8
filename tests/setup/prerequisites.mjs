#!/usr/bin/env node
// Runs before `npm test` (the pretest script): installs what the tests need beyond package.json, so that
// `npm ci && npm test` works on a fresh machine.
// - node-llama-cpp (optional for users, loaded only for llamacpp: ids): its CPU build alone (83 MB) into
//   a side prefix, linked into node_modules. A plain install pulls ~730 MB of GPU builds, and
//   --omit=optional inside the project would drop esbuild's and rolldown's platform binaries.
// - @huggingface/transformers (optional for users, loaded only for the native BERTScore/BLEURT) with
//   the onnxruntime-node it depends on, into the side prefix .cache/transformers-js: onnxruntime-node's
//   install script downloads CUDA binaries from a host this machine cannot reach, so it is skipped
//   (ONNXRUNTIME_NODE_INSTALL=skip; the CPU binaries ship inside the package). Nothing is linked into
//   node_modules: src/metrics/onnx/transformers-runtime.ts looks in the side prefix first.
// - Debian's chromium for the browser tests (playwright-core never downloads a browser): installed with
//   apt-get when missing and running as root; otherwise the browser tests fail with instructions.
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const LLAMA_VERSION = "3.21.1";
const sidePrefix = join(root, ".cache", "node-llama-cpp");
const sidePackage = join(sidePrefix, "node_modules", "node-llama-cpp");
const link = join(root, "node_modules", "node-llama-cpp");

function run(command, args) {
  execFileSync(command, args, { stdio: ["ignore", "inherit", "inherit"], cwd: root });
}

if (!existsSync(join(sidePackage, "package.json"))) {
  console.error(
    `pretest: installing node-llama-cpp@${LLAMA_VERSION} (CPU build) into .cache/node-llama-cpp for the llamacpp tests`,
  );
  mkdirSync(sidePrefix, { recursive: true });
  run("npm", [
    "install",
    "--prefix",
    sidePrefix,
    "--no-save",
    "--no-package-lock",
    "--omit=optional",
    "--no-audit",
    "--no-fund",
    `node-llama-cpp@${LLAMA_VERSION}`,
    `@node-llama-cpp/linux-${process.arch}@${LLAMA_VERSION}`,
  ]);
}
// npm ci / npm install prune the link: recreate it every time.
if (
  existsSync(link) ||
  (() => {
    try {
      return lstatSync(link).isSymbolicLink();
    } catch {
      return false;
    }
  })()
)
  rmSync(link, { recursive: true, force: true });
symlinkSync(join("..", ".cache", "node-llama-cpp", "node_modules", "node-llama-cpp"), link);

const TRANSFORMERS_VERSION = "4.3.2";
const transformersPrefix = join(root, ".cache", "transformers-js");
if (!existsSync(join(transformersPrefix, "node_modules", "@huggingface", "transformers", "package.json"))) {
  console.error(
    `pretest: installing @huggingface/transformers@${TRANSFORMERS_VERSION} (onnxruntime-node's install script skipped) into .cache/transformers-js for the native model-metric tests`,
  );
  mkdirSync(transformersPrefix, { recursive: true });
  execFileSync(
    "npm",
    [
      "install",
      "--prefix",
      transformersPrefix,
      "--no-save",
      "--no-package-lock",
      "--no-audit",
      "--no-fund",
      `@huggingface/transformers@${TRANSFORMERS_VERSION}`,
    ],
    { stdio: ["ignore", "inherit", "inherit"], cwd: root, env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: "skip" } },
  );
}

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
