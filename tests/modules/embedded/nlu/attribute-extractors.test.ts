import { describe, expect, it } from "vitest";
import { analyseText } from "../../../../src/modules/embedded/nlu/analysed-text.ts";
import { extractFactors } from "../../../../src/modules/embedded/nlu/ana-factors.ts";
import { extractLocations } from "../../../../src/modules/embedded/nlu/body-locations.ts";
import { extractRelations } from "../../../../src/modules/embedded/nlu/family-relations.ts";
import {
  extractHabitFrequency,
  extractHabitStarting,
  extractVolunteeredHabitStart,
  habitStatus,
} from "../../../../src/modules/embedded/nlu/habit-attributes.ts";
import { buildLexicon } from "../../../../src/modules/embedded/nlu/lexicon.ts";
import { extractImpact, purposePhrase } from "../../../../src/modules/embedded/nlu/medication-attributes.ts";
import {
  extractAge,
  extractDestination,
  extractOccupation,
  extractResidence,
} from "../../../../src/modules/embedded/nlu/social-history.ts";
import {
  extractCharacteristics,
  extractColor,
  extractProgression,
  extractVolume,
} from "../../../../src/modules/embedded/nlu/symptom-descriptors.ts";

const lexicon = buildLexicon();
const whole = (text: string) => {
  const analysed = analyseText(text);
  return { analysed, from: 0, to: analysed.tokens.length };
};

describe("progression", () => {
  const progression = (text: string, asked = false) => {
    const { analysed, from, to } = whole(text);
    return extractProgression(lexicon, analysed, from, to, asked);
  };
  it("maps trends to the canonical phrases", () => {
    expect(progression("it has definitely gotten worse this week")).toBe("gradually getting worse over time");
    expect(progression("it's slowly improving")).toBe("gradually getting better over time");
  });
  it("does not read triggers or 'same time' as a trend", () => {
    expect(progression("it gets worse when i climb stairs")).toBeUndefined();
    expect(progression("they started at about the same time")).toBeUndefined();
  });
  it("reads weak 'the same' only when the trend was asked", () => {
    expect(progression("pretty much the same")).toBeUndefined();
    expect(progression("pretty much the same", true)).toBe("unchanged with time");
  });
});

describe("colour, volume, characteristics", () => {
  it("takes a run of colour words with their joiners", () => {
    const { analysed, from, to } = whole("it's mostly clear or whitish, sometimes green");
    expect(extractColor(lexicon, analysed, from, to)).toBe("clear or whitish");
  });
  it("prefers the most specific amount", () => {
    expect(extractVolume("each time about a spoonful, maybe 3 to 4 tablespoons a day")).toBe(
      "3 to 4 tablespoons a day",
    );
    expect(extractVolume("not much at all")).toBeUndefined();
  });
  it("maps cough and pain descriptors to canonical characteristics", () => {
    const dry = whole("it's a tickly sort of cough");
    expect(extractCharacteristics(lexicon, "coughing", dry.analysed, dry.from, dry.to)).toEqual(["dry cough"]);
    const wet = whole("yes it's productive");
    expect(extractCharacteristics(lexicon, "coughing", wet.analysed, wet.from, wet.to)).toEqual(["wet cough"]);
    const pain = whole("kind of a burning, stabbing feeling");
    expect(extractCharacteristics(lexicon, "chest pain", pain.analysed, pain.from, pain.to)).toEqual([
      "burning",
      "sharp",
    ]);
    const negated = whole("it's not dry");
    expect(extractCharacteristics(lexicon, "coughing", negated.analysed, negated.from, negated.to)).toEqual([]);
  });
});

describe("locations", () => {
  it("maps body sites to canonical names in the order said", () => {
    const { analysed, from, to } = whole("mostly my calves and both knees, sometimes the arms");
    expect(extractLocations(lexicon, analysed, from, to)).toEqual([
      "structure of calf of leg",
      "knee",
      "upper extremity",
    ]);
  });
  it("knows the annotation tool's body sites too", () => {
    const { analysed, from, to } = whole("right under the jaw");
    expect(extractLocations(lexicon, analysed, from, to)).toEqual(["under the jaw"]);
  });
});

describe("alleviating and aggravating factors", () => {
  it("decides the kind by the nearest cue in the clause", () => {
    const { analysed, from, to } = whole("it's worse when i lie flat, and it eases off if i sit and rest");
    expect(extractFactors(lexicon, analysed, from, to)).toEqual({ aggravating: ["lying down"], alleviating: ["rest"] });
  });
  it("ignores factor words without a cue", () => {
    const { analysed, from, to } = whole("i walk my dog every morning");
    expect(extractFactors(lexicon, analysed, from, to)).toEqual({ aggravating: [], alleviating: [] });
  });
});

describe("family relations", () => {
  it("canonicalises relations after a possessive", () => {
    const { analysed } = whole("my mum and my older brother both have it");
    expect(extractRelations(lexicon, analysed)).toEqual(["mother", "brother"]);
  });
  it("ignores relation words that are not family history", () => {
    const { analysed } = whole("when i was a kid i had it");
    expect(extractRelations(lexicon, analysed)).toEqual([]);
  });
});

describe("habits", () => {
  it("reads amounts and rates", () => {
    expect(extractHabitFrequency("about half a pack a day")).toBe("half a pack a day");
    expect(extractHabitFrequency("maybe three or four beers on the weekends")).toBe(
      "three or four beers on the weekends",
    );
    expect(extractHabitFrequency("a couple of drinks a week")).toBe("couple of drinks a week");
    // Without a unit only when the amount was asked for ("how many cigarettes?" — "about 10 a day").
    expect(extractHabitFrequency("about 10 a day", true)).toBe("10 a day");
    expect(extractHabitFrequency("about 10 a day")).toBeUndefined();
  });
  it("reads when the habit started", () => {
    expect(extractHabitStarting("for about 15 years now")).toBe("15 years ago");
    expect(extractHabitStarting("since i was 19")).toBe("since 19");
    // Volunteered with the amount, only in an explicit "for N years" or "since I was …".
    expect(extractVolunteeredHabitStart("about a pack a day for the last 20 years")).toBe("20 years ago");
    expect(extractVolunteeredHabitStart("i've smoked ever since i was a teenager")).toBe("since teenage");
    expect(extractVolunteeredHabitStart("a pack a day, two days ago i cut down")).toBeUndefined();
  });
  it("judges light or occasional use as unknown, regular use as positive", () => {
    expect(habitStatus("just socially, at parties", "positive")).toBe("unknown");
    expect(habitStatus("a glass of wine with dinner every day", "positive")).toBe("positive");
    expect(habitStatus("never", "negative")).toBe("negative");
  });
});

describe("medications", () => {
  it("reads whether it helped", () => {
    expect(extractImpact("it didn't really do much")).toBe("no");
    expect(extractImpact("it helps a little bit")).toBe("maybe");
    expect(extractImpact("yes that worked great")).toBe("yes");
    expect(extractImpact("i take it at night")).toBeUndefined();
  });
  it("finds the purpose phrase", () => {
    expect(purposePhrase("i take ramipril for my high blood pressure")).toBe("high blood pressure");
  });
});

describe("social history", () => {
  it("reads the age", () => {
    expect(extractAge("i'm seventy two years old")).toBe("72");
    expect(extractAge("i just turned 34")).toBe("34");
    expect(extractAge("about 50", true)).toBe("50");
    expect(extractAge("about 50")).toBeUndefined();
  });
  it("reads no age from the whole part of a decimal count ('38.5 weeks pregnant')", () => {
    expect(extractAge("i'm 38.5 weeks pregnant and have a headache")).toBeUndefined();
    expect(extractAge("i am 7.5 months along")).toBeUndefined();
    // Negative control: an age said at the end of a sentence.
    expect(extractAge("i'm 38. and pregnant")).toBe("38");
  });
  it("reads the dwelling with its adjectives", () => {
    expect(extractResidence(lexicon, analyseText("I live in Leeds in a tiny basement apartment with a roommate"))).toBe(
      "tiny basement apartment",
    );
    expect(extractResidence(lexicon, analyseText("we rent a townhouse"), true)).toBe("townhouse");
  });
  it("reads the occupation", () => {
    expect(extractOccupation(lexicon, analyseText("I work as a welder at the shipyard"))).toBe("welder");
    expect(extractOccupation(lexicon, analyseText("My job is mostly an office job these days"))).toBe("office job");
    expect(extractOccupation(lexicon, analyseText("I'm a bit tired"))).toBeUndefined();
  });
  it("reads a travel destination", () => {
    expect(extractDestination("we flew to portugal in march")).toBe("portugal");
    expect(extractDestination("yes, i just came back from mexico two weeks ago")).toBe("mexico");
    expect(extractDestination("i haven't been anywhere")).toBeUndefined();
  });
});
