import { beforeAll, describe, expect, it } from "vitest";
import { embeddedNlu, slotsAfter } from "./nlu-harness.ts";

/**
 * Habits as a clinician hears them (issue 20, item 3): current, former and never smokers, amounts
 * ("20 a day", pack-years when said, "4 pints on a Saturday"). Hand-written, none from a MediTOD
 * dialogue; each with a negative control.
 */

beforeAll(() => {
  embeddedNlu();
});

/** The frames' slots, merged, of `utterance` said to `question`. */
const slotsOf = (question: string, utterance: string) => slotsAfter(question, utterance);

describe("smoking: current, former, never", () => {
  const former = [
    "I used to smoke but I quit 5 years ago.",
    "I'm an ex-smoker.",
    "I gave up smoking last year, I smoked 20 a day for 10 years.",
    "I smoked for years but I dont smoke anymore.",
    "I smoked for 30 years, stopped 5 years ago.",
    "I smoked 20 a day but gave up in 2015.",
  ];
  for (const said of former)
    it(`"${said}" is a former smoker, not a current one`, async () => {
      const slots = await slotsOf("Do you smoke?", said);
      expect(slots).toMatchObject({ positive_habit: [expect.objectContaining({ value: "former smoker" })] });
      expect(JSON.stringify(slots)).not.toContain('"smoking"');
    });

  it("a stop that names no habit, said to a smoking question, is a former smoker", async () => {
    for (const said of [
      "I quit last year",
      "not anymore, I stopped two years ago",
      "No, I gave up when my daughter was born",
    ]) {
      expect(await slotsOf("Do you smoke?", said), said).toEqual({ positive_habit: [{ value: "former smoker" }] });
    }
    // Negative controls: the stop of another habit, an attempt, a stop undone, and a plain no.
    expect(JSON.stringify(await slotsOf("Do you smoke or drink?", "I quit drinking last year"))).not.toContain("smok");
    expect(JSON.stringify(await slotsOf("Do you smoke?", "I'm trying to quit"))).not.toContain("former smoker");
    expect(JSON.stringify(await slotsOf("Do you smoke?", "I quit for a year but started again"))).not.toContain(
      "former smoker",
    );
    expect(await slotsOf("Do you smoke?", "No.")).toEqual({ negative_habit: [{ value: "smoking" }] });
  });

  it('a current smoker\'s "20 a day for 10 years" keeps the amount and the start', async () => {
    expect(await slotsOf("Do you smoke?", "Yes, 20 a day for 10 years.")).toEqual({
      positive_habit: [{ value: "smoking", frequency: "20 a day", starting: "10 years ago" }],
    });
  });

  it("a former smoker's years smoked stay with the amount, never as when they began", async () => {
    for (const said of [
      "I used to smoke 20 a day for 30 years but I quit 5 years ago",
      "I gave up smoking last year, I smoked 20 a day for 30 years.",
    ]) {
      const slots = await slotsOf("Do you smoke?", said);
      expect(slots, said).toEqual({ positive_habit: [{ value: "former smoker", frequency: "20 a day for 30 years" }] });
    }
    // Negative control: the same words of someone who still smokes date when they began.
    expect(await slotsOf("Do you smoke?", "Yes, 20 a day for 30 years.")).toEqual({
      positive_habit: [{ value: "smoking", frequency: "20 a day", starting: "30 years ago" }],
    });
  });

  it("pack-years when said", async () => {
    expect(await slotsOf("Do you smoke?", "About 30 pack years, still going.")).toMatchObject({
      positive_habit: [{ value: "smoking", frequency: "30 pack-years" }],
    });
  });

  it('negative controls: "never smoked" is a non-smoker; "tried to quit" is no former smoker', async () => {
    expect(await slotsOf("Do you smoke?", "Never smoked.")).toEqual({ negative_habit: [{ value: "smoking" }] });
    expect(
      JSON.stringify(await slotsOf("Have you tried to quit?", "Yeah, tried to quit a couple of times.")),
    ).not.toContain("former smoker");
    for (const said of [
      "I smoke about half a pack a day. I've tried to quit multiple times.",
      "I smoke 10 a day, I stopped drinking though.",
      "I quit for a year but started again.",
    ])
      expect(JSON.stringify(await slotsOf("Do you smoke?", said)), said).not.toContain("former smoker");
  });
});

describe("alcohol as an amount", () => {
  it('"4 pints on a Saturday" is drinking with its amount', async () => {
    expect(await slotsOf("Do you drink alcohol?", "4 pints on a Saturday.")).toMatchObject({
      positive_habit: [{ frequency: "4 pints on a saturday" }],
    });
  });

  it('negative control: "I don\'t drink" denies it', async () => {
    expect(await slotsOf("Do you drink alcohol?", "I dont drink.")).toMatchObject({
      negative_habit: [expect.objectContaining({})],
    });
  });

  for (const said of [
    "I stopped drinking two years ago.",
    "No, I gave up the booze in 2019.",
    "I used to drink heavily but I havent touched a drop since my liver scare.",
    "I don't drink any more.",
  ])
    it(`"${said}" is no drinking now, never a current drinker`, async () => {
      const slots = await slotsOf("Do you drink alcohol?", said);
      expect(slots).toMatchObject({ negative_habit: [{ value: "alcohol abuse" }] });
      expect(slots).not.toHaveProperty("positive_habit");
      expect(slots).not.toHaveProperty("unknown_habit");
    });

  it('negative controls: "trying to stop drinking" and "stopped but started again" still drink', async () => {
    for (const said of [
      "I'm trying to stop drinking, I still have a few beers a night.",
      "I stopped drinking for a year but started again.",
    ])
      expect(JSON.stringify(await slotsOf("Do you drink alcohol?", said)), said).not.toContain("negative_habit");
  });
});
