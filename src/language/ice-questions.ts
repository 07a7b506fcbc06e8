import type { DialogueTurn } from "./module-interfaces.ts";

/**
 * Ideas, concerns and expectations (ICE), asked as a clinician does: each in its own short question
 * at a natural point — what the patient thinks is causing it and what worries them once the complaint
 * is explored, what they hope for before the history closes — and skipped when the patient has
 * already said it. CMAS has no slot for them: the policy asks one as a lone `chit-chat` and the NLG
 * words the first one due, both reading the conversation through this module, so they always agree.
 */

/** The three, in the order they are asked. */
export const ICE_KINDS = ["ideas", "concerns", "expectations"] as const;
/** One of ideas, concerns and expectations. */
export type IceKind = (typeof ICE_KINDS)[number];

/** How the patient's answer to an ICE question is kept (the note's kind of patient voice). */
export const ICE_VOICE: Readonly<Record<IceKind, "idea" | "concern" | "expectation">> = {
  ideas: "idea",
  concerns: "concern",
  expectations: "expectation",
};

/**
 * A doctor's question asking each. Examples: "Have you had any thoughts yourself about what might be
 * causing this?", "Is there anything in particular that's worrying you about it?", "What were you
 * hoping we could do for you today?".
 */
const ASKED: Readonly<Record<IceKind, RegExp>> = {
  ideas:
    /\b(?:what (?:might|may|could) be causing|thoughts? (?:yourself )?(?:about|on|as to) what|what do you think (?:it is|it might be|is causing|might be causing|is going on)|any ideas? (?:about|what|as to))\b/i,
  concerns: /\b(?:anything|what)\b[^?.]{0,40}\b(?:worr(?:y|ies|ying|ied)|concern(?:s|ing|ed)?)\b[^.!]*\?/i,
  expectations:
    /\b(?:hoping (?:we|I|that we) (?:could|can|might|would)|what (?:do|did|were) you (?:expect|hope)|expecting (?:from|us)|what would you like (?:us|me) to do)\b/i,
};

/**
 * The patient saying it unasked. Examples: "I think it might be my heart", "could it be cancer?",
 * "I'm really worried", "I was hoping you could give me something for it".
 */
const VOLUNTEERED: Readonly<Record<IceKind, RegExp>> = {
  ideas:
    /\b(?:i (?:think|reckon|thought|suspect|wonder(?:ed)? if) (?:it|it's|this|that|maybe|i've got|i have)|could it be|maybe it's|i googled)\b/i,
  // "I couldn't tell you, I'm afraid" is politeness, not fear: "afraid" counts when something follows it.
  concerns:
    /\b(?:worried|worry|worrying|scared|afraid(?!\s*(?:[,.!?;]|$|i\b|we\b|not\b|so\b))|concerned|frightened|terrified|anxious about|petrified)\b/i,
  expectations:
    /\b(?:(?:i|we) (?:want|wanted|would like|'d like|was hoping|were hoping|hope|need) (?:you to|to get|to have|a |an |some |something)|can you (?:give|prescribe|refer|check|sort|send)|i came (?:in )?(?:for|to get))\b/i,
};

/**
 * Words that make a sentence a guess about the cause rather than an account. Examples: "it might be
 * my heart", "probably stress", "what if it's cancer", "I suppose it's the new job".
 */
const GUESSING =
  /\b(?:(?:might|could|may|must) (?:be|have)|probabl[ey]|perhaps|maybe (?:it|it's|its|that|he|she|i|just)|i (?:guess|suppose|wonder|bet)|what if|in case|(?:is|could) it)\b/i;

/** Answers this short are a name for the idea or worry ("cancer", "my heart", "stress at work"), never an account. */
const NAMING_WORDS = 4;

/**
 * Whether a sentence said in answer to an ICE question is only the patient's idea, concern or
 * expectation: it says one in so many words, guesses, or only names something. Otherwise it is also
 * history the patient gives (to "what do you think is causing it?", "he used to smoke but gave up
 * twenty years ago" is an account of his smoking as much as an idea), and is read as history too.
 */
export function onlyVoicesIce(sentence: string): boolean {
  if (voicesIceInWords(sentence)) return true;
  return (sentence.match(/[a-z0-9']+/gi) ?? []).length <= NAMING_WORDS;
}

/** Whether a sentence says an idea, concern or expectation in so many words, or guesses at a cause ("it might be my heart"). */
export function voicesIceInWords(sentence: string): boolean {
  return ICE_KINDS.some((kind) => VOLUNTEERED[kind].test(sentence)) || GUESSING.test(sentence);
}

/** Which ICE question a doctor's words ask, if any. */
export function iceAsked(doctorText: string): IceKind | undefined {
  return ICE_KINDS.find((kind) => ASKED[kind].test(doctorText));
}

/** Every ICE question a doctor's words ask, in order: a doctor may ask two at once ("what do you think it is, and is anything worrying you?"). */
export function iceKindsAsked(doctorText: string): IceKind[] {
  return ICE_KINDS.filter((kind) => ASKED[kind].test(doctorText));
}

/** Whether the conversation has covered one: the doctor asked it, or the patient said it first. */
function covered(kind: IceKind, history: readonly DialogueTurn[]): boolean {
  return history.some((turn) =>
    turn.speaker === "doctor" ? ASKED[kind].test(turn.text) : VOLUNTEERED[kind].test(turn.text),
  );
}

/** The first of ideas, concerns and expectations (of `kinds`) the conversation has not covered, if any. */
export function dueIce(history: readonly DialogueTurn[], kinds: readonly IceKind[] = ICE_KINDS): IceKind | undefined {
  return kinds.find((kind) => !covered(kind, history));
}
