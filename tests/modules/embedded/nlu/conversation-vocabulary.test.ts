import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  conversationVocabulary,
  deriveConversationVocabulary,
} from "../../../../src/modules/embedded/nlu/conversation-vocabulary.ts";
import { renderConversationVocabulary } from "../../../../src/modules/embedded/nlu/generate-conversation-vocabulary.ts";
import { BUNDLED } from "../../../../src/foundation/package-paths.ts";

describe("the conversation vocabulary (MTS-Dialog's training words seen twice)", () => {
  it("is up to date (regenerate with `npx tsx src/modules/embedded/nlu/generate-conversation-vocabulary.ts`)", () => {
    expect(readFileSync(BUNDLED.mtsDialogVocabulary, "utf8")).toBe(renderConversationVocabulary());
  });

  it("keeps words seen at least twice, lower-cased, in order of first occurrence", () => {
    expect(
      deriveConversationVocabulary("Doctor: Any fever?\nPatient: No fever, just a cough. A COUGH at night."),
    ).toEqual(["fever", "a", "cough"]);
  });

  it("holds everyday words the speller must leave alone, and no one-off", () => {
    const words = conversationVocabulary();
    expect(words.size).toBe(4685);
    for (const word of ["overnight", "overweight", "phlegm", "tylenol"]) expect(words.has(word)).toBe(true);
  });
});
