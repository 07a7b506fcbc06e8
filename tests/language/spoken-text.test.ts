import { describe, expect, it } from "vitest";
import { writtenNumbers } from "../../src/language/spoken-numbers.ts";
import { asSentence, cleanStatement, spokenStatements } from "../../src/language/spoken-text.ts";

describe("spoken statements made fit for a note", () => {
  it("drops fillers, stutters, broken-off words and dictation commands, and keeps the words said", () => {
    expect(
      spokenStatements(
        "okay . um , so on your , your heart exam , i do appreciate a , uh , murmur- which we've heard before . hey , dragon , show me the labs .",
      ),
    ).toEqual(["on your heart exam, i do appreciate a, murmur which we've heard before."]);
    expect(cleanStatement("some mild diverticuli- diverticulosis")).toBe("some mild diverticulosis");
    expect(cleanStatement("i do n't want to go ahead and order that")).toBe("i don't want to order that");
  });

  it("leaves words alone that only look like fillers (negative controls)", () => {
    expect(cleanStatement("the umbilical hernia is reducible")).toBe("the umbilical hernia is reducible");
    expect(cleanStatement("the x-ray shows a well-healed fracture")).toBe("the x-ray shows a well-healed fracture");
  });

  it("cuts an unpunctuated turn before the words that open a statement", () => {
    expect(
      spokenStatements(
        "okay alright so on facial examination there is no tenderness on nasal examination there is edema",
      ),
    ).toEqual(["on facial examination there is no tenderness", "on nasal examination there is edema"]);
  });

  it("leaves nothing of talk alone, and writes a statement as a sentence", () => {
    expect(spokenStatements("okay . alright . mm-hmm .")).toEqual([]);
    expect(asSentence("i think it's a sprain")).toBe("I think it's a sprain.");
    expect(asSentence("is it broken?")).toBe("Is it broken?");
  });
});

describe("spoken amounts in digits", () => {
  it("writes doses, grades and readings as notes do", () => {
    expect(writtenNumbers("amoxicillin five hundred milligrams three times a day for ten days")).toBe(
      "amoxicillin 500 mg 3 times a day for 10 days",
    );
    expect(writtenNumbers("a three out of six murmur")).toBe("a 3/6 murmur");
    expect(writtenNumbers("it's about one twenty eight over eighty")).toBe("it's about 128/80");
    expect(writtenNumbers("metformin a thousand milligrams twice a day")).toBe("metformin 1000 mg twice a day");
  });

  it("leaves a number word that is no amount (negative controls)", () => {
    expect(writtenNumbers("one of the stones")).toBe("one of the stones");
    expect(writtenNumbers("two of them were normal")).toBe("two of them were normal");
  });
});
