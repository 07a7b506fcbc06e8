import {
  attachExposureAttributes,
  attachHabitAttributes,
  attachHistoryAttributes,
  attachMedicationAttributes,
  attachSocial,
} from "../slot-details.ts";
import type { TurnRecord } from "../turn-record.ts";
import { attachSymptomAttributes } from "../volunteered-attributes.ts";

/**
 * Pass 8, volunteered attributes: what the patient says about the things they name ("worse at
 * night", "green phlegm", "half a pack a day", "my mother had it") and the social slots (residence,
 * occupation, travel, age), asked or not.
 */
export function attachVolunteeredDetails(turn: TurnRecord): void {
  const { lexicon, analysed, entries, found, context, polarity } = turn;
  attachSymptomAttributes(turn);
  attachMedicationAttributes(lexicon, analysed, entries, found, context);
  attachHabitAttributes(analysed, entries, found);
  attachExposureAttributes(analysed, entries, found, context.question);
  attachHistoryAttributes(lexicon, analysed, entries, found);
  attachSocial(lexicon, analysed, entries, context.question, polarity);
}
