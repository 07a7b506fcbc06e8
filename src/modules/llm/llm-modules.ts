import type { ChatBackend, GenerateObjectResult } from "../../backends/spec.ts";
import { extractJson } from "../../backends/structured.ts";
import {
  fromPaperFrames,
  normaliseActions,
  paperFrameSchema,
  paperNluOutputSchema,
  paperPolicyOutputSchema,
} from "../../cmas/paper-format.ts";
import { doctorActionsSchema, type DoctorAction, type NluFrame } from "../../cmas/schemas.ts";
import type { MeditodDataset, Split } from "../../data/meditod.ts";
import type { FittedPrompt } from "../prompting/token-budget.ts";
import type {
  CallOptions,
  DialogueModules,
  ModuleCallInfo,
  NlgInput,
  NlgModule,
  NlgResult,
  NluInput,
  NluModule,
  NluResult,
  PolicyInput,
  PolicyModule,
  PolicyResult,
} from "../../language/module-interfaces.ts";
import { InContextPrompter, type PrompterOptions } from "./in-context-prompter.ts";
import { nlgReplyFormatError } from "../prompting/nlg-reply-check.ts";
import * as z from "zod";

/**
 * NLU, policy and NLG through any chat backend, with the paper's in-context prompts. Decoding is
 * greedy (temperature 0), as in the paper.
 */

/** What the prompt carried, and the first request as sent (a repair request, if any, is not recorded). */
function promptInfo(
  prompt: FittedPrompt,
  parameters: Record<string, unknown>,
): Pick<ModuleCallInfo, "exemplars" | "promptTokens" | "overBudget" | "request"> {
  return {
    exemplars: prompt.exemplars,
    promptTokens: prompt.promptTokens,
    ...(prompt.overBudget ? { overBudget: true } : {}),
    request: { messages: prompt.messages, parameters },
  };
}

function objectInfo(result: GenerateObjectResult<unknown>): ModuleCallInfo {
  return {
    raw: result.raw,
    latencyMs: result.latencyMs,
    usage: result.usage,
    cached: result.cached,
    repaired: result.repaired,
    ...(result.formatError ? { formatError: result.formatError.message } : {}),
  };
}

/**
 * Salvages output the schema rejects but whose meaning is unambiguous: a bare JSON array of frames
 * (or actions) instead of the `{"frames": …}` wrapper.
 */
function salvageArray<T>(raw: string, item: z.ZodType<T>): T[] | null {
  const json = extractJson(raw);
  if (!json.ok || !Array.isArray(json.value)) return null;
  const parsed = z.array(item).safeParse(json.value);
  return parsed.success ? parsed.data : null;
}

export class LlmNluModule implements NluModule {
  readonly id: string;
  constructor(
    private readonly backend: ChatBackend,
    private readonly prompter: InContextPrompter,
  ) {
    this.id = `llm:${backend.id}`;
  }

  async understand(input: NluInput, options: CallOptions = {}): Promise<NluResult> {
    const prompt = await this.prompter.build(
      [...input.history, { speaker: "patient", text: input.utterance }],
      { task: "nlu" },
      input.dialogueId,
    );
    const result = await this.backend.generateObject(prompt.messages, paperNluOutputSchema, {
      temperature: 0,
      schemaName: "nlu",
      ...options,
    });
    let frames: NluFrame[] | null = result.object ? fromPaperFrames(result.object.frames) : null;
    let info = objectInfo(result);
    if (!frames) {
      const salvaged = salvageArray(result.raw, paperFrameSchema);
      if (salvaged) {
        frames = fromPaperFrames(salvaged);
        const { formatError: _dropped, ...rest } = info;
        info = rest;
      }
    }
    return { ...info, ...promptInfo(prompt, { temperature: 0, structured_output: "nlu" }), frames };
  }
}

export class LlmPolicyModule implements PolicyModule {
  readonly id: string;
  constructor(
    private readonly backend: ChatBackend,
    private readonly prompter: InContextPrompter,
  ) {
    this.id = `llm:${backend.id}`;
  }

  async nextActions(input: PolicyInput, options: CallOptions = {}): Promise<PolicyResult> {
    const prompt = await this.prompter.build(input.history, { task: "policy", state: input.state }, input.dialogueId);
    const result = await this.backend.generateObject(prompt.messages, paperPolicyOutputSchema, {
      temperature: 0,
      schemaName: "policy",
      ...options,
    });
    let actions: DoctorAction[] | null = result.object ? normaliseActions(result.object.actions) : null;
    let info = objectInfo(result);
    if (!actions) {
      const salvaged = salvageArray(result.raw, doctorActionsSchema.element);
      if (salvaged) {
        actions = normaliseActions(salvaged);
        const { formatError: _dropped, ...rest } = info;
        info = rest;
      }
    }
    return { ...info, ...promptInfo(prompt, { temperature: 0, structured_output: "policy" }), actions };
  }
}

export class LlmNlgModule implements NlgModule {
  readonly id: string;
  constructor(
    private readonly backend: ChatBackend,
    private readonly prompter: InContextPrompter,
  ) {
    this.id = `llm:${backend.id}`;
  }

  async realise(input: NlgInput, options: CallOptions = {}): Promise<NlgResult> {
    const prompt = await this.prompter.build(input.history, { task: "nlg", actions: input.actions }, input.dialogueId);
    const result = await this.backend.generate(prompt.messages, { temperature: 0, ...options });
    // Models sometimes echo the speaker tag of the prompt's turns.
    const text = result.text.trim().replace(/^doctor:\s*/i, "");
    const formatError = nlgReplyFormatError(result.text);
    return {
      raw: result.text,
      latencyMs: result.latencyMs,
      usage: result.usage,
      cached: result.cached,
      ...promptInfo(prompt, { temperature: 0 }),
      text,
      ...(formatError ? { formatError } : {}),
    };
  }
}

export interface LlmModulesOptions extends Omit<PrompterOptions, "template"> {
  /** Where exemplars come from (never the split being evaluated). Default `train`. */
  readonly exemplarSplit?: Split | readonly string[];
  /** Template versions per task; default `<task>.v1`. */
  readonly templates?: Partial<Record<"nlu" | "policy" | "nlg", string>>;
}

/** The three LLM modules over one backend, with exemplars from the training split. */
export function createLlmModules(
  backend: ChatBackend,
  dataset: MeditodDataset,
  options: LlmModulesOptions = {},
): DialogueModules & { prompters: Record<"nlu" | "policy" | "nlg", InContextPrompter> } {
  const split = options.exemplarSplit ?? "train";
  const prompter = (task: "nlu" | "policy" | "nlg") =>
    new InContextPrompter(task, dataset, split, {
      ...options,
      ...(options.templates?.[task] ? { template: options.templates[task] } : {}),
    });
  const prompters = { nlu: prompter("nlu"), policy: prompter("policy"), nlg: prompter("nlg") };
  return {
    nlu: new LlmNluModule(backend, prompters.nlu),
    policy: new LlmPolicyModule(backend, prompters.policy),
    nlg: new LlmNlgModule(backend, prompters.nlg),
    prompters,
  };
}
