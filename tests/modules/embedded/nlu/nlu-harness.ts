import type { NluFrame } from "../../../../src/cmas/schemas.ts";
import { loadMeditod } from "../../../../src/data/meditod.ts";
import type { DialogueTurn, NluModule, NluResult } from "../../../../src/language/module-interfaces.ts";
import { analyseText } from "../../../../src/modules/embedded/nlu/analysed-text.ts";
import { NLU_PASSES, runPasses, type NluPass } from "../../../../src/modules/embedded/nlu/pipeline.ts";
import { newTurnRecord, type TurnRecord } from "../../../../src/modules/embedded/nlu/turn-record.ts";
import { buildEmbeddedNlu, buildNluResources, type NluResources } from "../../../../src/modules/embedded/nlu.ts";
import { loadTrainingData } from "../../../../src/modules/embedded/training-data.ts";

/** The NLU's resources built from the train split, once per test file. */
let resources: NluResources | undefined;
export function nluResources(): NluResources {
  resources ??= buildNluResources(loadTrainingData(loadMeditod(), "train"));
  return resources;
}

/** An exchange: earlier turns (doctor first, alternating), the doctor's question and the patient's utterance. */
export interface Exchange {
  readonly history?: readonly string[];
  readonly question: string;
  readonly utterance: string;
}

/** The turn record of an exchange after the passes up to and including `lastPass` (all when omitted). */
export function readTurn(exchange: Exchange, lastPass?: string, passes: readonly NluPass[] = NLU_PASSES): TurnRecord {
  const { lexicon, smallTalk, correct, reader } = nluResources();
  const turns = [...(exchange.history ?? []), exchange.question].map((text, index) => ({
    speaker: index % 2 === 0 ? ("doctor" as const) : ("patient" as const),
    text,
  }));
  const context = reader.read(turns);
  const turn = newTurnRecord({ lexicon, smallTalk }, analyseText(exchange.utterance, correct), context);
  const end = lastPass === undefined ? passes.length : passes.findIndex((pass) => pass.name === lastPass) + 1;
  if (end === 0) throw new Error(`no pass '${lastPass}'`);
  return runPasses(turn, passes.slice(0, end));
}

/** The text of a token span. */
export function spanText(turn: TurnRecord, span: { readonly start: number; readonly end: number }): string {
  return turn.analysed.tokens
    .slice(span.start, span.end)
    .map((token) => token.text)
    .join(" ");
}

/** The embedded NLU module built from the train split, once per test file. */
let module: NluModule | undefined;
export function embeddedNlu(): NluModule {
  module ??= buildEmbeddedNlu(loadTrainingData(loadMeditod(), "train"));
  return module;
}

/** The NLU's reading of the last of `turns` (alternating, the doctor first; the last is the patient's). */
export async function lastTurn(...turns: string[]): Promise<NluResult> {
  const history: DialogueTurn[] = turns
    .slice(0, -1)
    .map((text, index) => ({ speaker: index % 2 === 0 ? "doctor" : "patient", text }));
  return embeddedNlu().understand({ history, utterance: turns.at(-1)! });
}

/** The slots of some frames, merged into one record (a later frame's slot replaces an earlier one's). */
export function mergedSlots(frames: readonly NluFrame[] | null | undefined): Record<string, unknown> {
  return Object.assign({}, ...(frames ?? []).map((frame) => frame.slots ?? {})) as Record<string, unknown>;
}

/** The merged slots of the NLU's reading of the last of `turns` ({@link lastTurn}). */
export async function slotsAfter(...turns: string[]): Promise<Record<string, unknown>> {
  return mergedSlots((await lastTurn(...turns)).frames);
}
