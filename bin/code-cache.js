// The CLI run with V8's cached code. `npm run build` also compiles the CLI into one CommonJS file
// (`dist/bundle/cli.cjs`) and runs `npm run bench`'s command (on the validation split) through it once
// for each set of Node flags the package uses (none, and `npm run bench`'s), keeping what V8 compiled
// (`dist/code-cache/`; see write-code-caches.js). A
// later benchmark run (`bench`, which alone gains) with the same Node, flags and file loads that
// compiled code instead of parsing and compiling the CLI again. Other commands, and a run without a
// cache for them (another Node, other flags, a changed file), run from the ES module bundle; so does
// a command that may load a provider plug-in (a `--provider-module`, a `--config` or a config file),
// whose `import "anamnesis"` must find the very modules the CLI runs (one registry, one error class),
// which are the ES module bundle's.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import vm from "node:vm";

/** The CLI as one CommonJS file. */
const COMMONJS_CLI = fileURLToPath(new URL("../dist/bundle/cli.cjs", import.meta.url));
/** Where the build keeps V8's code caches. */
export const CODE_CACHE_DIR = fileURLToPath(new URL("../dist/code-cache/", import.meta.url));

/**
 * Whether a command line may load provider plug-ins: it names one, or a config file, or a config file
 * exists where `defaultConfigPath` (src/backends/config.ts) looks.
 */
export function mayLoadPlugins(argv, env = process.env) {
  if (argv.some((arg) => arg.startsWith("--provider-module") || arg.startsWith("--config"))) return true;
  if (env.ANAMNESIS_CONFIG) return true;
  return existsSync(join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "anamnesis", "config.json"));
}

/**
 * Whether a command line gains from the cached code: a benchmark run (`bench`), which runs most of the
 * code. Loading the compiled code of every command costs a start about 40 ms, more than a short command
 * (`--help`, `score`, a chat) spends compiling the little it runs from the ES module bundle.
 */
export function benefits(argv) {
  return argv[0] === "bench" && !asksOnlyForHelp(argv);
}

/**
 * Whether a command line asks only for help or the version: the ES module bundle answers those
 * loading almost nothing, where the cache would load the compiled code of every command.
 */
export function asksOnlyForHelp(argv) {
  if (argv.length === 0 || argv[0] === "help") return true;
  return argv.some((arg) => arg === "--help" || arg === "-h" || arg === "--version" || arg === "-V");
}

/** A package or builtin, not a path or URL: `@langchain/openai`, `node:os`. */
const BARE_SPECIFIER = /^(?![./]|[a-z][\w+.-]*:\/)/i;

/**
 * The import() lent to the CommonJS CLI. A package it requires elsewhere must be the same copy here, so
 * a package or builtin is required (`@langchain/core` loaded once, as CommonJS); a package that is only
 * an ES module, a path or a URL is imported.
 */
export function importerFor(require) {
  return async (specifier) => {
    if (BARE_SPECIFIER.test(specifier)) {
      try {
        return require(specifier);
      } catch (error) {
        if (error?.code !== "ERR_REQUIRE_ESM" && error?.code !== "ERR_PACKAGE_PATH_NOT_EXPORTED") throw error;
      }
    }
    return import(specifier);
  };
}

/** A CommonJS module's wrapper, as Node's own loader gives it. */
const wrap = (source) => `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;

/**
 * The cache file for this Node, these flags and this build of the file (its size and time, which a
 * rebuild changes): V8 accepts a cache only for the same Node, flags and source.
 */
function cacheFile() {
  const { size, mtimeMs } = statSync(COMMONJS_CLI);
  const key = createHash("sha1")
    .update(`${process.version}\n${process.execArgv.join(" ")}\n${size}\n${mtimeMs}`)
    .digest("hex");
  return join(CODE_CACHE_DIR, `cli-${key.slice(0, 16)}.bin`);
}

function readIfPresent(path) {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** The CommonJS CLI compiled, with V8's cached code when there is some. */
function compileCli(cachedData) {
  const source = readFileSync(COMMONJS_CLI, "utf8");
  return new vm.Script(wrap(source), { filename: COMMONJS_CLI, cachedData });
}

/**
 * Runs the CLI from the CommonJS bundle with its cached code and resolves with its exit code; resolves
 * with undefined, having run nothing, when there is no cache for this Node, these flags and this file.
 * With `write`, runs it even without a cache and writes the cache after the command.
 */
export async function runWithCodeCache(argv, { write = false } = {}) {
  if (!existsSync(COMMONJS_CLI) || !benefits(argv) || mayLoadPlugins(argv)) return undefined;
  const file = cacheFile();
  const cachedData = readIfPresent(file);
  if (cachedData === undefined && !write) return undefined;
  const script = compileCli(cachedData);
  const module = { exports: {} };
  const require = createRequire(COMMONJS_CLI);
  script.runInThisContext().call(module.exports, module.exports, require, module, COMMONJS_CLI, dirname(COMMONJS_CLI));
  // Node 20 runs no import() of a vm.Script's own code: the modules the CLI loads on demand (a
  // provider's SDK, a builtin) come through this module's.
  module.exports.lendExternalImport(importerFor(require));
  const code = await module.exports.main(argv);
  if (write) {
    mkdirSync(CODE_CACHE_DIR, { recursive: true });
    writeFileSync(`${file}.tmp`, script.createCachedData());
    renameSync(`${file}.tmp`, file);
  }
  return code;
}

/**
 * Whether this process would run the CLI with cached code: "absent" (no cache for this Node, these
 * flags and this file: it runs from the ES module bundle), "rejected" (V8 refused the cache) or
 * "accepted". For tests and diagnosis; it compiles the CLI without running it.
 */
export function codeCacheState() {
  if (!existsSync(COMMONJS_CLI)) return "absent";
  const cachedData = readIfPresent(cacheFile());
  if (cachedData === undefined) return "absent";
  return compileCli(cachedData).cachedDataRejected ? "rejected" : "accepted";
}
