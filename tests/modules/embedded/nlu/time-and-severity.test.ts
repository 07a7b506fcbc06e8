import { describe, expect, it } from "vitest";
import { extractSeverity } from "../../../../src/modules/embedded/nlu/severity.ts";
import {
  extractDuration,
  extractFrequency,
  extractOnset,
  extractOnsetAnswer,
  extractTimePhrase,
  toAgo,
} from "../../../../src/modules/embedded/nlu/time-expressions.ts";

describe("onset", () => {
  it("'since two days', 'from 3 weeks' (English as a second language) is a period ago; 'since I was 20' and 'from 2 weeks ago' are not read so", () => {
    expect(extractOnset("pain in my belly since two days, very strong")).toBe("two days ago");
    expect(extractOnset("i have fever from 3 weeks")).toBe("3 weeks ago");
    expect(extractOnset("i've had asthma since i was 20")).toBe("since i was 20");
    expect(extractOnset("it started from 2 weeks ago")).toBe("2 weeks ago");
  });

  it("keeps '... ago' spans without hedges", () => {
    expect(extractOnset("it began roughly three weeks ago at work")).toBe("three weeks ago");
    // "For the past hour" (an AgentClinic patient's bleeding): the doctor asked its start again and again while unread.
    expect(extractOnset("i've been bleeding for the past hour")).toBe("an hour ago");
    expect(extractOnset("i've been coughing for the past week")).toBe("a week ago");
    expect(extractOnset("i'd say a few days ago")).toBe("few days ago");
    expect(extractOnset("maybe 10 days ago")).toBe("10 days ago");
    expect(extractOnset("maybe a week and a half ago")).toBe("a week and a half ago");
  });
  it("turns 'for the last/past N units' into an onset", () => {
    expect(extractOnset("i've felt off for the past couple of weeks")).toBe("couple of weeks ago");
    expect(extractOnset("these last like 5 days")).toBe("5 days ago");
  });
  it("reads how long it has been as an onset, not a busy week", () => {
    expect(extractOnset("it's been about a week now")).toBe("a week ago");
    expect(extractOnset("this has been going on two days")).toBe("two days ago");
    expect(extractOnset("it's been a rough week")).toBeUndefined();
  });
  it("keeps 'since' and deictic phrases", () => {
    expect(extractOnset("ever since last friday")).toBe("since last friday");
    expect(extractOnset("it started yesterday evening")).toBe("yesterday");
    expect(extractOnset("no time words here")).toBeUndefined();
  });
  it("reads a bare period as an onset when one was asked for", () => {
    expect(extractOnsetAnswer("probably around six months")).toBe("six months ago");
    expect(extractOnsetAnswer("about a week or so")).toBe("a week ago");
    expect(toAgo("a couple of years")).toBe("couple of years ago");
  });
  it("reads no onset from how far on a pregnancy is", () => {
    expect(extractOnsetAnswer("i am 38.5 weeks pregnant")).toBeUndefined();
    expect(extractOnsetAnswer("she's about 7 months along")).toBeUndefined();
    // Negative control: the same period said of the complaint.
    expect(extractOnsetAnswer("about 3 weeks, and i'm pregnant")).toBe("3 weeks ago");
  });
  it("keeps history time phrases verbatim", () => {
    expect(extractTimePhrase("i've had two bad chest colds over the last year")).toBe("over the last year");
    expect(extractTimePhrase("i had it when i was a teenager")).toBe("when i was a teenager");
  });
});

describe("duration", () => {
  it("reads continuity and lasting periods", () => {
    expect(extractDuration("it's constant")).toBe("constant");
    expect(extractDuration("each attack lasts about ten minutes")).toBe("ten minutes");
    expect(extractDuration("it comes and goes")).toBe("comes and goes");
  });
  it("takes bare periods only when asked", () => {
    expect(extractDuration("maybe 20 minutes")).toBeUndefined();
    expect(extractDuration("maybe 20 minutes", true)).toBe("20 minutes");
    expect(extractDuration("pretty much all the time")).toBeUndefined();
    expect(extractDuration("pretty much all the time", true)).toBe("all the time");
  });
});

describe("frequency", () => {
  it("reads rates", () => {
    expect(extractFrequency("a few times a day")).toBe("few times a day");
    expect(extractFrequency("at least three to four times in a week")).toBe("at least three to four times in a week");
    expect(extractFrequency("twice a day usually")).toBe("twice a day");
    expect(extractFrequency("almost every night")).toBe("almost every night");
  });
  it("takes vague words only when asked", () => {
    expect(extractFrequency("occasionally")).toBeUndefined();
    expect(extractFrequency("occasionally", true)).toBe("occasionally");
  });
});

describe("severity", () => {
  it("reads 'N out of 10' anywhere and a bare number when asked", () => {
    expect(extractSeverity("it's like a 4 out of 10")).toBe("4");
    expect(extractSeverity("nine out of ten on bad days")).toBe("9");
    expect(extractSeverity("5")).toBeUndefined();
    expect(extractSeverity("oh, 5", true)).toBe("5");
    expect(extractSeverity("about a six", true)).toBe("6");
  });
  it("records the upper end of a range", () => {
    expect(extractSeverity("maybe a 5 or 6", true)).toBe("6");
    expect(extractSeverity("3 to 4 out of 10")).toBe("4");
  });
  it("ignores numbers that are not ratings", () => {
    expect(extractSeverity("about 3 days", true)).toBeUndefined();
    expect(extractSeverity("it's 11", true)).toBeUndefined();
  });
});
