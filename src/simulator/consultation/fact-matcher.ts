import { porterStem } from "../../metrics/porter-stemmer.ts";
import { loadOntologyFile, type OntologyFile } from "../../ontology/ontology-files.ts";
import type { CaseFact } from "./consult-case.ts";

/**
 * Which of a case's facts answer a question, by the rules of `ontology/patient-answer-rules.json`.
 * A question is read as the things it asks about, one list item at a time ("any fevers or chills?"
 * asks about fevers, and about chills): each item is its salient words (stemmed; no stop word, no
 * generic word, no number), a phrase of a synonym group standing as one concept ("burning when you
 * pee" is dysuria). A fact answers an item when it names everything the item names ("is the rash
 * itchy?" wants a fact about an itchy rash, not any fact about the rash). A question may also ask
 * about a topic (how old, when, smoking, family, …): then the facts of that topic answer it when the
 * fact names nothing but the topic ("The symptoms started 10 days ago."), or when the question names
 * nothing but the topic ("Do you smoke?") — for a topic of the complaint's (when, how bad, what it
 * feels like, what helps) asked of the complaint ("When did it start?", "When did the change in your
 * vision start?" when vision is the complaint), the facts of the presenting illness. A narrowing topic
 * keeps what an item matched to its own facts ("does anyone in your family have heart problems?" is
 * not about the patient's heart). Nothing else answers: an answer never carries a fact the question
 * did not ask about.
 */

type Rules = OntologyFile<"patient-answer-rules.json">;

/** Words and list separators of a text, lower-cased, the apostrophe of "don't" dropped: `fevers`, `,`, `or`. */
const TOKEN = /[a-z0-9]+|[,;/]/g;

/** A number on its own, e.g. `10`: never what a question is about. */
const NUMBER = /^\d+$/;

/** What separates the items of a list in a question. */
const SEPARATORS = new Set([",", ";", "/", "or", "and", "nor"]);

/** The stemmed tokens of a text, separators kept as they are. */
function stemmedTokens(text: string): string[] {
  return (text.toLowerCase().replace(/['’]/g, "").match(TOKEN) ?? []).map((token) =>
    SEPARATORS.has(token) ? token : porterStem(token),
  );
}

/** One thing a question item asks about: a salient stem, or a synonym group's concept. */
type Unit = { readonly concept: string } | { readonly stem: string };

/** A compiled topic. */
interface Topic {
  readonly id: string;
  readonly questionCues: readonly RegExp[];
  readonly words: ReadonlySet<string>;
  readonly sections: ReadonlySet<string>;
  readonly factCues: readonly RegExp[];
  readonly scope: "complaint" | "all";
  readonly narrows: boolean;
}

/** A fact as the matcher sees it: its salient stems, the concepts it names, every stem but the stop words'. */
export interface AnalysedText {
  readonly stems: ReadonlySet<string>;
  readonly concepts: ReadonlySet<string>;
  readonly words: readonly string[];
}

/** A synonym phrase as stems, and the concept it names. */
interface Phrase {
  readonly concept: string;
  readonly stems: readonly string[];
}

const NO_PHRASES: readonly Phrase[] = [];

/** Whether `phrase` occurs in `tokens` at `start`. */
function phraseAt(tokens: readonly string[], start: number, phrase: readonly string[]): boolean {
  return phrase.length > 0 && phrase.every((word, offset) => tokens[start + offset] === word);
}

/** What a question asks: its topics, its items (topic words aside), and whether it asks about a topic alone. */
interface AskedQuestion {
  readonly topics: readonly Topic[];
  readonly onlyTopicAsked: boolean;
  readonly items: readonly Unit[][];
  readonly narrowing: readonly Topic[];
}

/** The rules compiled once: see the module comment. */
export class FactMatcher {
  private readonly stops: ReadonlySet<string>;
  private readonly ignored: ReadonlySet<string>;
  /**
   * Every synonym phrase as stems, longest first, with its concept, by its first stem: only the
   * phrases that start with a token can occur there (the whole list tried at every token of every
   * fact was most of what reading a dataset's cases cost).
   */
  private readonly phrasesFrom: ReadonlyMap<string, readonly Phrase[]>;
  readonly topics: readonly Topic[];

  constructor(rules: Rules = loadOntologyFile("patient-answer-rules.json")) {
    this.stops = new Set(rules.stop_words.map(porterStem));
    this.ignored = new Set([...this.stops, ...rules.generic_words.map(porterStem)]);
    const phrases = rules.synonyms
      .flatMap(({ concept, phrases }) => phrases.map((phrase) => ({ concept, stems: stemmedTokens(phrase) })))
      .sort((a, b) => b.stems.length - a.stems.length);
    const phrasesFrom = new Map<string, Phrase[]>();
    for (const phrase of phrases) {
      const first = phrase.stems[0];
      if (first === undefined) continue;
      const starting = phrasesFrom.get(first);
      if (starting) starting.push(phrase);
      else phrasesFrom.set(first, [phrase]);
    }
    this.phrasesFrom = phrasesFrom;
    this.topics = rules.topics.map((topic) => ({
      id: topic.id,
      questionCues: topic.question_cues.map((source) => new RegExp(source, "i")),
      words: new Set(topic.words.map(porterStem)),
      sections: new Set(topic.fact_sections),
      factCues: topic.fact_cues.map((source) => new RegExp(source, "i")),
      scope: topic.scope,
      narrows: topic.narrows,
    }));
  }

  /** The phrases that may occur at `start`: those that begin with its token, longest first. */
  private phrasesAt(tokens: readonly string[], start: number): readonly Phrase[] {
    return this.phrasesFrom.get(tokens[start]!) ?? NO_PHRASES;
  }

  private salient(stem: string): boolean {
    return !SEPARATORS.has(stem) && !this.ignored.has(stem) && !NUMBER.test(stem);
  }

  /** Analyses already made, by text (a case's facts are read at every question). */
  private readonly analysed = new Map<string, AnalysedText>();

  /** A text's salient stems, every concept a phrase of it names, and its stems but the stop words'. */
  analyse(text: string): AnalysedText {
    const known = this.analysed.get(text);
    if (known) return known;
    const analysed = this.analyseNow(text);
    if (this.analysed.size < 100_000) this.analysed.set(text, analysed);
    return analysed;
  }

  private analyseNow(text: string): AnalysedText {
    const tokens = stemmedTokens(text);
    const concepts = new Set<string>();
    for (let start = 0; start < tokens.length; start += 1)
      for (const phrase of this.phrasesAt(tokens, start))
        if (phraseAt(tokens, start, phrase.stems)) concepts.add(phrase.concept);
    const words = tokens.filter((token) => !SEPARATORS.has(token) && !this.stops.has(token));
    return { stems: new Set(tokens.filter((token) => this.salient(token))), concepts, words };
  }

  /** A question's items: the units each asks about, a phrase read as its concept (the longest first). */
  items(question: string): Unit[][] {
    const tokens = stemmedTokens(question);
    const items: Unit[][] = [[]];
    for (let start = 0; start < tokens.length;) {
      const phrase = this.phrasesAt(tokens, start).find((candidate) => phraseAt(tokens, start, candidate.stems));
      if (phrase) {
        items.at(-1)!.push({ concept: phrase.concept });
        start += phrase.stems.length;
        continue;
      }
      const token = tokens[start]!;
      if (SEPARATORS.has(token)) items.push([]);
      else if (this.salient(token)) items.at(-1)!.push({ stem: token });
      start += 1;
    }
    return items.filter((item) => item.length > 0);
  }

  /** The topics a question asks about. */
  topicsOf(question: string): Topic[] {
    return this.topics.filter((topic) => topic.questionCues.some((cue) => cue.test(question)));
  }

  /** The topics each fact belongs to, once read (a case's facts are read at every question). */
  private readonly factTopics = new WeakMap<CaseFact, Map<Topic, boolean>>();

  /** Whether a fact belongs to a topic: by its section or by what it says. */
  private belongs(fact: CaseFact, topic: Topic): boolean {
    let known = this.factTopics.get(fact);
    if (!known) this.factTopics.set(fact, (known = new Map<Topic, boolean>()));
    let belongs = known.get(topic);
    if (belongs === undefined) {
      belongs =
        (fact.section !== undefined && topic.sections.has(fact.section)) ||
        topic.factCues.some((cue) => cue.test(fact.text));
      known.set(topic, belongs);
    }
    return belongs;
  }

  /** Questions already read, by text (the floor's list is asked of every case). */
  private readonly questions = new Map<string, AskedQuestion>();

  /** What a question asks, whatever the case: see {@link AskedQuestion}. */
  private read(question: string): AskedQuestion {
    const known = this.questions.get(question);
    if (known) return known;
    const topics = this.topicsOf(question);
    const topicWords = new Set(topics.flatMap((topic) => [...topic.words]));
    const asked = this.items(question);
    const onTopic = (unit: Unit) => "stem" in unit && topicWords.has(unit.stem);
    // An item of nothing but topic words asks about the topic alone ("operations" in "operations or hospital stays?").
    const onlyTopicAsked = asked.length === 0 || (topics.length > 0 && asked.some((item) => item.every(onTopic)));
    const items = asked.map((item) => item.filter((unit) => !onTopic(unit))).filter((item) => item.length > 0);
    const read = { topics, onlyTopicAsked, items, narrowing: topics.filter((topic) => topic.narrows) };
    if (this.questions.size < 100_000) this.questions.set(question, read);
    return read;
  }

  /** The ids of the facts that answer the question, in the case's order. */
  answering(question: string, facts: readonly CaseFact[]): string[] {
    const { topics, onlyTopicAsked, items, narrowing } = this.read(question);
    // "When did the change in your vision start?" asks the complaint's timing, when vision is the complaint.
    const aboutComplaint = onlyTopicAsked || this.namesComplaint(items, facts);
    return facts
      .filter((fact) => {
        const said = this.analyse(fact.text);
        const named = items.some((item) => item.every((unit) => names(said, unit)));
        if (named && (narrowing.length === 0 || narrowing.some((topic) => this.belongs(fact, topic)))) return true;
        return topics.some((topic) => {
          if (!this.belongs(fact, topic)) return false;
          if ([...said.stems].every((stem) => topic.words.has(stem))) return true;
          if (topic.scope === "all") return onlyTopicAsked;
          return aboutComplaint && COMPLAINT_SECTIONS.has(fact.section ?? "");
        });
      })
      .map((fact) => fact.id);
  }

  /** Whether every item of a question is named by a fact of the presenting complaint. */
  private namesComplaint(items: readonly Unit[][], facts: readonly CaseFact[]): boolean {
    const complaint = facts.filter((fact) => fact.section === "complaint").map((fact) => this.analyse(fact.text));
    return items.length > 0 && items.every((item) => complaint.some((said) => item.every((unit) => names(said, unit))));
  }
}

/** Whether a fact names a unit: its concept, or its stem (among all the fact's salient stems). */
function names(fact: AnalysedText, unit: Unit): boolean {
  return "concept" in unit ? fact.concepts.has(unit.concept) : fact.stems.has(unit.stem);
}

/** The sections of the presenting illness: what a topic scoped to the complaint reveals. */
const COMPLAINT_SECTIONS = new Set(["complaint", "history"]);

let shared: FactMatcher | undefined;

/** The matcher over the bundled rules, compiled once. */
export function factMatcher(): FactMatcher {
  shared ??= new FactMatcher();
  return shared;
}
