import type { ChatBackend } from "../../backends/spec.ts";
import type { DoctorAction, NluFrame } from "../../cmas/schemas.ts";
import { AnamnesisError } from "../../foundation/errors.ts";
import type { MeditodDataset, Split } from "../../data/meditod.ts";
import type { CallOptions, DialogueModules, ModuleCallInfo } from "../../language/module-interfaces.ts";
import { OfficialPrompter } from "./official-prompter.ts";
import { officialPostProcess } from "./official-post-process.ts";
import type { MeditodCheckout, OfficialTask } from "./meditod-checkout.ts";

/**
 * The three MediTOD tasks through a chat backend with the official in-context protocol: the request of
 * {@link OfficialPrompter} sent as a plain chat completion (temperature 0, `max_tokens` 200 by default,
 * no response format, no tools, no repair round), the reply post-processed as `post.py` does. The modules
 * answer dataset turns only: they need the dialogue id and the utterance index.
 */

/** The official `run_prompt.py` default for `--max_output_len`. */
export const OFFICIAL_MAX_TOKENS = 200;

/** Exemplars per prompt (official 5), where they come from (train) and the reply cap (200 tokens). */
export interface OfficialModulesOptions {
  readonly exemplars?: number;
  readonly exemplarSplit?: Split;
  readonly maxTokens?: number;
}

/** The three official modules, with the prompter of each task (its exemplar pool). */
export interface OfficialModules extends DialogueModules {
  readonly prompters: Readonly<Record<OfficialTask, OfficialPrompter>>;
}

function datasetTurn(input: { dialogueId?: string; turn?: number }): { dialogueId: string; turn: number } {
  if (input.dialogueId === undefined || input.turn === undefined) {
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      "the official protocol answers MediTOD dataset turns only (it needs the dialogue id and the utterance index)",
    );
  }
  return { dialogueId: input.dialogueId, turn: input.turn };
}

/** Builds the request, sends it, post-processes the reply. */
async function predictTurn(
  prompter: OfficialPrompter,
  chat: ChatBackend,
  maxTokens: number,
  input: { dialogueId?: string; turn?: number },
  options: CallOptions,
): Promise<ModuleCallInfo & { prediction: unknown }> {
  const { dialogueId, turn } = datasetTurn(input);
  const prompt = await prompter.build(dialogueId, turn, options);
  const parameters = { temperature: 0, max_tokens: maxTokens };
  const result = await chat.generate(prompt.messages, {
    temperature: 0,
    maxTokens,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const { prediction, formatError } = officialPostProcess(prompter.task, result.text);
  return {
    prediction,
    raw: result.text,
    latencyMs: result.latencyMs,
    usage: result.usage,
    cached: result.cached,
    exemplars: prompt.exemplars,
    request: { messages: prompt.messages, parameters },
    ...(formatError ? { formatError } : {}),
  };
}

/** The official NLU, policy and NLG modules: `chat` answers, `embeddings` ranks the exemplars. */
export function createOfficialModules(
  chat: ChatBackend,
  embeddings: ChatBackend,
  dataset: MeditodDataset,
  checkout: MeditodCheckout,
  options: OfficialModulesOptions = {},
): OfficialModules {
  if (!embeddings.embed || !embeddings.capabilities.embeddings)
    throw new AnamnesisError("INVALID_ARGUMENT", `${embeddings.id} does not offer embeddings`);
  const prompter = (task: OfficialTask) =>
    new OfficialPrompter(task, checkout.taskDescriptions[task], dataset, embeddings, {
      ...(options.exemplars !== undefined ? { exemplars: options.exemplars } : {}),
      ...(options.exemplarSplit ? { exemplarSplit: options.exemplarSplit } : {}),
    });
  const prompters = { nlu: prompter("nlu"), policy: prompter("policy"), nlg: prompter("nlg") };
  const maxTokens = options.maxTokens ?? OFFICIAL_MAX_TOKENS;
  const id = `official:${chat.id}`;
  return {
    prompters,
    nlu: {
      id,
      async understand(input, callOptions = {}) {
        const { prediction, ...info } = await predictTurn(prompters.nlu, chat, maxTokens, input, callOptions);
        return { ...info, frames: prediction as NluFrame[] };
      },
    },
    policy: {
      id,
      async nextActions(input, callOptions = {}) {
        const { prediction, ...info } = await predictTurn(prompters.policy, chat, maxTokens, input, callOptions);
        return { ...info, actions: prediction as DoctorAction[] };
      },
    },
    nlg: {
      id,
      async realise(input, callOptions = {}) {
        const { prediction, ...info } = await predictTurn(prompters.nlg, chat, maxTokens, input, callOptions);
        return { ...info, text: prediction as string };
      },
    },
  };
}
