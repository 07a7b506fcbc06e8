// @ts-check
/**
 * An Anamnesis backend plug-in written only against the public API (`anamnesis`): `mock:<name>`, an
 * in-process stand-in for a model, for testing pipelines without a server. Plain prompts are echoed;
 * structured requests get the smallest value their JSON schema allows; embeddings are hashed character
 * trigrams. Replies can be scripted (`scriptReplies`), which is how the contract's repair, format-error
 * and error-secrecy checks drive it (see check.mjs).
 *
 * Use it from the command line:
 *   npx anamnesis bench --provider-module ./examples/mock-provider/mock-provider.mjs --backend mock:demo --suite meditod-nlu --limit 3
 * or from the config file: { "providers": { "mock": "./mock-provider.mjs" } }
 * Its `usage` line joins the list of backend ids in `--help` (`anamnesis bench --provider-module
 * ./mock-provider.mjs --help`), and its `settings` say what it reads besides the common settings:
 * `{ "providers": { "mock": { "module": "./mock-provider.mjs", "apiKey": "sk-…" } } }` is checked by them.
 */
import { createChatBackend, defineProvider } from "anamnesis";
import { z } from "zod";

/** @typedef {import("anamnesis").ModelDriver} ModelDriver */
/** @typedef {import("anamnesis").ResolvedSettings} ResolvedSettings */
/** @typedef {{ text: string } | { status: number, message: string }} Reply */

/** @type {Reply[]} */
const scripted = [];

/**
 * Makes the next replies of every mock model these, in order.
 * @param {readonly Reply[]} replies
 */
export function scriptReplies(replies) {
  scripted.push(...replies);
}

/** @param {string} text */
const tokens = (text) => Math.max(1, Math.ceil(text.length / 4));

/**
 * The smallest value a JSON schema allows: first enum value, required members only, empty arrays.
 * @param {any} schema
 * @returns {unknown}
 */
function smallestInstance(schema) {
  if (schema === null || typeof schema !== "object") return null;
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants)) return smallestInstance(variants[0]);
  const type = Array.isArray(schema.type) ? schema.type.find((/** @type {string} */ t) => t !== "null") : schema.type;
  if (type === "object") {
    return Object.fromEntries(
      (schema.required ?? []).map((/** @type {string} */ name) => [name, smallestInstance(schema.properties?.[name])]),
    );
  }
  if (type === "array") return Array.from({ length: schema.minItems ?? 0 }, () => smallestInstance(schema.items));
  return { string: "x", number: 0, integer: 0, boolean: false }[/** @type {string} */ (type)] ?? null;
}

/**
 * A 64-dimensional vector of hashed character trigrams, normalised.
 * @param {string} text
 */
function embedText(text) {
  const vector = new Array(64).fill(0);
  const padded = ` ${text.toLowerCase()} `;
  for (let i = 0; i + 3 <= padded.length; i++) {
    let hash = 0;
    for (const char of padded.slice(i, i + 3)) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
    vector[hash % 64] += 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

/**
 * The driver: one completion call, nothing else (createChatBackend adds cache, retries, repair).
 * @param {string} model
 * @returns {ModelDriver}
 */
function mockDriver(model) {
  return {
    provider: "mock",
    model,
    endpoint: "in-process",
    capabilities: { structuredOutput: true, logprobs: false, embeddings: true },
    parameters: {},
    defaultStructuredOutput: "jsonSchema",
    defaultConcurrency: 4,
    async complete(request) {
      const input = request.messages.map((message) => message.content).join("\n");
      const next = scripted.shift();
      if (next && "status" in next) throw Object.assign(new Error(next.message), { status: next.status });
      const lastUser = [...request.messages].reverse().find((message) => message.role === "user");
      const text = next
        ? next.text
        : request.structured
          ? JSON.stringify(smallestInstance(request.structured.jsonSchema))
          : `echo: ${lastUser?.content ?? ""}`;
      return { text, usage: { inputTokens: tokens(input), outputTokens: tokens(text) } };
    },
    async embed(texts) {
      return {
        embeddings: texts.map(embedText),
        usage: { inputTokens: texts.reduce((sum, text) => sum + tokens(text), 0), outputTokens: 0 },
      };
    },
  };
}

export default defineProvider({
  name: "mock",
  usage: "mock:<name> (in-process stand-in model)",
  // Besides the common settings (temperature, retries, concurrency, …): a key, only to show that
  // createChatBackend keeps secrets out of error messages.
  settings: z.object({ apiKey: z.string().min(1) }),
  create: (model, settings) =>
    createChatBackend(mockDriver(model), settings, { secrets: settings.apiKey ? [settings.apiKey] : [] }),
});
