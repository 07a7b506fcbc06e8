/**
 * The backend contract: the checks every Anamnesis backend passes — ours (OpenAI, Ollama, llama.cpp,
 * LangChain) and a plug-in's. Framework-free (node:assert), so a plug-in author runs it from any test
 * runner, or with none:
 *
 * ```js
 * import { checkBackend, formatContractReport } from "anamnesis/testing";
 * const report = await checkBackend(async () => ({ backend: await createBackend("mine:model"), dispose: async () => {} }));
 * console.log(formatContractReport(report));
 * process.exitCode = report.failed.length > 0 ? 1 : 0;
 * ```
 * Checks that need something a subject may not offer (a scriptable model, a secret, embeddings) are
 * skipped, with the reason, when it does not.
 */
import assert from "node:assert/strict";
import * as z from "zod";
import { describeBackend } from "../backends/run-record.ts";
import { SPECIFICATION_VERSION, type ChatBackend, type GenerateOptions } from "../backends/spec.ts";

/** A reply the model under test is made to give: text, or an HTTP-style failure with a message. */
export type ScriptedReply = { readonly text: string } | { readonly status: number; readonly message: string };

/** A backend under test, with what the contract needs to see around it. */
export interface ContractSubject {
  readonly backend: ChatBackend;
  /** Requests the model server has received so far (omit for in-process models): checks cache hits. */
  readonly requestCount?: () => number;
  /** The secret (API key) the backend was configured with: must never show in records or errors. */
  readonly secret?: string;
  /**
   * Makes the model's next replies these, in order (then back to normal). Offered by subjects whose
   * model the test controls (a local fake server); enables the repair, format-error and error checks.
   */
  readonly scriptReplies?: (replies: readonly ScriptedReply[]) => void;
  /** Stops servers, removes the cache directory. */
  readonly dispose: () => Promise<void>;
}

/** Options of the contract. */
export interface ContractOptions {
  /** Keeps generation short for slow backends. */
  readonly maxTokens?: number;
}

/** Thrown by a check that does not apply to a subject; runners report it as skipped. */
export class ContractSkip extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "ContractSkip";
  }
}

/** One check of the contract. `run` throws (an assertion error) when the subject fails it. */
export interface ContractCheck {
  readonly name: string;
  run(subject: ContractSubject, options: ContractOptions): Promise<void>;
}

/** A small MediTOD-flavoured schema every backend must be able to fill. */
export const contractSchema = z.object({
  intent: z.enum(["inform", "chit-chat"]),
  positive: z.boolean(),
});

const MESSAGES = [
  { role: "system", content: "You are a terse assistant." },
  { role: "user", content: "The patient has had a cough for two days." },
] as const;

function generation(options: ContractOptions): GenerateOptions {
  return { temperature: 0, ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}) };
}

function scripting(subject: ContractSubject): NonNullable<ContractSubject["scriptReplies"]> {
  if (!subject.scriptReplies) throw new ContractSkip("the subject cannot script its model's replies (scriptReplies)");
  return subject.scriptReplies;
}

function specShape({ backend }: ContractSubject): void {
  assert.equal(backend.specificationVersion, SPECIFICATION_VERSION);
  assert.ok(
    backend.id.startsWith(`${backend.provider}:`) || backend.id === backend.provider,
    `id ${backend.id} does not start with its provider ${backend.provider}`,
  );
  for (const flag of ["structuredOutput", "logprobs", "embeddings"] as const)
    assert.equal(typeof backend.capabilities[flag], "boolean", `capabilities.${flag}`);
  assert.equal(
    typeof backend.embed === "function",
    backend.capabilities.embeddings,
    "embed() present exactly when capabilities.embeddings",
  );
  assert.equal(
    typeof backend.logprobs === "function",
    backend.capabilities.logprobs,
    "logprobs() present exactly when capabilities.logprobs",
  );
  assert.equal(
    typeof backend.loglikelihoodRolling === "function",
    backend.capabilities.loglikelihood === true,
    "loglikelihoodRolling() present exactly when capabilities.loglikelihood",
  );
  assert.doesNotThrow(() => JSON.stringify(backend.parameters), "parameters are JSON");
}

async function generatesText({ backend }: ContractSubject, options: ContractOptions): Promise<void> {
  const result = await backend.generate(MESSAGES, generation(options));
  assert.equal(typeof result.text, "string");
  assert.equal(result.cached, false);
  assert.ok(result.latencyMs > 0, "latencyMs > 0");
  assert.ok(result.usage.inputTokens > 0, "usage.inputTokens > 0");
  assert.ok(result.usage.outputTokens > 0, "usage.outputTokens > 0");
}

async function fillsSchema({ backend }: ContractSubject, options: ContractOptions): Promise<void> {
  const result = await backend.generateObject(MESSAGES, contractSchema, generation(options));
  assert.equal(result.formatError, undefined, `format error: ${result.formatError?.message}`);
  assert.ok(contractSchema.safeParse(result.object).success, "the object matches the schema");
  assert.equal(typeof JSON.parse(result.raw), "object", "raw is the JSON text the object was read from");
}

async function repairsOnce(subject: ContractSubject, options: ContractOptions): Promise<void> {
  const valid = JSON.stringify({ intent: "inform", positive: true });
  scripting(subject)([{ text: "Sure! The patient has a cough." }, { text: valid }]);
  const result = await subject.backend.generateObject(MESSAGES, contractSchema, {
    ...generation(options),
    noCache: true,
  });
  assert.equal(result.repaired, true, "an invalid first reply gets one repair request");
  assert.deepEqual(result.object, { intent: "inform", positive: true });
  assert.equal(result.raw, valid);
}

async function countsFormatErrors(subject: ContractSubject, options: ContractOptions): Promise<void> {
  const wrong = JSON.stringify({ intent: "diagnosis", positive: "yes" });
  scripting(subject)([{ text: "{ not json" }, { text: wrong }]);
  const result = await subject.backend.generateObject(MESSAGES, contractSchema, {
    ...generation(options),
    noCache: true,
  });
  assert.equal(result.object, null, "no object from invalid output");
  assert.equal(result.formatError?.kind, "schema_violation");
  assert.ok((result.formatError?.issues.length ?? 0) > 0, "the issues are listed");
  assert.equal(result.raw, wrong, "the raw text is kept");
}

async function servesFromCache(subject: ContractSubject, options: ContractOptions): Promise<void> {
  const before = subject.requestCount?.();
  const first = await subject.backend.generate(MESSAGES, { ...generation(options), seed: 7 });
  const second = await subject.backend.generate(MESSAGES, { ...generation(options), seed: 7 });
  assert.equal(first.cached, false);
  assert.deepEqual(
    second,
    { ...first, cached: true },
    "a repeated request comes from the cache with the original latency and usage",
  );
  if (before !== undefined) assert.equal(subject.requestCount!(), before + 1, "one request reached the server");
}

async function bypassesCache(subject: ContractSubject, options: ContractOptions): Promise<void> {
  await subject.backend.generate(MESSAGES, { ...generation(options), seed: 8 });
  const before = subject.requestCount?.();
  const again = await subject.backend.generate(MESSAGES, { ...generation(options), seed: 8, noCache: true });
  assert.equal(again.cached, false);
  if (before !== undefined) assert.equal(subject.requestCount!(), before + 1, "noCache sends the request");
}

async function honoursCancellation({ backend }: ContractSubject, options: ContractOptions): Promise<void> {
  const controller = new AbortController();
  controller.abort(new Error("stop now"));
  await assert.rejects(
    backend.generate(MESSAGES, { ...generation(options), signal: controller.signal, noCache: true }),
    /stop now/,
  );
}

async function embeds({ backend }: ContractSubject): Promise<void> {
  if (!backend.embed) throw new ContractSkip("no embeddings capability");
  const result = await backend.embed(["cough", "fever since Monday"]);
  assert.equal(result.embeddings.length, 2);
  assert.ok(result.embeddings[0]!.length > 0, "vectors are not empty");
  assert.equal(result.embeddings[0]!.length, result.embeddings[1]!.length, "vectors have one length");
  assert.ok(result.usage.inputTokens > 0, "the input tokens are counted");
}

async function returnsLogprobs({ backend }: ContractSubject, options: ContractOptions): Promise<void> {
  if (!backend.logprobs) throw new ContractSkip("no logprobs capability");
  const result = await backend.logprobs(MESSAGES, { ...generation(options), topLogprobs: 1 });
  assert.ok(result.tokens.length > 0, "tokens are returned");
  for (const token of result.tokens) assert.ok(token.logprob <= 0, `logprob ${token.logprob} <= 0`);
}

async function keepsSecretsOutOfRecords({ backend, secret }: ContractSubject): Promise<void> {
  const header = await describeBackend(backend);
  assert.equal(header.backend.id, backend.id);
  if (!secret) throw new ContractSkip("the subject names no secret");
  assert.ok(!JSON.stringify(header).includes(secret), "the run-record header holds the secret");
  assert.ok(!JSON.stringify(backend).includes(secret), "the backend object serialises the secret");
}

async function keepsSecretsOutOfErrors(subject: ContractSubject, options: ContractOptions): Promise<void> {
  const script = scripting(subject);
  const secret = subject.secret;
  if (!secret) throw new ContractSkip("the subject names no secret");
  script([{ status: 401, message: `Incorrect API key provided: ${secret}` }]);
  const error = await subject.backend.generate(MESSAGES, { ...generation(options), noCache: true }).then(
    () => assert.fail("a 401 reply must fail the call"),
    (caught: unknown) => caught,
  );
  const text = error instanceof Error ? `${error.message}\n${error.stack ?? ""}` : String(error);
  assert.ok(!text.includes(secret), `the error shows the secret: ${text.split("\n")[0]}`);
}

/** Every check of the contract, in order. */
export const BACKEND_CONTRACT: readonly ContractCheck[] = [
  { name: "implements the v1 spec shape", run: async (subject) => specShape(subject) },
  { name: "generates text with usage and latency", run: generatesText },
  { name: "returns a schema-valid object from generateObject", run: fillsSchema },
  { name: "repairs an invalid reply with one repair request", run: repairsOnce },
  { name: "counts output that stays invalid as a format error, raw text kept", run: countsFormatErrors },
  { name: "serves a repeated request from the cache with the original latency and usage", run: servesFromCache },
  { name: "bypasses the cache with noCache", run: bypassesCache },
  { name: "rejects at once when the signal is already aborted", run: honoursCancellation },
  { name: "embeds texts when it has the capability", run: async (subject) => embeds(subject) },
  { name: "returns token logprobs when it has the capability", run: returnsLogprobs },
  { name: "keeps secrets out of the run-record header", run: async (subject) => keepsSecretsOutOfRecords(subject) },
  { name: "keeps secrets out of error messages", run: keepsSecretsOutOfErrors },
];

/** What {@link checkBackend} found. */
export interface ContractReport {
  readonly passed: string[];
  readonly failed: Array<{ readonly name: string; readonly message: string }>;
  readonly skipped: Array<{ readonly name: string; readonly reason: string }>;
}

/**
 * Runs every check against one subject (made once, disposed at the end) and reports; never throws
 * for a failed check.
 */
export async function checkBackend(
  makeSubject: () => Promise<ContractSubject>,
  options: ContractOptions = {},
): Promise<ContractReport> {
  const report: ContractReport = { passed: [], failed: [], skipped: [] };
  const subject = await makeSubject();
  try {
    for (const check of BACKEND_CONTRACT) {
      try {
        await check.run(subject, options);
        report.passed.push(check.name);
      } catch (error) {
        if (error instanceof ContractSkip) report.skipped.push({ name: check.name, reason: error.message });
        else report.failed.push({ name: check.name, message: error instanceof Error ? error.message : String(error) });
      }
    }
  } finally {
    await subject.dispose();
  }
  return report;
}

/** The report as lines: `ok`, `FAIL` or `skip` and the check's name (and why). */
export function formatContractReport(report: ContractReport): string {
  return [
    ...report.passed.map((name) => `ok    ${name}`),
    ...report.skipped.map(({ name, reason }) => `skip  ${name} (${reason})`),
    ...report.failed.map(({ name, message }) => `FAIL  ${name}: ${message}`),
  ].join("\n");
}
