/**
 * A case's fact said by the patient: the case's own words, turned from the third person ("The man had
 * painful lesions on his penis.") to the first ("I had painful lesions on my penis."), or, for a young
 * child, to a parent's ("My son has had a fever."). Only the subject, the pronouns and the verb that
 * follows the subject change; every other word is the case's. Facts that name no subject (a symptom
 * list's "Double vision") are said as the patient having them.
 */

/** Who speaks for the patient: the patient, or a parent speaking of a son, a daughter or a child. */
export type PatientVoice =
  | { readonly kind: "patient" }
  | { readonly kind: "parent"; readonly child: string }
  /** A relative who speaks for the patient (our library's lay scripts: a daughter for an elderly mother). */
  | { readonly kind: "relative"; readonly relation: string };

/**
 * The person a case sentence starts with, with an article, an age and describing words, e.g.
 * "A 22-year-old man", "The patient", "Patient", "She", "The 4-year-old previously healthy boy".
 */
const SUBJECT =
  /^(?:the |this |a |an )?(?:\d+[- ](?:year|month|week|day)s?[- ]old,? )?(?:(?:previously healthy|otherwise healthy|healthy|white|black|african[- ]american|caucasian|asian|hispanic|obese|pregnant|sexually active|postmenopausal|primigravid|g\d+p\d+|male|female)[ ,]+)*(?:patient|man|woman|male|female|boy|girl|child|infant|baby|newborn|neonate|toddler|adolescent|teenager|gentleman|lady|he|she)\b/i;

/** A subject that describes the patient, e.g. `A 22-year-old man`, `The previously healthy woman`. */
const DESCRIBED =
  /\d|healthy|white|black|american|caucasian|asian|hispanic|obese|pregnant|sexually active|postmenopausal|primigravid/i;

/** A describing subject as said after "I'm": `A 22-year-old man` → `a 22-year-old man`, `An 8-year-old boy` → `an 8-year-old boy`. */
function described(subject: string): string {
  const bare = subject.replace(/^(?:the|this|a|an) /i, "");
  return `${AN.test(bare) ? "an" : "a"} ${bare}`;
}

/** Words said with "an": a vowel, or a number said with one (`8`, `11`, `18`, `80`–`89`). */
const AN = /^(?:[aeiou]|8|11\b|18\b)/i;

/** A possessive naming the patient: `The patient's`, `the man's`, `The boy's`. */
const PATIENT_POSSESSIVE = /\b(?:the |this )?(?:patient|man|woman|boy|girl|child|infant|baby)'s\b/gi;

/** A denial after the subject: `I denied having`, `I denies experiencing any`, `I deny`. */
const DENIAL = /^I (?:denie[sd]|deny)(?: (?:having|experiencing))?\b/;

/** A report of a symptom after the subject: `I reports experiencing`, `I reported having`. */
const REPORTED_EXPERIENCE = /^I (?:report(?:s|ed)?|note[sd]?|describe[sd]?) (experiencing|having)\b/;

/**
 * A reporting verb with a clause after it: "I notes that", "I stated that", "I states I was" (the
 * clause is said without it).
 */
const REPORTED_CLAUSE =
  /^I (?:reports?|reported|notes?|noted|states?|stated|mentions?|mentioned|says|said|describes?|described) (?:that |(?=(?:I|my|these|this|it|there)\b))/;

/** A reporting verb with a noun phrase after it: `I reports a 1-month history of`, `I complains of`. */
const REPORTED_THING = /^I (?:reports?|complains? of|describes?|notes?|mentions?|states?)\b/;

/** A third-person verb right after `I`, with an adverb allowed between: "I also smokes", "I has". */
const VERB_AFTER_I =
  /\bI((?: (?:also|still|now|often|occasionally|currently|further|additionally|previously|recently|usually|sometimes|never))?) ([a-z]+)\b/g;

/** Words ending in s that are not third-person verbs (they stay as they are after `I`). */
const NOT_VERBS = new Set(["was", "is", "always", "sometimes", "perhaps", "less", "unless", "across", "towards"]);

/** A verb's first-person form: `has` → `have`, `denies` → `deny`, `smokes` → `smoke`. */
function firstPersonVerb(verb: string): string {
  if (verb === "is") return "am";
  if (verb === "has") return "have";
  if (verb === "does") return "do";
  if (NOT_VERBS.has(verb) || !verb.endsWith("s") || verb.endsWith("ss") || verb.length < 4) return verb;
  if (verb.endsWith("ies")) return `${verb.slice(0, -3)}y`;
  if (/(?:sh|ch|x|z|ss|o)es$/.test(verb)) return verb.slice(0, -2);
  return verb.slice(0, -1);
}

/** Pronouns of the patient after the first word, in the first person. */
function firstPersonPronouns(text: string): string {
  return text
    .replace(/\b(?:he|she)\b/gi, "I")
    .replace(/\b(?:himself|herself)\b/gi, "myself")
    .replace(/\bhim\b/gi, "me")
    .replace(/\bher(?=[.,;:!?]|$| and\b| to\b| that\b)/gi, "me")
    .replace(/\b(?:his|her)\b/gi, "my");
}

/** The sentence's first letter in capitals. */
const capitalised = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** A fragment that names no one, as the patient having it: `Double vision` → `I've had double vision.` */
function asHad(fragment: string): string {
  if (/^(?:no|not|non-|denies|history of|normal|occasional|drinks|works|lives|smokes)\b/i.test(fragment))
    return capitalised(fragment);
  // Keep an acronym's capitals ("HIV"); lower only a capitalised ordinary word.
  const lowered = /^[A-Z][a-z]/.test(fragment) ? `${fragment.charAt(0).toLowerCase()}${fragment.slice(1)}` : fragment;
  return `I've had ${lowered}`;
}

/** Reporting verbs and denials after `I`, in the words a patient says them with. */
function plainReports(sentence: string): string {
  if (REPORTED_CLAUSE.test(sentence)) return capitalised(sentence.replace(REPORTED_CLAUSE, ""));
  return sentence
    .replace(DENIAL, "I haven't had")
    .replace(REPORTED_EXPERIENCE, (_match, what: string) => (what === "having" ? "I've had" : "I've been experiencing"))
    .replace(REPORTED_THING, "I have");
}

/**
 * A sentence that starts with what the patient does, its subject left out: "Drinks alcohol socially.",
 * "Occasionally smokes.", "Works as a graphic designer."
 */
const STARTS_WITH_VERB =
  /^(?:(?:also|recently|occasionally|currently|still|now|often|usually|sometimes|never) )?(?:drinks|drank|smokes|smoked|vapes|works|worked|lives|lived|reports|reported|denies|denied|uses|used|takes|took|has|had|is|was|notes|noted|mentions|mentioned|states|stated|complains|complained|describes|described|admits|endorses|consumes|exercises|enjoys|experiences|quit|stopped|started|presents|presented|walks|eats|follows|travels|traveled|travelled|attends|plays|sleeps|does|did)\b/i;

/**
 * A finite verb anywhere in a sentence ("were identified", "is", "showed"): a sentence without one is a
 * fragment such as "Double vision".
 */
const FINITE_VERB =
  /\b(?:is|are|was|were|has|have|had|does|did|do|can|could|will|would|shows?|showed|reveals?|revealed|appears?|[a-z]{3,}ed)\b/i;

/** A fragment: a few words with no verb and no one named (`Double vision`, `Weight loss of 5.4 kg`). */
function isFragment(text: string): boolean {
  return !FINITE_VERB.test(text) && !/\b(?:my|patient)\b/i.test(text) && text.split(/\s+/).length <= 8;
}

/** One sentence in the first person. */
function firstPerson(sentence: string): string {
  let text = sentence.replace(PATIENT_POSSESSIVE, "my");
  const subject = SUBJECT.exec(text);
  // "35-year-old female": the whole sentence names the patient.
  if (subject && subject[0].length === text.length) return `I'm ${/^\d/.test(text) ? "a " : ""}${text}`;
  // "A 22-year-old man presented …": the age and the description are facts too.
  if (subject && DESCRIBED.test(subject[0]))
    text = `I'm ${described(subject[0])}, and I${text.slice(subject[0].length)}`;
  else if (subject) text = `I${text.slice(subject[0].length)}`;
  else if (STARTS_WITH_VERB.test(text)) text = `I ${text.charAt(0).toLowerCase()}${text.slice(1)}`;
  else if (isFragment(text)) return asHad(text);
  text = firstPersonPronouns(text.replace(/\bthe patient\b/gi, "me")).replace(
    VERB_AFTER_I,
    (_match, adverb: string, verb: string) => `I${adverb} ${firstPersonVerb(verb)}`,
  );
  return plainReports(text);
}

/** One sentence in a parent's words: the patient becomes "my son" (or daughter, or child); the rest is the case's. */
function parentVoice(sentence: string, child: string): string {
  const text = sentence.replace(PATIENT_POSSESSIVE, `my ${child}'s`);
  const subject = SUBJECT.exec(text);
  if (subject && subject[0].length === text.length) return `My ${child} is ${/^\d/.test(text) ? "a " : ""}${text}`;
  if (subject && DESCRIBED.test(subject[0]))
    return `My ${child}, ${described(subject[0])},${text.slice(subject[0].length)}`;
  if (subject) return `My ${child}${text.slice(subject[0].length)}`;
  if (/^my\b/.test(text)) return capitalised(text);
  return text;
}

/** A fact as the patient (or the parent) says it, ending with a full stop. */
export function spokenFact(text: string, voice: PatientVoice): string {
  const sentence = text.trim().replace(/[.\s]+$/, "");
  if (sentence === "") return "";
  const said = voice.kind === "parent" ? parentVoice(sentence, voice.child) : firstPerson(sentence);
  return `${capitalised(said.trim())}.`;
}

/**
 * Who speaks for a patient of this age and sex: a parent for a child under 12 (a son, a daughter, or a
 * child when the sex is not given); the patient otherwise.
 */
export function voiceFor(age: number | undefined, sex: "female" | "male" | undefined): PatientVoice {
  if (age === undefined || age >= 12) return { kind: "patient" };
  return { kind: "parent", child: sex === "male" ? "son" : sex === "female" ? "daughter" : "child" };
}
