import { describe, expect, it } from "vitest";
import { inThirdPerson, patientAccount } from "../../src/language/patient-account.ts";
import { parseVisitTranscript } from "../../src/language/visit-transcript.ts";

describe("the patient's account in the third person", () => {
  it("changes the person and the verbs that agree with it, and nothing else", () => {
    expect(inThirdPerson("i just feel out of sorts lately", "male")).toBe("he just feels out of sorts lately");
    expect(inThirdPerson("i'm not sure if i have a cold", "female")).toBe("she is not sure if she has a cold");
    expect(inThirdPerson("i do not think my knee is broken", "male")).toBe("he does not think his knee is broken");
    expect(inThirdPerson("i tried to catch myself", null)).toBe("they tried to catch themselves");
  });

  it("leaves words that only contain a first-person pronoun alone (negative control)", () => {
    expect(inThirdPerson("the mild itching is improving", "male")).toBe("the mild itching is improving");
  });
});

describe("the account a note takes from a recorded visit", () => {
  const turns = parseVisitTranscript(
    [
      "[doctor] hi , how are you ?",
      "[patient] i'm doing well , thank you for asking .",
      "[doctor] what brings you in ?",
      "[patient] i twisted my ankle playing soccer on sunday and it swelled up .",
      "[doctor] any numbness ?",
      "[patient] no .",
      "[doctor] okay , on your ankle exam , there is swelling over the lateral malleolus .",
      "[patient] i think i broke it because it really hurts when i walk .",
    ].join("\n"),
  );

  it("keeps what the patient told of their illness before the examination, in order and in the third person", () => {
    expect(patientAccount(turns, 6, "female")).toEqual([
      "She twisted her ankle playing soccer on sunday and it swelled up.",
    ]);
  });

  it("leaves out greetings, short answers and what was said after the history ended (negative controls)", () => {
    const account = patientAccount(turns, 6, "female").join(" ");
    expect(account).not.toMatch(/doing well|^No|broke it/);
    expect(patientAccount(turns, 0, "female")).toEqual([]);
  });
});
