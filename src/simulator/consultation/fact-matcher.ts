import { porterStem } from "../../metrics/porter-stemmer.ts";
import { loadOntologyFile, type OntologyFile } from "../../ontology/ontology-files.ts";
import type { CaseFact } from "./consult-case.ts";

/**
 * Which of a case's facts answer a question, by the rules of `ontology/patient-answer-rules.json`. A
 * fact answers a question when
 * - both name the same thing: a word, stemmed, that is neither a stop word, nor generic, nor a number;
 * - or both name one concept of a synonym group ("pee" and "urination");
 * - or the question asks about a topic (how old, when, smoking, …) the fact belongs to, and either the
 *   question names nothing but the topic ("Do you smoke?") or the fact names nothing but it ("The
 *   symptoms started 10 days ago.").
 * Nothing else answers: an answer never carries a fact the question did not ask about.
 */

type Rules = OntologyFile<"patient-answer-rules.json">;

/** Words of a text, lower-cased: letters and digits, with the apostrophe of "don't" dropped. */
const WORD = /[a-z0-9]+/g;

/** A number on its own, e.g. `10`, `5`: never what a question is about. */
const NUMBER = /^\d+$/;

/** The stemmed words of a text, in order. */
export function stemmedWords(text: string): string[] {
  return (text.toLowerCase().replace(/'/g, "").match(WORD) ?? []).map(porterStem);
}

/** A compiled topic: its cues as expressions, its words stemmed. */
interface Topic {
  readonly id: string;
  readonly questionCues: readonly RegExp[];
  readonly words: ReadonlySet<string>;
  readonly sections: ReadonlySet<string>;
  readonly factCues: readonly RegExp[];
  readonly scope: "complaint" | "all";
}

/** A text as the matcher sees it: its salient stems, the concepts it names, and every stem but the stop words'. */
interface Analysed {
  readonly stems: ReadonlySet<string>;
  readonly concepts: ReadonlySet<string>;
  readonly words: readonly string[];
}

/** Whether `phrase` occurs in `words` as consecutive words. */
function containsPhrase(words: readonly string[], phrase: readonly string[]): boolean {
  if (phrase.length === 0 || phrase.length > words.length) return false;
  for (let start = 0; start + phrase.length <= words.length; start += 1)
    if (phrase.every((word, offset) => words[start + offset] === word)) return true;
  return false;
}

/** The rules compiled once: stop and generic stems, synonym phrases as stem sequences, topics. */
export class FactMatcher {
  private readonly ignored: ReadonlySet<string>;
  private readonly stops: ReadonlySet<string>;
  private readonly concepts: ReadonlyArray<{ readonly concept: string; readonly phrases: readonly string[][] }>;
  readonly topics: readonly Topic[];

  constructor(rules: Rules = loadOntologyFile("patient-answer-rules.json")) {
    this.stops = new Set(rules.stop_words.map(porterStem));
    this.ignored = new Set([...this.stops, ...rules.generic_words.map(porterStem)]);
    this.concepts = rules.synonyms.map(({ concept, phrases }) => ({ concept, phrases: phrases.map(stemmedWords) }));
    this.topics = rules.topics.map((topic) => ({
      id: topic.id,
      questionCues: topic.question_cues.map((source) => new RegExp(source, "i")),
      words: new Set(topic.words.map(porterStem)),
      sections: new Set(topic.fact_sections),
      factCues: topic.fact_cues.map((source) => new RegExp(source, "i")),
      scope: topic.scope,
    }));
  }

  /** A text's salient stems and the concepts it names. */
  analyse(text: string): Analysed {
    const words = stemmedWords(text);
    const stems = new Set(words.filter((word) => !this.ignored.has(word) && !NUMBER.test(word)));
    const concepts = new Set(
      this.concepts
        .filter(({ phrases }) => phrases.some((phrase) => containsPhrase(words, phrase)))
        .map((c) => c.concept),
    );
    return { stems, concepts, words: words.filter((word) => !this.stops.has(word)) };
  }

  /** The topics a question asks about. */
  topicsOf(question: string): Topic[] {
    return this.topics.filter((topic) => topic.questionCues.some((cue) => cue.test(question)));
  }

  /** Whether a fact belongs to a topic: by its section or by what it says. */
  private belongs(fact: CaseFact, topic: Topic): boolean {
    return (
      (fact.section !== undefined && topic.sections.has(fact.section)) ||
      topic.factCues.some((cue) => cue.test(fact.text))
    );
  }

  /** The ids of the facts that answer the question, in the case's order. */
  answering(question: string, facts: readonly CaseFact[]): string[] {
    const asked = this.analyse(question);
    const topics = this.topicsOf(question);
    return facts
      .filter((fact) => {
        const said = this.analyse(fact.text);
        if ([...said.stems].some((stem) => asked.stems.has(stem))) return true;
        if ([...said.concepts].some((concept) => asked.concepts.has(concept))) return true;
        return topics.some((topic) => this.belongs(fact, topic) && topicAnswers(topic, asked, said, fact));
      })
      .map((fact) => fact.id);
  }
}

/**
 * Whether a fact of a topic answers a question of that topic: the fact names nothing but the topic, or
 * the question names nothing but the topic — and then, for a topic scoped to the complaint, the fact is
 * the complaint's.
 */
function topicAnswers(topic: Topic, asked: Analysed, said: Analysed, fact: CaseFact): boolean {
  if (onlyTopic(said.stems, topic.words)) return true;
  if (!onlyTopic(asked.stems, topic.words)) return false;
  return topic.scope === "all" || fact.section === "complaint";
}

/** Whether every stem is one of the topic's words (nothing else is named). */
function onlyTopic(stems: ReadonlySet<string>, words: ReadonlySet<string>): boolean {
  return [...stems].every((stem) => words.has(stem));
}

let shared: FactMatcher | undefined;

/** The matcher over the bundled rules, compiled once. */
export function factMatcher(): FactMatcher {
  shared ??= new FactMatcher();
  return shared;
}
