/**
 * The MediTOD paper's LLM judge for non-medical attribute values (`ChatGPTPairwiseComparator` in the
 * official `metrics/utils.py`): the prompt `prompts/attribute-equivalence.v1.txt` with both phrases
 * lower-cased, sent as the only (system) message with temperature 0 and max_tokens 10; the verdict is
 * `'positive' in reply.lower()`. Verdicts go through the backend, so they are cached like any response.
 */
import { readFileSync } from "node:fs";
import { AnamnesisError } from "../foundation/errors.ts";
import { exactJudge, type AttributeJudge } from "../metrics/attribute-judge.ts";
import type { BackendOptions } from "./config.ts";
import { createBackend } from "./registry.ts";
import type { ChatBackend } from "./spec.ts";
import { bundledPath } from "../foundation/package-paths.ts";

export const ATTRIBUTE_EQUIVALENCE_PROMPT_FILE = bundledPath("prompts", "attribute-equivalence.v1.txt");

let promptTemplate: string | undefined;

/** The template text, with `{{phrase1}}` (gold) and `{{phrase2}}` (predicted) placeholders. */
export function loadAttributeEquivalencePrompt(): string {
  if (promptTemplate === undefined) {
    try {
      promptTemplate = readFileSync(ATTRIBUTE_EQUIVALENCE_PROMPT_FILE, "utf8").replace(/\n+$/, "");
    } catch {
      throw new AnamnesisError("FILE_NOT_FOUND", `judge prompt not found: ${ATTRIBUTE_EQUIVALENCE_PROMPT_FILE}`);
    }
  }
  return promptTemplate;
}

export function renderAttributeEquivalencePrompt(
  gold: string,
  predicted: string,
  template = loadAttributeEquivalencePrompt(),
): string {
  return template.split("{{phrase1}}").join(gold.toLowerCase()).split("{{phrase2}}").join(predicted.toLowerCase());
}

/** The official verdict rule. */
export function isPositiveVerdict(reply: string): boolean {
  return reply.toLowerCase().includes("positive");
}

/** The paper's LLM judge of non-medical attributes: asks a backend whether two phrases mean the same (the official prompt and verdict rule); verdicts are cached like any response. */
export class LlmAttributeJudge implements AttributeJudge {
  readonly id: string;
  readonly #backend: ChatBackend;
  readonly #template: string;

  constructor(backend: ChatBackend, options: { template?: string } = {}) {
    this.id = backend.id;
    this.#backend = backend;
    this.#template = options.template ?? loadAttributeEquivalencePrompt();
  }

  /** Judges each distinct pair once, concurrently up to the backend's limit. */
  async equivalent(
    pairs: ReadonlyArray<{ readonly gold: string; readonly predicted: string }>,
    options: { signal?: AbortSignal } = {},
  ): Promise<boolean[]> {
    const verdicts = new Map<string, Promise<boolean>>();
    const judge = (gold: string, predicted: string): Promise<boolean> => {
      const key = JSON.stringify([gold.toLowerCase(), predicted.toLowerCase()]);
      let verdict = verdicts.get(key);
      if (!verdict) {
        const prompt = renderAttributeEquivalencePrompt(gold, predicted, this.#template);
        verdict = this.#backend
          .generate([{ role: "system", content: prompt }], {
            temperature: 0,
            maxTokens: 10,
            ...(options.signal ? { signal: options.signal } : {}),
          })
          .then((result) => isPositiveVerdict(result.text));
        verdicts.set(key, verdict);
      }
      return verdict;
    };
    return Promise.all(pairs.map((pair) => judge(pair.gold, pair.predicted)));
  }
}

/** `exact` → string equality; anything else is a backend id, e.g. `openai:gpt-3.5-turbo-0125`. */
export async function createAttributeJudge(judgeId: string, options: BackendOptions = {}): Promise<AttributeJudge> {
  if (judgeId === exactJudge.id) return exactJudge;
  return new LlmAttributeJudge(await createBackend(judgeId, options));
}
