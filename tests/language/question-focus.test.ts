import { describe, expect, it } from "vitest";
import { questionFocus } from "../../src/language/question-focus.ts";

describe("the question a doctor's turn ends with", () => {
  it("is the asking sentences at the end of a punctuated turn, not the findings before them", () => {
    expect(
      questionFocus("your lungs are clear and there's some swelling of the ankle . any chest pain ? any fevers ?"),
    ).toBe("any chest pain ? any fevers ?");
  });

  it("takes the sentence before a short question that points back at it", () => {
    expect(
      questionFocus("i know you've struggled with your blood pressure pills . how are you doing with that ?"),
    ).toBe("i know you've struggled with your blood pressure pills . how are you doing with that ?");
  });

  it("is the last sentence when the turn asks nothing", () => {
    expect(questionFocus("your x-ray is normal . we'll start physical therapy .")).toBe(
      "we'll start physical therapy .",
    );
  });

  it("in an unpunctuated turn starts where the last question does, not at a stated 'we have you on'", () => {
    expect(questionFocus("okay so on your facial exam i'm going to press here does this hurt")).toBe("does this hurt");
    expect(questionFocus("alright are you still taking the metformin we have you on twice a day")).toBe(
      "are you still taking the metformin we have you on twice a day",
    );
  });

  it("is a chat's one question itself", () => {
    expect(questionFocus("Have you had any fever?")).toBe("Have you had any fever?");
  });
});
