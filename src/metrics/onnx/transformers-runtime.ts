/**
 * The optional runtime of the native model metrics: `@huggingface/transformers` (its tokenizers) and
 * the `onnxruntime-node` it depends on (the ONNX sessions). Neither is a dependency of Anamnesis (they
 * weigh about 475 MB); they are imported only when a native BERTScore or BLEURT is asked for, never at
 * start-up.
 *
 * Where they are looked for, in order: a side prefix `.cache/transformers-js/` under the package's root
 * (where `npm test`'s prerequisites install them, so that nothing is linked into `node_modules`), then
 * a normal import, for a user who installed `@huggingface/transformers` in their project.
 * onnxruntime-node is resolved from wherever transformers.js was found.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { AnamnesisError } from "../../foundation/errors.ts";
import { bundledPath } from "../../foundation/package-paths.ts";
import { importExternal } from "../../foundation/external-import.ts";

/** The versions the native path is tested with. */
export const TRANSFORMERS_JS_VERSION = "4.3.2";

/** How to install the runtime: onnxruntime-node's install script (a CUDA download) must be skipped. */
export const TRANSFORMERS_JS_INSTALL_HINT = `install it with ONNXRUNTIME_NODE_INSTALL=skip npm install @huggingface/transformers@${TRANSFORMERS_JS_VERSION} (docs/metrics.md)`;

/** The part of transformers.js's tokenizer used here (typed locally so tsc passes without the package). */
export interface Tokenizer {
  encode(text: string, options?: { text_pair?: string | null; add_special_tokens?: boolean }): number[];
  convert_tokens_to_ids(tokens: string): number;
  readonly model_max_length: number;
  readonly pad_token_id: number | null | undefined;
  readonly sep_token_id: number | null | undefined;
  readonly config: Readonly<Record<string, unknown>>;
}

/** An onnxruntime tensor. */
export interface OrtTensor {
  readonly dims: readonly number[];
  readonly data: ArrayLike<number> | BigInt64Array;
}

/** An onnxruntime inference session. */
export interface OrtSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  /** Runs the graph; `fetches` names the outputs to compute (default: all). */
  run(feeds: Record<string, OrtTensor>, fetches?: readonly string[]): Promise<Record<string, OrtTensor>>;
}

/** What the native metrics use of the two packages, and their versions for the results. */
export interface ModelRuntime {
  loadTokenizer(dir: string): Promise<Tokenizer>;
  createSession(modelFile: string): Promise<OrtSession>;
  int64Tensor(values: readonly number[], dims: readonly number[]): OrtTensor;
  readonly versions: { readonly transformersJs: string; readonly onnxruntimeNode: string };
}

interface TransformersModule {
  env: { allowRemoteModels: boolean };
  AutoTokenizer: { from_pretrained(dir: string, options: { local_files_only: boolean }): Promise<Tokenizer> };
}
interface OrtModule {
  InferenceSession: { create(path: string, options?: object): Promise<OrtSession> };
  Tensor: new (type: "int64", data: BigInt64Array, dims: readonly number[]) => OrtTensor;
}

/** The ES module entry and version of a package, read from its package.json. */
function moduleEntry(packageJson: string, conditions: readonly string[]): { url: string; version: string } {
  const manifest = JSON.parse(readFileSync(packageJson, "utf8")) as {
    version: string;
    main?: string;
    exports?: Record<string, unknown>;
  };
  let entry: unknown = manifest.exports?.["."] ?? manifest.exports;
  for (const condition of conditions) {
    if (entry && typeof entry === "object" && condition in entry) entry = (entry as Record<string, unknown>)[condition];
  }
  const path = typeof entry === "string" ? entry : (manifest.main ?? "index.js");
  return { url: pathToFileURL(join(dirname(packageJson), path)).href, version: manifest.version };
}

/** transformers.js's package.json: the side prefix's, else the one a normal import would find. */
function transformersManifest(): string | undefined {
  const side = bundledPath(".cache", "transformers-js", "node_modules", "@huggingface", "transformers", "package.json");
  if (existsSync(side)) return side;
  try {
    return createRequire(bundledPath("package.json")).resolve("@huggingface/transformers/package.json");
  } catch {
    return undefined;
  }
}

let loading: Promise<ModelRuntime> | undefined;

async function importRuntime(): Promise<ModelRuntime> {
  const manifest = transformersManifest();
  if (!manifest)
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `the native model metrics need the optional package @huggingface/transformers, which is not installed; ${TRANSFORMERS_JS_INSTALL_HINT}`,
    );
  const transformersEntry = moduleEntry(manifest, ["node", "import", "default"]);
  const ortManifest = createRequire(manifest).resolve("onnxruntime-node/package.json");
  const ortEntry = moduleEntry(ortManifest, ["node", "import", "default"]);
  const transformers = await importExternal<TransformersModule>(transformersEntry.url);
  const ortModule = await importExternal<OrtModule & { default?: OrtModule }>(ortEntry.url);
  const ort = ortModule.InferenceSession ? ortModule : ortModule.default!;
  // Models come only from directories the user names: never from the network.
  transformers.env.allowRemoteModels = false;
  return {
    loadTokenizer: (dir) => transformers.AutoTokenizer.from_pretrained(dir, { local_files_only: true }),
    createSession: (modelFile) => ort.InferenceSession.create(modelFile, { graphOptimizationLevel: "all" }),
    int64Tensor: (values, dims) =>
      new ort.Tensor(
        "int64",
        BigInt64Array.from(values, (value) => BigInt(value)),
        dims,
      ),
    versions: { transformersJs: transformersEntry.version, onnxruntimeNode: ortEntry.version },
  };
}

/** Imports transformers.js and onnxruntime-node once, or explains in one line how to install them. */
export function loadModelRuntime(): Promise<ModelRuntime> {
  loading ??= importRuntime().catch((error: unknown) => {
    loading = undefined;
    if (error instanceof AnamnesisError) throw error;
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `@huggingface/transformers failed to load (${(error as Error).message.split("\n")[0]}); ${TRANSFORMERS_JS_INSTALL_HINT}`,
      { cause: error },
    );
  });
  return loading;
}
