/**
 * A request to repeat or explain the question: "Sorry, can you repeat that?", "I'm not sure what you
 * mean", "I don't understand the question", "I didn't catch that", "what do you mean by cough?". It
 * answers nothing, so nothing is recorded for what was asked and the doctor can ask again. Not an
 * unsure answer about the thing asked ("I'm not sure if it was a fever" is unknown), nor "I don't get
 * that" (a no: "I don't have that"), nor "I didn't hear any wheezing".
 */
export const ASKS_TO_REPEAT_OR_EXPLAIN = new RegExp(
  [
    "\\b(?:(?:not (?:\\w+ )?sure|don't (?:\\w+ )?(?:know|understand|get)|no idea) what you(?:'re| are)? (?:mean|meant|asking|asked|saying|said|talking about)",
    "(?:don't|didn't|do not|did not) (?:\\w+ )?(?:understand|follow|catch|hear) (?:the question|that|you|what you (?:said|asked))",
    "(?:don't|didn't|do not|did not) (?:\\w+ )?(?:understand|follow)(?=\\s*[.?!]?\\s*$)",
    "(?:can|could|would) you (?:please )?(?:repeat|rephrase|say (?:that|it) again|explain (?:that|what you mean))",
    "what do you mean|what does that mean|say (?:that|it) again|come again|pardon(?: me)?|what was that)\\b",
  ].join("|"),
);
