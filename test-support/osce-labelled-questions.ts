/**
 * Doctor questions phrased the way LLM doctors and clinicians ask them in free text, each labelled by
 * hand with every OSCE checklist item it asks (and only those), written after the checklist's rules:
 * `DEVELOPMENT_QUESTIONS` holds two sets, each scored once as held out and its misses then fixed in the
 * rules; `HELD_OUT_QUESTIONS` was written after the last of those fixes and has never been used to
 * change a rule. `bench/osce-checklist.ts` reports the rules' precision and recall on both (associated symptoms
 * left out: whether a question asks them depends on the case).
 */

/** One question and the ids of the checklist items it asks. */
export interface LabelledQuestion {
  readonly question: string;
  readonly items: readonly string[];
}

/** The development set: two sets, each scored once as held out and then used to fix the rules. */
export const DEVELOPMENT_QUESTIONS: readonly LabelledQuestion[] = [
  {
    question: "Thank you for coming in. Could you tell me what brings you here today?",
    items: ["presenting_complaint"],
  },
  { question: "Can you tell me when these symptoms first began?", items: ["onset", "duration"] },
  { question: "Have the symptoms changed over time, or stayed about the same?", items: ["progression"] },
  {
    question: "Could you describe the nature of the pain? Is it sharp, dull, burning, or cramping?",
    items: ["pain_character"],
  },
  { question: "On a scale of 1 to 10, how would you rate the severity of your pain?", items: ["pain_severity"] },
  { question: "Does the pain radiate to any other part of your body?", items: ["pain_radiation"] },
  {
    question: "Is there anything that seems to make the pain better or worse?",
    items: ["pain_exacerbating_relieving"],
  },
  { question: "Is the pain constant, or does it come and go?", items: ["pain_timing"] },
  { question: "Can you show me where it hurts the most?", items: ["pain_site"] },
  {
    question: "Have you experienced any nausea, vomiting, or changes in your bowel habits?",
    items: ["review_gi_nausea_vomiting", "review_gi_bowel_habit"],
  },
  {
    question: "Have you had any fever, chills, or night sweats?",
    items: ["review_general_fever_sweats", "review_resp_fever_sweats"],
  },
  { question: "Are you currently taking any medications or supplements?", items: ["medications"] },
  { question: "Do you have any known allergies to medications?", items: ["allergies"] },
  { question: "Is there a family history of similar conditions?", items: ["family_history"] },
  {
    question: "Do you smoke, drink alcohol, or use recreational drugs?",
    items: ["smoking", "alcohol", "review_psych_psychosis_substances"],
  },
  { question: "What is your occupation?", items: ["occupation"] },
  {
    question: "Do you have any significant past medical history or previous surgeries?",
    items: ["past_medical_history"],
  },
  {
    question: "Have you noticed any shortness of breath or difficulty breathing?",
    items: ["review_cardio_breathlessness", "review_resp_breathlessness_wheeze"],
  },
  {
    question: "Have you experienced any palpitations or a feeling that your heart is racing?",
    items: ["review_cardio_palpitations"],
  },
  {
    question: "Have you had any recent weight loss without trying?",
    items: ["review_general_weight", "review_resp_fever_sweats"],
  },
  {
    question: "Have you had any headaches, dizziness, or changes in your vision?",
    items: ["review_neuro_headache", "review_neuro_balance_dizziness", "review_neuro_vision", "review_cardio_syncope"],
  },
  {
    question: "Have you noticed any blood in your urine or pain when urinating?",
    items: ["review_gu_urine_appearance", "review_gu_dysuria"],
  },
  { question: "Are you sexually active, and do you use protection?", items: ["review_gu_genital_sexual"] },
  { question: "Is there any possibility that you might be pregnant?", items: ["pregnancy"] },
  { question: "Have you traveled anywhere recently?", items: ["review_resp_exposures"] },
  { question: "How has this been affecting your daily activities?", items: ["pain_severity", "review_msk_function"] },
  { question: "What are you most worried this could be?", items: ["concerns"] },
  { question: "Do you have your own thoughts on what might be causing this?", items: ["ideas"] },
  { question: "What are you hoping to get out of today's visit?", items: ["expectations"] },
  { question: "Who do you live with at home?", items: ["living_situation"] },
  { question: "Have you noticed any swelling in your legs or ankles?", items: ["review_cardio_ankle_swelling"] },
  {
    question: "Have you been coughing up any phlegm or blood?",
    items: ["review_resp_cough_sputum", "review_resp_haemoptysis"],
  },
  {
    question: "Any numbness, tingling, or weakness in your arms or legs?",
    items: ["review_neuro_weakness_numbness", "review_msk_neurology_sphincters"],
  },
  {
    question: "Have you had any seizures or episodes where you lost consciousness?",
    items: ["review_neuro_seizures", "review_cardio_syncope"],
  },
  {
    question: "Has the rash spread to other areas of your body?",
    items: ["review_skin_rash_lesions", "review_skin_distribution_change", "progression"],
  },
  { question: "Is the rash itchy or painful?", items: ["review_skin_rash_lesions", "review_skin_itch"] },
  { question: "Have you been feeling down, depressed, or hopeless lately?", items: ["review_psych_mood"] },
  { question: "How have you been sleeping?", items: ["review_psych_sleep_appetite_energy"] },
  { question: "Have you had any joint pain or stiffness?", items: ["review_msk_other_joints", "review_msk_stiffness"] },
  { question: "Did you have any injury or trauma to the area?", items: ["review_msk_injury"] },
  {
    question: "Have you lost your appetite?",
    items: ["review_general_appetite", "review_psych_sleep_appetite_energy"],
  },
  { question: "Have you been feeling more tired than usual?", items: ["review_general_fatigue"] },
  { question: "Are your vaccinations up to date?", items: ["immunisations"] },
  { question: "Is it worse at night or in the morning?", items: ["pain_timing"] },
  {
    question: "Have you noticed any yellowing of your skin or the whites of your eyes?",
    items: ["review_gi_jaundice"],
  },
  { question: "Have you had any trouble swallowing?", items: ["review_gi_swallowing_heartburn"] },
  { question: "Are you having any thoughts of hurting yourself?", items: ["review_psych_self_harm"] },
  { question: "Do you have any stiffness in your neck or sensitivity to light?", items: ["review_neuro_meningism"] },
  { question: "How many drinks do you have in a typical week?", items: ["alcohol"] },
  { question: "Have you ever been hospitalized?", items: ["past_medical_history"] },
  { question: "Can you walk me through exactly what happened when it started?", items: ["onset"] },
  { question: "How long does each episode typically last?", items: ["duration"] },
  { question: "I'm going to ask you a few questions about your general health now.", items: [] },
  { question: "Thank you, that's very helpful.", items: [] },
  { question: "Is there anything else you would like to discuss today?", items: [] },
  { question: "Have you tried any over-the-counter treatments for this?", items: ["pain_exacerbating_relieving"] },
  { question: "Does anyone else at home have similar symptoms?", items: ["review_resp_exposures"] },
  {
    question: "Have you had any chest pain or tightness?",
    items: ["review_cardio_chest_pain", "review_resp_chest_pain"],
  },
  { question: "Have you noticed any wheezing?", items: ["review_resp_breathlessness_wheeze"] },
  { question: "Have you noticed any lumps or swollen glands?", items: ["review_general_lumps"] },
  // The second set (written after the first had been used to fix the rules).
  { question: "Right, so tell me a bit about what's been going on.", items: ["presenting_complaint"] },
  { question: "And roughly how long ago did all this kick off?", items: ["onset", "duration"] },
  { question: "Since then, would you say things have improved or got worse?", items: ["progression"] },
  { question: "Where abouts do you feel it?", items: ["pain_site"] },
  { question: "What sort of pain is it - would you call it sharp or more of an ache?", items: ["pain_character"] },
  { question: "Does the pain move anywhere, for example into your back or shoulder?", items: ["pain_radiation"] },
  { question: "Does it ever wake you up at night?", items: ["pain_timing"] },
  { question: "Is there anything you've found that eases it?", items: ["pain_exacerbating_relieving"] },
  { question: "If you had to give it a number from nought to ten, what would you say?", items: ["pain_severity"] },
  { question: "Have there been any other changes in your health alongside this?", items: ["associated_symptoms"] },
  { question: "Have you been feeling sick at all?", items: ["review_gi_nausea_vomiting"] },
  { question: "Any problems with your waterworks?", items: ["review_gu_frequency_urgency"] },
  { question: "How have your bowels been behaving?", items: ["review_gi_bowel_habit"] },
  {
    question: "Have you been getting out of breath more easily than before?",
    items: ["review_cardio_breathlessness", "review_resp_breathlessness_wheeze"],
  },
  {
    question: "Have you had any funny turns or dizzy spells?",
    items: ["review_cardio_syncope", "review_neuro_balance_dizziness"],
  },
  { question: "Any problems with your eyesight?", items: ["review_neuro_vision"] },
  {
    question: "Have you had a temperature at all?",
    items: ["review_general_fever_sweats", "review_resp_fever_sweats"],
  },
  { question: "Have you noticed your clothes getting looser?", items: ["review_general_weight"] },
  { question: "Have you had any trouble getting to sleep?", items: ["review_psych_sleep_appetite_energy"] },
  { question: "Do you find you're still able to enjoy things?", items: ["review_psych_mood"] },
  {
    question: "Do you ever feel so low that you think about ending it all?",
    items: ["review_psych_self_harm", "review_psych_mood"],
  },
  { question: "Are you on any regular tablets from your GP?", items: ["medications"] },
  { question: "Have you ever reacted badly to any antibiotics, like penicillin?", items: ["allergies"] },
  { question: "Do you have any ongoing health problems, like asthma or diabetes?", items: ["past_medical_history"] },
  { question: "Are your mum and dad still alive?", items: ["family_history"] },
  {
    question: "Did any of your close relatives have heart attacks or strokes at a young age?",
    items: ["family_history"],
  },
  { question: "Are you a smoker at all?", items: ["smoking"] },
  { question: "How much do you tend to drink in a week?", items: ["alcohol"] },
  { question: "What line of work are you in?", items: ["occupation"] },
  { question: "Do you manage okay at home on your own?", items: ["living_situation"] },
  { question: "What's your own feeling about what might be going on?", items: ["ideas"] },
  { question: "Has anything in particular been on your mind about this?", items: ["concerns"] },
  { question: "Is there something specific you'd like us to do for you today?", items: ["expectations"] },
  { question: "When was your last menstrual period?", items: ["pregnancy"] },
  { question: "Has he had all his routine immunisations?", items: ["immunisations"] },
  { question: "Was she born at full term?", items: ["birth_development"] },
  { question: "Is the skin over it flaky or weeping?", items: ["review_skin_appearance"] },
  { question: "Have you changed your washing powder or soap recently?", items: ["review_skin_triggers_exposures"] },
  { question: "Do you ever hear voices when nobody is there?", items: ["review_psych_psychosis_substances"] },
  { question: "Have you had any problems with your memory?", items: ["review_neuro_speech_confusion"] },
  { question: "Is your heart ever beating fast or out of rhythm?", items: ["review_cardio_palpitations"] },
  { question: "Any blood when you open your bowels?", items: ["review_gi_bleeding"] },
  { question: "OK, thank you. I'd now like to examine you if that's alright.", items: [] },
  { question: "Do you have any questions for me?", items: [] },
];

/** Written after the last rule change made from the development set; never used to change a rule. */
export const HELD_OUT_QUESTIONS: readonly LabelledQuestion[] = [
  { question: "Hello, I'm Dr Reyes. What's the main thing you've come about?", items: ["presenting_complaint"] },
  { question: "So how long has she been poorly for?", items: ["onset", "duration"] },
  { question: "Is he getting better at all, or is he worse than yesterday?", items: ["progression"] },
  { question: "Has she been eating and drinking okay?", items: ["review_general_appetite"] },
  { question: "How many wet nappies has he had today?", items: ["review_gu_frequency_urgency"] },
  { question: "Is he up to date with his jabs?", items: ["immunisations"] },
  { question: "Has she been pulling at her ears or had a runny nose?", items: [] },
  {
    question: "Has he had any fits or been unusually sleepy?",
    items: ["review_neuro_seizures", "review_neuro_speech_confusion"],
  },
  { question: "Did the pregnancy and delivery go smoothly?", items: ["birth_development"] },
  { question: "Is anyone else in the house poorly at the moment?", items: ["review_resp_exposures"] },
  { question: "Can you describe what the pain is like?", items: ["pain_character"] },
  { question: "Does it get worse when you walk or climb stairs?", items: ["pain_exacerbating_relieving"] },
  { question: "Is it there constantly or does it come in episodes?", items: ["pain_timing"] },
  { question: "How would you rate it, with zero no pain and ten the worst you can imagine?", items: ["pain_severity"] },
  { question: "Does the discomfort spread anywhere, such as your arm or jaw?", items: ["pain_radiation"] },
  { question: "Could you point to the area where you feel it most?", items: ["pain_site"] },
  { question: "Did it come on all of a sudden, like being hit on the head?", items: ["onset"] },
  {
    question: "In addition to the headache, have you experienced any other symptoms?",
    items: ["associated_symptoms", "review_neuro_headache"],
  },
  {
    question: "Have you had any episodes of losing consciousness or feeling faint?",
    items: ["review_cardio_syncope", "review_neuro_seizures"],
  },
  {
    question: "Have you noticed any changes in your urine, such as color or frequency?",
    items: ["review_gu_urine_appearance", "review_gu_frequency_urgency"],
  },
  { question: "Have you had any diarrhea or constipation recently?", items: ["review_gi_bowel_habit"] },
  { question: "Have you noticed any unusual bleeding or bruising?", items: ["review_skin_rash_lesions"] },
  { question: "Have you experienced any unintentional weight changes?", items: ["review_general_weight"] },
  {
    question: "Have you noticed any changes in your skin, such as rashes or discoloration?",
    items: ["review_skin_rash_lesions"],
  },
  {
    question: "Are you experiencing any joint swelling or morning stiffness?",
    items: ["review_msk_other_joints", "review_msk_stiffness"],
  },
  { question: "Do you have a history of any chronic illnesses?", items: ["past_medical_history"] },
  {
    question: "What medications, including over-the-counter drugs and herbal supplements, are you taking?",
    items: ["medications"],
  },
  { question: "Do you have any drug allergies, and if so, what reaction did you have?", items: ["allergies"] },
  { question: "Has anyone in your immediate family been diagnosed with cancer?", items: ["family_history"] },
  { question: "Do you use tobacco products?", items: ["smoking"] },
  { question: "How often do you consume alcoholic beverages?", items: ["alcohol"] },
  { question: "Can you tell me about your work and home environment?", items: ["occupation", "living_situation"] },
  { question: "Is there a chance you are pregnant?", items: ["pregnancy"] },
  { question: "What concerns do you have about your symptoms?", items: ["concerns"] },
  { question: "What do you believe is causing your symptoms?", items: ["ideas"] },
  { question: "What outcome are you hoping for from this visit?", items: ["expectations"] },
  { question: "Have you been feeling anxious or stressed lately?", items: ["review_psych_anxiety"] },
  { question: "Have you lost interest in activities you used to enjoy?", items: ["review_psych_mood"] },
  { question: "Have you had any thoughts of suicide?", items: ["review_psych_self_harm"] },
  { question: "Have you had any problems passing water, like a weak stream?", items: ["review_gu_frequency_urgency"] },
  { question: "Any burning when you pee?", items: ["review_gu_dysuria"] },
  { question: "Have you had any sores or ulcers on your genitals?", items: ["review_gu_genital_sexual"] },
  {
    question: "Have you been short of breath when lying down?",
    items: ["review_cardio_breathlessness", "review_resp_breathlessness_wheeze"],
  },
  { question: "Any pain in your calves when you walk?", items: [] },
  { question: "Alright, I'll have a listen to your chest now.", items: [] },
];
