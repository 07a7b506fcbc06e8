/**
 * A local model directory for the native model metrics, in the layout transformers.js and
 * `optimum-cli export onnx` use: `config.json`, `tokenizer.json` (+ `tokenizer_config.json`), and the
 * graph at `onnx/model.onnx` or `model.onnx` (with its external data file beside it, if any). Anything
 * else is refused in one line before a model is loaded.
 *
 * Its fingerprint (SHA-256 over those files) names the exact model in results and in comparison
 * records, so a record made for one export never vouches for another.
 */
import { createHash } from "node:crypto";
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { AnamnesisError } from "../../foundation/errors.ts";

/** A model directory that has what a native metric needs. */
export interface ModelDirectory {
  readonly dir: string;
  /** config.json, as parsed. */
  readonly config: Readonly<Record<string, unknown>>;
  readonly modelFile: string;
  /** `sha256:<hex>` over config.json, the tokenizer files and the ONNX graph (and its external data). */
  readonly fingerprint: string;
  /** The model's name: config.json's `_name_or_path`, else the directory's name. */
  readonly name: string;
}

const MODEL_FILES = [join("onnx", "model.onnx"), "model.onnx"];
const LAYOUT = "config.json, tokenizer.json and onnx/model.onnx, as optimum-cli export onnx writes them";

function hashFile(hash: ReturnType<typeof createHash>, path: string): void {
  const buffer = Buffer.alloc(1 << 20);
  const fd = openSync(path, "r");
  try {
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) hash.update(buffer.subarray(0, read));
  } finally {
    closeSync(fd);
  }
}

function fingerprintOf(files: readonly string[]): string {
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(`${basename(file)}\0`);
    hashFile(hash, file);
  }
  return `sha256:${hash.digest("hex")}`;
}

/**
 * Checks that a directory has a model's files, without reading them (cheap: a command checks its flags
 * with it before a long run); returns its absolute path and ONNX file, or refuses it in one line.
 */
export function checkModelDirectory(given: string, purpose: string): { dir: string; modelFile: string } {
  const dir = resolve(given);
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new AnamnesisError("FILE_NOT_FOUND", `${purpose} model directory not found: ${given}`);
  const modelFile = MODEL_FILES.map((file) => join(dir, file)).find((file) => existsSync(file));
  const missing = ["config.json", "tokenizer.json"].filter((file) => !existsSync(join(dir, file)));
  if (!modelFile) missing.push("onnx/model.onnx");
  if (missing.length > 0)
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `${given} is not a model directory for ${purpose}: it has no ${missing.join(", ")} (expected ${LAYOUT})`,
    );
  return { dir, modelFile: modelFile! };
}

/** Reads a model directory, or refuses it in one line: `purpose` names the metric that asked. */
export function readModelDirectory(given: string, purpose: string): ModelDirectory {
  const { dir, modelFile } = checkModelDirectory(given, purpose);
  let config: unknown;
  try {
    config = JSON.parse(readFileSync(join(dir, "config.json"), "utf8"));
  } catch (error) {
    throw new AnamnesisError("INVALID_JSON", `${given}/config.json is not JSON: ${(error as Error).message}`);
  }
  if (config === null || typeof config !== "object" || Array.isArray(config))
    throw new AnamnesisError("INVALID_DATA", `${given}/config.json is not a model configuration (not a JSON object)`);
  const record = config as Record<string, unknown>;
  const files = [
    join(dir, "config.json"),
    join(dir, "tokenizer.json"),
    ...["tokenizer_config.json"].map((file) => join(dir, file)).filter(existsSync),
    modelFile,
    ...[`${modelFile}_data`, `${modelFile}.data`].filter(existsSync),
  ];
  const name =
    typeof record._name_or_path === "string" && record._name_or_path !== "" ? record._name_or_path : basename(dir);
  return { dir, config: record, modelFile, fingerprint: fingerprintOf(files), name };
}
