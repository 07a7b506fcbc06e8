import { extractRelations } from "../family-relations.ts";
import type { TurnRecord } from "../turn-record.ts";

/**
 * Pass 7e, temperatures said as a number: "38.5 last night", "she was 39.2", "101 F this morning" is a
 * fever, whatever the doctor asked (a patient answering "when did the swollen glands start?" with
 * their temperature has told a fever). A high temperature is 38 °C (100.4 °F) or more; a lower one
 * records nothing, neither a fever nor its denial.
 */

/** The fever value of the CMAS lexicon. */
const FEVER = "fever";
/** A high temperature, in °C and °F (NHS: 38 °C or above). */
const FEVER_FROM_C = 38;
const FEVER_FROM_F = 100.4;

/**
 * A body temperature in °C: 35 to 43 with a decimal, or with a unit. Example: "38.5", "39,2", "40
 * degrees", "38 °C", "37.9c".
 */
const CELSIUS =
  /(?<![\d.,])(3[5-9]|4[0-3])(?:([.,]\d{1,2})(?!\d)\s*(?:°\s*c?|degrees?(?: c(?:elsius|entigrade)?)?|c\b)?|\s*(?:°\s*c?|degrees?(?: c(?:elsius|entigrade)?)?|c\b))(?!\s*(?:%|kg|kilos?|mm|mmol|weeks?|wks?|years?|bpm|minutes?|mins?|hours?|hrs?|days?|percent)\b)/;

/** A body temperature in °F, with its unit. Example: "101 F", "100.8 degrees f", "102°F", "99.5 fahrenheit". */
const FAHRENHEIT = /(?<![\d.,])(9[5-9]|10[0-8])(\.\d)?\s*(?:°\s*f|degrees? f(?:ahrenheit)?\b|f\b|fahrenheit\b)/;

/**
 * Whether a text says a high temperature: in °C (a decimal or a unit) at 38 or more, or in °F (with a
 * unit) at 100.4 or more; undefined when it says no temperature.
 */
function saysHighTemperature(text: string): boolean | undefined {
  const celsius = CELSIUS.exec(text);
  if (celsius) return Number(`${celsius[1]!}${(celsius[2] ?? "").replace(",", ".")}`) >= FEVER_FROM_C;
  const fahrenheit = FAHRENHEIT.exec(text);
  if (fahrenheit) return Number(`${fahrenheit[1]!}${fahrenheit[2] ?? ""}`) >= FEVER_FROM_F;
  return undefined;
}

/** Records a fever said as a high temperature, unless the turn already reads the fever, or the number is someone else's. */
export function readTemperaturesSaid(turn: TurnRecord): void {
  const { analysed, entries, lexicon, proxy } = turn;
  if (entries.find("symptom", FEVER) !== undefined || saysHighTemperature(analysed.text) !== true) return;
  // "My husband had 39.5 last week": another person's temperature, unless they are the patient a proxy speaks of.
  const relations = extractRelations(lexicon, analysed, 0, analysed.tokens.length);
  if (relations.some((relation) => relation !== proxy?.patientRelation)) return;
  entries.add("symptom", "positive", FEVER);
}
