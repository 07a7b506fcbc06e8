import type { DialogueState, DoctorAction, NluFrame } from "../cmas/schemas.ts";
import { getDialogue, splitIds, type MeditodDataset, type Split, type Utterance } from "./meditod.ts";

/**
 * Turn-level views of MediTOD, one per task, following the paper's evaluation protocol: NLU sees the
 * gold history; policy sees the gold history and the gold state; NLG sees the gold history and the
 * gold actions. `turn` is the utterance index (`uttr_id`).
 */

interface TurnExample {
  dialogueId: string;
  turn: number;
  /** Utterances 0 … turn-1. */
  history: readonly Utterance[];
}

/** A patient turn to understand. */
export interface NluExample extends TurnExample {
  text: string;
  gold: NluFrame[];
  /** The state before this turn (empty at the first patient turn). */
  previousState: DialogueState;
  /** The state after this turn, as annotated. */
  goldState: DialogueState;
}

/** A doctor turn (other than the opening one) whose actions are to be predicted. */
export interface PolicyExample extends TurnExample {
  /** The state after the previous patient turn. */
  state: DialogueState;
  gold: DoctorAction[];
}

/** A doctor turn (other than the opening one) to realise from its actions. */
export interface NlgExample extends TurnExample {
  actions: DoctorAction[];
  gold: string;
}

function stateBefore(utterances: readonly Utterance[], turn: number): DialogueState {
  for (let index = turn - 1; index >= 0; index -= 1) {
    const utterance = utterances[index]!;
    if (utterance.speaker === "patient") return utterance.dialog_state;
  }
  return {};
}

function dialogueIds(dataset: MeditodDataset, split: Split | readonly string[]): readonly string[] {
  return typeof split === "string" ? splitIds(dataset, split) : split;
}

/** Every patient turn of a split (or of the given dialogue ids), in dialogue and turn order. */
export function nluExamples(dataset: MeditodDataset, split: Split | readonly string[]): NluExample[] {
  const examples: NluExample[] = [];
  for (const id of dialogueIds(dataset, split)) {
    const { utterances } = getDialogue(dataset, id);
    utterances.forEach((utterance, turn) => {
      if (utterance.speaker !== "patient") return;
      examples.push({
        dialogueId: id,
        turn,
        history: utterances.slice(0, turn),
        text: utterance.text,
        gold: utterance.nlu,
        previousState: stateBefore(utterances, turn),
        goldState: utterance.dialog_state,
      });
    });
  }
  return examples;
}

/** Whether a doctor turn is scored: every doctor turn but the opening one (official `jj != 0`). */
export function isScoredDoctorTurn(utterance: Utterance, turn: number): boolean {
  return utterance.speaker === "doctor" && turn !== 0;
}

/** Every scored doctor turn of a split with its state and gold actions. */
export function policyExamples(dataset: MeditodDataset, split: Split | readonly string[]): PolicyExample[] {
  const examples: PolicyExample[] = [];
  for (const id of dialogueIds(dataset, split)) {
    const { utterances } = getDialogue(dataset, id);
    utterances.forEach((utterance, turn) => {
      if (utterance.speaker !== "doctor" || !isScoredDoctorTurn(utterance, turn)) return;
      examples.push({ dialogueId: id, turn, history: utterances.slice(0, turn), state: stateBefore(utterances, turn), gold: utterance.actions });
    });
  }
  return examples;
}

/** Every scored doctor turn of a split with its gold actions and text. */
export function nlgExamples(dataset: MeditodDataset, split: Split | readonly string[]): NlgExample[] {
  const examples: NlgExample[] = [];
  for (const id of dialogueIds(dataset, split)) {
    const { utterances } = getDialogue(dataset, id);
    utterances.forEach((utterance, turn) => {
      if (utterance.speaker !== "doctor" || !isScoredDoctorTurn(utterance, turn)) return;
      examples.push({ dialogueId: id, turn, history: utterances.slice(0, turn), actions: utterance.actions, gold: utterance.text });
    });
  }
  return examples;
}
