import { describe, expect, it } from "vitest";
import { analyseText } from "../../../../src/modules/embedded/nlu/analysed-text.ts";
import { conceptMask, findMentions } from "../../../../src/modules/embedded/nlu/concept-mentions.ts";
import { buildLexicon } from "../../../../src/modules/embedded/nlu/lexicon.ts";
import { answerPolarity, mentionStatus } from "../../../../src/modules/embedded/nlu/negation.ts";

const lexicon = buildLexicon();

/** Status of every concept phrase of an utterance, by value. */
function statuses(utterance: string): Record<string, string> {
  const analysed = analyseText(utterance);
  const mentions = findMentions(lexicon, analysed);
  const context = {
    tokens: analysed.tokens,
    clauses: analysed.clauses,
    inConcept: conceptMask(analysed.tokens.length, mentions),
  };
  return Object.fromEntries(
    mentions.map((mention) => [mention.concepts[0]!.value, mentionStatus(context, mention.start, mention.end)]),
  );
}

describe("mentionStatus", () => {
  it("negates within the clause and stops at contrast", () => {
    expect(statuses("I haven't had any fever but I do have a sore throat")).toEqual({
      fever: "negative",
      pharyngitis: "positive",
    });
    expect(statuses("No headaches, no dizziness or nausea.")).toEqual({
      headache: "negative",
      dizziness: "negative",
      nausea: "negative",
    });
  });

  it("ends a denial at ', and a …' (a new statement), not at a list", () => {
    expect(statuses("I have had no fever, and a bad cough.")).toEqual({ fever: "negative", coughing: "positive" });
    expect(statuses("No fevers, chills, and sweats.")).toEqual({
      fever: "negative",
      chills: "negative",
      sweating: "negative",
    });
  });

  it("treats a leading answer particle as an answer, not as scope", () => {
    expect(statuses("No, just a runny nose.")).toEqual({ rhinorrhea: "positive" });
    expect(statuses("Nope, I get winded on the stairs.")).toEqual({ dyspnea: "positive" });
  });

  it("marks uncertainty", () => {
    expect(statuses("I think I might have had some chills")).toEqual({ chills: "unknown" });
    expect(statuses("I'm not sure about the wheezing")).toEqual({ wheezing: "unknown" });
  });

  it("keeps a negation that is part of the concept phrase positive", () => {
    expect(statuses("I can't smell anything anymore")).toEqual({ anosmia: "positive" });
  });

  it("does not deny a symptom that cannot be stopped or that treatment did not help", () => {
    expect(statuses("I can't stop sneezing")).toEqual({ sneezing: "positive" });
    expect(statuses("the pills were no help with my headaches")).toEqual({ headache: "positive" });
  });

  it("reads post-mention denials", () => {
    expect(statuses("Chest pain, not at all.")).toEqual({ "chest pain": "negative" });
  });
});

describe("answerPolarity", () => {
  const polarity = (text: string) => answerPolarity(analyseText(text).tokens);
  it("reads yes and no particles, the last one winning", () => {
    expect(polarity("Yep.")).toBe("yes");
    expect(polarity("Nah, not that I've seen.")).toBe("no");
    expect(polarity("Yeah no, none of that.")).toBe("no");
  });
  it("reads pronoun answers and hedged denials", () => {
    expect(polarity("I have, yes, once or twice.")).toBe("yes");
    expect(polarity("I don't, no.")).toBe("no");
    expect(polarity("Not that I know of.")).toBe("no");
    expect(polarity("I don't think so.")).toBe("no");
    expect(polarity("A little bit, I suppose.")).toBe("yes");
  });
  it("reads uncertainty and normal states", () => {
    expect(polarity("Hmm, I'm not sure.")).toBe("unknown");
    expect(polarity("Maybe, now that you mention it.")).toBe("unknown");
    expect(polarity("Everything's been normal.")).toBe("normal");
  });
  it("returns undefined for statements and questions that do not answer yes or no", () => {
    expect(polarity("It started on Tuesday after work.")).toBeUndefined();
    expect(polarity("Is that going to be okay?")).toBeUndefined();
  });
  it("reads 'just me' as nobody else", () => {
    expect(polarity("No, it's just me.")).toBe("no");
  });
});
