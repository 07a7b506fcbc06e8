import { clauseRange, sentenceOf, textOf, type AnalysedText } from "../analysed-text.ts";
import { extractFactors, hasFactorCue } from "../ana-factors.ts";
import { conceptKey } from "../history-context-reader.ts";
import type { HistoryContext } from "../history-context.ts";
import { extractRelations } from "../family-relations.ts";
import type { Lexicon } from "../lexicon.ts";
import type { MentionReading, TurnRecord } from "../turn-record.ts";

/**
 * Mention filters as a rule table: each rule drops a concept mention that is not a report of the
 * patient's own finding, and carries the example it exists for. `tests/modules/embedded/nlu/
 * mention-filter-rules.test.ts` runs every example through the NLU and checks that its rule, and no
 * other, drops the phrase.
 *
 * A rule runs `before-status` when it judges what the mention is (something heard of, a topic word),
 * and `after-status` when it judges how it is used (a trigger, a comparison): only mentions that
 * survive the first group share their status with a list ("no fever or chills").
 */

/** The exchange a rule exists for: after `question`, the mention `phrase` of `utterance` is dropped. */
export interface RuleExample {
  readonly history?: readonly string[];
  readonly question: string;
  readonly utterance: string;
  readonly phrase: string;
}

export interface MentionFilterRule {
  readonly name: string;
  readonly stage: "before-status" | "after-status";
  readonly example: RuleExample;
  /** True when the mention is to be dropped. */
  readonly drops: (turn: TurnRecord, reading: MentionReading) => boolean;
}

/** A word that makes drinking alcohol. Example: "a few beers", "wine", "pints", "units", "booze", "drunk". */
const ALCOHOL_WORD =
  /\b(?:alcohol\w*|beers?|wines?|pints?|units?|booze|spirits|vodka|whisk(?:e)?y|gin|rum|cider|lager|drunk|pub)\b/;
/** Eating, feeding or fluids asked about: "drinking" in the answer is fluids. */
const INTAKE_VALUES: ReadonlySet<string> = new Set(["loss of appetite", "poor feeding", "decreased urine output"]);

function asksAboutIntake(turn: TurnRecord): boolean {
  return turn.context.question.items.some((item) => item.value !== undefined && INTAKE_VALUES.has(item.value));
}

/** A parent speaking for a child (the age unsaid, or under 16): a child's drinking is fluids. */
function speaksForAChild({ proxy }: TurnRecord): boolean {
  if (proxy?.informant.relation !== "parent") return false;
  const age = proxy.informant.patientAge;
  return age === null || !/\byears?\b/.test(age) || Number.parseInt(age, 10) < 16;
}

/**
 * "Die" followed by a feeling, laughing or a trifle: an idiom. Example: "die of embarrassment",
 * "die from shame", "died laughing", "die of boredom", "die for a coffee".
 */
const DIE_OF_A_FEELING =
  /\bd(?:ie|ied|ying)\s+(?:of|from|with)\s+(?:embarrass\w*|shame|boredom|laugh\w*|fright|curiosity|envy|jealousy|excitement|happiness|cuteness|cringe)\b|\bd(?:ie|ied|ying)\s+(?:laughing|for\s+an?\b)/;

/**
 * The words before "fit" that make it a seizure, not fitness: an article, a possessive, a count or a
 * verb of having one. Example: "had a fit", "another fit", "his first fit", "she's having a fit".
 */
const SEIZURE_FIT_LEAD: ReadonlySet<string> = new Set([
  "a",
  "another",
  "the",
  "his",
  "her",
  "their",
  "my",
  "first",
  "one",
  "big",
  "bad",
  "full",
  "proper",
  "had",
  "having",
  "has",
  "have",
]);

/**
 * Sweating put down to heat or exercise right after it is said. Example: "sweaty from how hot I've
 * been" (MediTOD 317 #55, not annotated as sweating), "sweaty because of the heat", "sweaty at the gym".
 */
const SWEAT_FROM_HEAT =
  /^\s*(?:\w+\s+)?(?:from|because of|with|after|in|at)\s+(?:the\s+|how\s+|all\s+the\s+)?(?:heat|hot|warm|weather|sun|gym|exercise|exercising|running|workout)\b/;

/**
 * What follows "been sick" when it means being ill, not vomiting (as in American English): "been sick
 * with a cold", "been sick for a week", "been sick lately" — not "been sick with them" (the
 * headaches), "been sick twice", "been sick for two hours". Example: "I've been sick for a week".
 */
const ILL_NOT_VOMITING =
  /^\s*(?:with (?:a |the |this |some )?(?:cold|flu|bug|virus|covid|infection|chest infection|fever|temperature|cough|sore throat|something|everything)|for (?:a |about |over |nearly |the (?:last |past )?)?(?:\d+|one|two|three|four|five|six|few|couple|several|week|weeks|month|months|days?|while|ages)\b(?! (?:hours?|times)\b)|lately|recently|on and off|off and on|a lot|quite a bit)\b/;

/**
 * Other people before "been sick", not the patient: "no one else has", "anybody who's", "someone at
 * work has". Example: "No, no one else has been sick" (MediTOD RES0001 #13) is no vomiting denied.
 */
const OTHER_PEOPLE_BEFORE =
  /\b(?:no ?one|nobody|anyone|anybody|someone|somebody|everyone|everybody|people|others|who)\b(?:\s+\S+){0,3}\s*$/;

/** The words of the clause of token `at`. */
function clauseTextOf(analysed: AnalysedText, at: number): string {
  const [start, end] = clauseRange(analysed, at);
  return textOf(analysed, start, end);
}

/** "Not great", "bad", "worse": a topic word's clause says something is wrong. */
export const TOPIC_NOT_NORMAL =
  /\bnot\s+(?:\w+\s+)?(?:great|good|well|normal|fine|okay|ok|the best)\b|\b(?:poor|bad|terrible|awful|worse)\b/;

/** How many tokens before a concept "heard … of" may start ("I haven't really heard of it"). */
const HEARD_OF_WINDOW = 5;

/** A concept named as something the patient has (not) heard of. */
function isHeardOf(analysed: AnalysedText, start: number): boolean {
  const before = analysed.tokens.slice(Math.max(0, start - HEARD_OF_WINDOW), start).map((token) => token.text);
  return before.includes("heard") && before.at(-1) === "of";
}

/** A condition the patient imagines, not one they have. Example: "if I ever (get chest pain)", "if he were to (fall)". */
const IF_EVER = /\bif (?:i|you|he|she|they|we|it) (?:ever|were to|should)\b/;

/** The patient speaking of their own habit before it. Example: "(when) I (smoke)", "I've been (drinking)". */
const SAID_AS_ONES_OWN = /\b(?:i|i'm|i've|i'd|we)(?:\s+\w+)?\s*$/;

/** Whether a habit/exposure phrase is used as a trigger in its clause ("better when I go for a smoke"). */
function isFactorMention(lexicon: Lexicon, analysed: AnalysedText, reading: MentionReading): boolean {
  const [start, end] = clauseRange(analysed, reading.mention.start);
  const factors = extractFactors(lexicon, analysed, start, end);
  if (factors.aggravating.length + factors.alleviating.length === 0) return false;
  return namesAFactor(lexicon, analysed, reading, start, end);
}

/** Whether a mention overlaps a factor phrase of the lexicon ("smoke", "cold air") found in `[start, end)`. */
function namesAFactor(
  lexicon: Lexicon,
  analysed: AnalysedText,
  { mention }: MentionReading,
  start = 0,
  end?: number,
): boolean {
  return lexicon.factors
    .findAll(analysed.tokens, start, end)
    .some((match) => match.start < mention.end && mention.start < match.end);
}

const RESPIRATORY = new Set(["coughing", "colored/excess sputum", "hemoptysis", "dyspnea", "wheezing"]);

/** Whether the cough or sputum is being discussed (in focus, asked, reported, or named now). */
function respiratoryContext(context: HistoryContext, text: string): boolean {
  if (/\b(?:cough\w*|sputum|phlegm|mucus|spit\w*)\b/.test(text)) return true;
  if (context.question.items.some((item) => item.value !== undefined && RESPIRATORY.has(item.value))) return true;
  if (context.focus.some((concept) => RESPIRATORY.has(concept.value))) return true;
  return [...RESPIRATORY].some((value) => context.knownPositive.has(conceptKey("symptom", value)));
}

/** How many tokens before a phrase a trigger condition ("when I", "if", "after") may start. */
const CONDITION_WINDOW = 3;
/** How many tokens before a phrase a trigger cue ("worse with", "brought on by") may start. */
const TRIGGER_CUE_WINDOW = 5;

/** Whether a phrase follows "when (I)", "whenever", "if I", "after": the condition of a trigger. */
function isTriggerClause(analysed: AnalysedText, start: number): boolean {
  const before = analysed.tokens.slice(Math.max(0, start - CONDITION_WINDOW), start).map((token) => token.text);
  return before.some(
    (word) => word === "when" || word === "whenever" || word === "if" || word === "after" || word === "while",
  );
}

/** "Worse with", "better when", "brought on by": a trigger cue right before a phrase. */
const TRIGGER_CUE =
  /\b(?:worse|better|triggered|brought on|set off|aggravated|relieved)\s+(?:with|when|by|after|during|if|from)\b/;

/** "worse with …", "better when …", "brought on by …" shortly before token `start` in its clause. */
function followsTriggerCue(analysed: AnalysedText, clauseStart: number, start: number): boolean {
  return TRIGGER_CUE.test(
    analysed.tokens
      .slice(Math.max(clauseStart, start - TRIGGER_CUE_WINDOW), start)
      .map((token) => token.text)
      .join(" "),
  );
}

/** The sense of smell, whose topic word also names an odour ("it smells bad"). */
const SMELL_SENSE = new Set(["anosmia", "sense of smell altered"]);

/** What gives off an odour before "smells": "it smells", "my pee smells", "the discharge smells". */
const ODOUR_SUBJECT =
  /^(?:it|that|this|urine|pee|wee|breath|stool|stools|poo|discharge|wound|sweat|vomit|sputum|phlegm|everything)$/;

/** How an odour is described after "smells": "smells bad", "smells kinda funny", "smells like ammonia". */
const ODOUR_DESCRIPTION =
  /^(?:smells?|smelled|smelling)\s+(?:\w+\s+)?(?:bad|funny|strong|weird|off|foul|awful|horrible|different|terrible|fishy|sweet|like)\b|^smelly\b/;

/** "It smells kinda bad": an odour the patient notices, not a change in their sense of smell. */
function isOdour(analysed: AnalysedText, start: number, end: number): boolean {
  if (end - start !== 1) return false;
  const previous = analysed.tokens[start - 1]?.text ?? "";
  const from = textOf(analysed, start, Math.min(analysed.tokens.length, start + 4));
  return ODOUR_SUBJECT.test(previous) || ODOUR_DESCRIPTION.test(from);
}

const isPersonalSlot = (slot: string) => slot === "medical_history" || slot === "symptom";

/** The mention filters, in the order they are tried. */
export const MENTION_FILTER_RULES: readonly MentionFilterRule[] = [
  {
    name: "heard of",
    stage: "before-status",
    example: {
      question: "Have you ever had a pulmonary embolism?",
      utterance: "I haven't heard of pulmonary embolism.",
      phrase: "pulmonary embolism",
    },
    drops: ({ analysed }, { mention }) => isHeardOf(analysed, mention.start),
  },
  {
    name: "unasked topic word",
    stage: "before-status",
    example: {
      question: "What brings you in?",
      utterance: "I have a cough and my appetite is fine.",
      phrase: "appetite",
    },
    drops: ({ analysed, askedValues }, { mention, concept }) =>
      concept.topic === true &&
      !askedValues.has(concept.value) &&
      !TOPIC_NOT_NORMAL.test(clauseTextOf(analysed, mention.start)),
  },
  {
    name: "an odour, not the sense of smell",
    stage: "before-status",
    example: {
      history: ["What brings you in?", "It burns when I pee."],
      question: "Have you noticed anything different about your urine?",
      utterance: "It smells kinda bad.",
      phrase: "smells",
    },
    drops: ({ analysed }, { mention, concept }) =>
      SMELL_SENSE.has(concept.value) && isOdour(analysed, mention.start, mention.end),
  },
  {
    name: "bare blood outside a cough",
    stage: "after-status",
    example: { question: "Any blood in your urine?", utterance: "Yes, some blood.", phrase: "blood" },
    drops: ({ analysed, context }, { mention, concept }) =>
      concept.value === "hemoptysis" &&
      mention.end - mention.start === 1 &&
      !respiratoryContext(context, analysed.text),
  },
  {
    name: "a child's drinking, or drinking asked with eating: fluids, not alcohol",
    stage: "before-status",
    example: {
      history: ["What brings you in?", "My daughter has had a fever, she's 2."],
      question: "Is she feeding or eating less than usual, or taking less fluid or milk?",
      utterance: "Shes drinking ok but not eating.",
      phrase: "drinking",
    },
    drops: (turn, { mention, concept }) =>
      concept.slot === "habit" &&
      concept.value === "alcohol abuse" &&
      !ALCOHOL_WORD.test(clauseTextOf(turn.analysed, mention.start)) &&
      (asksAboutIntake(turn) || speaksForAChild(turn)),
  },
  {
    name: "sweating put down to heat or exercise",
    stage: "before-status",
    example: {
      question: "Have you checked your temperature?",
      utterance: "I haven't checked it, but I've been feeling pretty sweaty from how hot I've been.",
      phrase: "sweaty",
    },
    drops: ({ analysed }, { mention, concept }) =>
      concept.value === "sweating" &&
      SWEAT_FROM_HEAT.test(textOf(analysed, mention.end, clauseRange(analysed, mention.start)[1])),
  },
  {
    name: "a hypothetical: 'if I ever'",
    stage: "before-status",
    example: {
      question: "What brings you in?",
      utterance: "If I ever get chest pain I'll call an ambulance, but I'm here about my knee.",
      phrase: "chest pain",
    },
    drops: ({ analysed }, { mention }) =>
      IF_EVER.test(textOf(analysed, clauseRange(analysed, mention.start)[0], mention.start)),
  },
  {
    name: "habit named as a trigger",
    stage: "after-status",
    example: {
      question: "Does anything make the cough better?",
      utterance: "It gets better when I go out for a smoke.",
      phrase: "smoke",
    },
    drops: ({ lexicon, analysed }, reading) =>
      (reading.concept.slot === "habit" || reading.concept.slot === "exposure") &&
      isFactorMention(lexicon, analysed, reading),
  },
  {
    name: "habit or exposure named as the answer to a trigger question",
    stage: "after-status",
    example: {
      history: ["What brings you in?", "A cough."],
      question: "Is there anything that makes the cough worse?",
      utterance: "Cold air and smoke.",
      phrase: "smoke",
    },
    drops: ({ lexicon, analysed, context }, reading) =>
      (reading.concept.slot === "habit" || reading.concept.slot === "exposure") &&
      context.question.factorDirection !== null &&
      !SAID_AS_ONES_OWN.test(
        textOf(analysed, clauseRange(analysed, reading.mention.start)[0], reading.mention.start),
      ) &&
      namesAFactor(lexicon, analysed, reading),
  },
  {
    name: "known symptom named as a trigger",
    stage: "after-status",
    example: {
      history: ["What brings you in?", "A cough for a week."],
      question: "Any chest pain?",
      utterance: "Yes, it hurts more when I cough.",
      phrase: "cough",
    },
    drops: ({ analysed, context }, { mention, concept }) => {
      if (concept.slot !== "symptom" || !isTriggerClause(analysed, mention.start)) return false;
      const [clauseStart, clauseEnd] = clauseRange(analysed, mention.start);
      return (
        hasFactorCue(analysed, clauseStart, clauseEnd) &&
        context.knownPositive.has(conceptKey(concept.slot, concept.value))
      );
    },
  },
  {
    name: "symptom right after a trigger cue",
    stage: "after-status",
    example: {
      question: "Does anything make the pain worse?",
      utterance: "It's worse with bowel movements.",
      phrase: "bowel movements",
    },
    drops: ({ analysed, askedValues }, { mention, concept }) =>
      concept.slot === "symptom" &&
      !askedValues.has(concept.value) &&
      followsTriggerCue(analysed, clauseRange(analysed, mention.start)[0], mention.start),
  },
  {
    name: "comparison with the past",
    stage: "after-status",
    example: {
      history: ["What brings you in?", "I have a cough."],
      question: "Have you had this before?",
      utterance: "I've never had this frequent of coughing before.",
      phrase: "coughing",
    },
    drops: ({ analysed, context }, { mention, concept, status }) =>
      status === "negative" &&
      context.knownPositive.has(conceptKey(concept.slot, concept.value)) &&
      /\b(?:before|like this|in the past|previously)\b/.test(clauseTextOf(analysed, mention.start)),
  },
  {
    name: "a pain's path, not feeling run down",
    stage: "before-status",
    example: {
      question: "What brings you in?",
      utterance: "I have a pain running down my leg.",
      phrase: "running down",
    },
    drops: ({ analysed }, { mention, concept }) =>
      concept.value === "bedridden" &&
      analysed.tokens[mention.end - 1]?.text === "down" &&
      /^(?:my|his|her|your|their|the|into|to|towards|through)$/.test(analysed.tokens[mention.end]?.text ?? ""),
  },
  {
    name: "'fit' of health or fitness, not a seizure",
    stage: "before-status",
    example: {
      question: "What brings you in?",
      utterance: "im pretty fit, i run 5k three times a week, but ive had a sore knee since saturday",
      phrase: "fit",
    },
    drops: ({ analysed }, { mention, concept }) =>
      concept.value === "seizures" &&
      mention.end - mention.start === 1 &&
      analysed.tokens[mention.start]?.text === "fit" &&
      !SEIZURE_FIT_LEAD.has(analysed.tokens[mention.start - 1]?.text ?? ""),
  },
  {
    name: "'die of' a feeling or of laughing: a figure of speech, not a wish to die",
    stage: "before-status",
    example: {
      question: "What brings you in?",
      utterance: "I want to die of embarrassment, I tripped in front of everyone",
      phrase: "want to die",
    },
    drops: ({ analysed }, { mention, concept }) =>
      concept.value === "suicidal ideation" &&
      DIE_OF_A_FEELING.test(textOf(analysed, mention.end - 1, Math.min(analysed.tokens.length, mention.end + 3))),
  },
  {
    name: "'been sick' with an illness or a length of time: ill, not vomiting",
    stage: "before-status",
    example: {
      question: "What brings you in?",
      utterance: "I've been sick for a week with a cough.",
      phrase: "been sick",
    },
    drops: ({ analysed }, { mention, concept }) =>
      concept.value === "vomiting" &&
      textOf(analysed, mention.start, mention.end).toLowerCase() === "been sick" &&
      ILL_NOT_VOMITING.test(textOf(analysed, mention.end, clauseRange(analysed, mention.start)[1])),
  },
  {
    name: "'been sick' said of other people: no one else, anybody who's",
    stage: "before-status",
    example: {
      question: "Has anyone around you been unwell?",
      utterance: "No, no one else has been sick.",
      phrase: "been sick",
    },
    drops: ({ analysed }, { mention, concept }) =>
      concept.value === "vomiting" &&
      textOf(analysed, mention.start, mention.end).toLowerCase() === "been sick" &&
      OTHER_PEOPLE_BEFORE.test(textOf(analysed, clauseRange(analysed, mention.start)[0], mention.start).toLowerCase()),
  },
  {
    name: "a relative's illness answering a contact question",
    stage: "after-status",
    example: {
      question: "Have you been around anyone sick?",
      utterance: "My son had the flu last week.",
      phrase: "flu",
    },
    drops: ({ lexicon, analysed, context }, { mention, concept }) =>
      context.question.slots.has("exposure") &&
      isPersonalSlot(concept.slot) &&
      extractRelations(lexicon, analysed, ...sentenceOf(analysed, mention.start)).length > 0,
  },
];
