/**
 * The words that say what a doctor utterance asks: question shape, slot cues ("any medications?"),
 * open and inverted questions. Attribute cues live with their attribute (`attributes/`).
 */

/** Acknowledgements and fillers before a question ("OK, so, …"). */
export const LEAD_IN =
  /^(?:(?:ok|okay|alright|all right|right|and|so|then|now|also|but|um|uh|great|good|yeah|yes|no|sure|perfect|cool|mhm|well|oh|i see|got it|for sure|fair enough|gotcha|thanks|thank you)[\s,]+)*/;
/** How a question starts once the lead-in is cut ("do you …", "any …", "how …", "tell me …"). */
export const QUESTION_START =
  /^(?:do|does|did|have|has|had|are|is|was|were|can|could|would|will|any|anything|anyone|anybody|how|what|when|where|which|who|why|tell me|i was wondering|i wanted to ask|i'd like to ask|you use|you've|you have|ever|describe|let me know)\b/;
/** Closing and small-talk questions ("any questions for me?", "how does that sound?"). */
export const CLOSING =
  /\b(?:any (?:other )?questions|questions (?:for me|of your own|that you had)|anything else (?:you|that you)|how does that sound|does that sound|any concerns|anything (?:you wanted|that you wanted) to (?:talk|discuss|ask|bring up)|that was all the questions|those were all the questions|that's all the questions)\b/;
/** A question about the past: "had this before?", "in the past", "ever had" — not "before you get short of breath" or "in the past few days". */
export const PAST =
  /\b(?:before(?=\s*(?:[?.,!]|$|now\b|at all\b|in your life\b))|in the past(?!\s+(?:few|couple|several|\d|one|two|three|four|five|six|seven|week|day|month|year|night|hour))|previously|ever (?:had|experienced|been|gotten|get)|prior|earlier in your life|happened before|like this before)\b/;
/** "This", "like this", "anything similar": a question about the present complaint. */
export const THIS_LIKE = /\b(?:this|that|these|like this|something like|anything like|similar|the same)\b/;
/** Words of a medication question ("any medications?", "tried anything?", "over the counter"). */
export const MEDICATION_CUE =
  /\b(?:medications?|meds|medicines?|pills|prescriptions?|over the counter|supplements|tried anything|taking anything|take anything|tried taking|on anything)\b/;
/** Words of an exposure question ("been around anyone sick?", "exposed to", "contact with"). */
export const EXPOSURE_CUE =
  /\b(?:exposed|exposures?|been around|around any|contact with|in contact|sick contacts?|(?:anyone|anybody|someone|somebody|people)\b[^.?]{0,24}\b(?:sick|ill|unwell))\b/;
/** Words of a travel question ("travelled anywhere?", "out of the country", "vacation"). */
export const TRAVEL_CUE =
  /\b(?:travel(?:l?ed|l?ing)?|trips?|abroad|out of (?:the )?(?:country|town|province|state)|vacation|holiday)\b/;
/** Words of a residence question ("where do you live?", "who do you live with?"). */
export const RESIDENCE_CUE =
  /\b(?:where do you live|where are you living|living situation|live with|who do you live|living arrangements?|home situation|live alone|living alone|where you live|describe your home|type of home|kind of home)\b/;
/** Words of an occupation question ("what do you do for work?", "are you working?"). */
export const OCCUPATION_CUE =
  /\b(?:for work|for a living|your job|occupation|do you work|are you working|what do you do|line of work|employed|working right now|currently working|where do you work|what kind of work|your work)\b/;
/** "How old are you?", "your age", "are you male or female?": basic information. */
export const AGE_CUE =
  /\b(?:how old are you|how old you are|your age|what age are you|male or female|female or male|your sex|your gender|sex assigned|a man or a woman|a woman or a man)\b/;
/** "Otherwise healthy?", "in good health?": a yes means nothing is wrong. */
export const HEALTHY_CUE =
  /\b(?:otherwise healthy|healthy person|in good health|generally healthy|healthy otherwise|otherwise well|been healthy|healthy individual|healthy overall)\b/;
/** A question ending in "normal?", "okay?", "fine?": a yes means absent. */
export const NORMAL_QUESTION = /\b(?:normal|okay|ok|fine|alright|good)\s*\??\s*$/;
/** An open history question ("any other medical conditions?", "diagnosed with anything?"). */
export const OTHER_CONDITIONS =
  /\b(?:other (?:medical |health )?(?:conditions?|problems|issues|illness(?:es)?|diseases?)|medical conditions?|medical history|health (?:problems|conditions|issues)|diagnosed with|chronic (?:conditions?|illness(?:es)?))\b/;
/** An open symptom question ("any other symptoms?", "anything else?"). */
export const OTHER_SYMPTOMS = /\b(?:other symptoms|any symptoms|anything else)\b/;
/** "How far can you walk?", "how many flights?": severity asked as a distance. */
export const EXERCISE_TOLERANCE = /\b(?:how far (?:can|could|are) you (?:able to )?walk|how many (?:blocks|flights))\b/;
