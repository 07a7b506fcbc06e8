/**
 * `embedded`, the offline engine, as a provider like the others. The engine is not a chat model: it
 * runs the MediTOD NLU, policy and NLG itself (`bench` and `chat` with `--backend embedded` build its
 * modules directly, see modules/builders/create-modules.ts) and answers no free-text prompt. So where a command
 * needs a chat backend from it — `score --judge embedded`, `--retrieval dense` — the provider says so,
 * naming what to use instead.
 */
import { AnamnesisError } from "../foundation/errors.ts";
import type { ChatBackend } from "./spec.ts";

/** The `embedded` provider's factory: always a clear error (see above). */
export function createEmbeddedBackend(_model: string, _settings: unknown, id: string): ChatBackend {
  throw new AnamnesisError(
    "INVALID_ARGUMENT",
    `${id} is the offline MediTOD engine: it runs bench and chat itself but answers no free-text prompts, so it cannot be used here ` +
      `(as an attribute judge use --judge exact, the official exact match, or an LLM backend such as openai:<model>)`,
  );
}
