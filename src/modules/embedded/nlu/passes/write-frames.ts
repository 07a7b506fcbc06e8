import type { CollectedEntry, EntryCollector } from "../frame-builder.ts";
import { lexiconFile, type Lexicon } from "../lexicon.ts";
import type { TurnRecord } from "../turn-record.ts";
import { knownPositive } from "./question-answers.ts";

/**
 * Pass 9, frames: drop what only repeats the record, answer small talk as small talk, make generic
 * concepts specific by their site ("pain" in the chest → "chest pain"), and write the entries as
 * MediTOD frames (an utterance that informs nothing is a nod or chit-chat).
 */

/** Removes one site from an entry's location list (and the list when it empties). */
function dropSite(entry: CollectedEntry, site: string): void {
  const sites = entry.attributes.location;
  if (!Array.isArray(sites)) return;
  const rest = sites.filter((other) => other !== site);
  if (rest.length > 0) entry.attributes.location = rest;
  else delete entry.attributes.location;
}

/** Sites that make a generic concept specific become the concept; sites that restate it are dropped. */
export function normaliseSites(lexicon: Lexicon, entries: EntryCollector): void {
  for (const entry of [...entries.all()]) {
    const specific = lexicon.specificByLocation.get(entry.attributes.value as string);
    const sites = entry.attributes.location;
    const named = specific && Array.isArray(sites) ? sites.find((site) => specific[site]) : undefined;
    if (specific && named) {
      dropSite(entry, named);
      entries.rename(entry, specific[named]!);
    }
  }
  for (const entry of entries.all()) {
    const tautology = lexiconFile.restating_sites[entry.attributes.value as string];
    if (tautology) dropSite(entry, tautology);
  }
}

/** Symptoms reported before and only repeated now add nothing (the annotators skip them). */
export function dropRepeats(turn: TurnRecord): void {
  const { entries, found, askedValues, context } = turn;
  const openSlots = new Set(context.question.items.filter((item) => item.value === "other").map((item) => item.slot));
  for (const { entry } of found) {
    const value = entry.attributes.value as string;
    const repeated =
      entry.status === "positive" &&
      knownPositive(turn, entry.base, value) &&
      !askedValues.has(value) &&
      !openSlots.has(entry.base);
    if (repeated && Object.keys(entry.attributes).length === 1) entries.remove(entry);
  }
}

/** Answers to "any questions for me?" are small talk unless they report a symptom. */
export function answerSmallTalk(turn: TurnRecord): void {
  if (!turn.context.question.smallTalk) return;
  if (turn.found.some(({ entry }) => entry.base === "symptom" && entry.status === "positive")) return;
  turn.frames = [{ intent: turn.smallTalk.classify(turn.analysed) }];
}

/** Writes the entries as frames, or the turn's small-talk intent when they inform nothing. */
export function writeFrames(turn: TurnRecord): void {
  normaliseSites(turn.lexicon, turn.entries);
  const frames = turn.entries.toFrames();
  turn.frames = frames.length > 0 ? frames : [{ intent: turn.smallTalk.classify(turn.analysed) }];
}
