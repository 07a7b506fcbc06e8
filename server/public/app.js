// The chat page: plain DOM, no framework, no third-party requests.
"use strict";

const $ = (id) => document.getElementById(id);
let session = null;
let running = false;

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { "content-type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  if (response.status === 204) return null;
  const json = await response.json();
  if (!response.ok) throw new Error(json.error ? json.error.message : `HTTP ${response.status}`);
  return json;
}

function setStatus(text, isError) {
  $("status").textContent = text || "";
  $("status").className = isError ? "error" : "";
}

/** The doctor turn that carries each fallback's notice: the last of the reply to its patient turn. */
function fallbackNotices(history, fallbacks) {
  const notices = new Map();
  for (const fallback of fallbacks) {
    let reply = fallback.turn + 1;
    while (reply + 1 < history.length && history[reply + 1].speaker === "doctor") reply += 1;
    notices.set(reply, fallback);
  }
  return notices;
}

function renderTranscript(history, practice, fallbacks) {
  const list = $("transcript");
  const notices = fallbackNotices(history, fallbacks || []);
  list.replaceChildren(
    ...history.map((turn, index) => {
      const item = document.createElement("li");
      item.className = turn.speaker;
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = practice && turn.speaker === "doctor" ? "you (doctor)" : turn.speaker;
      item.append(who, document.createTextNode(turn.text));
      const fallback = notices.get(index);
      if (fallback) {
        // Not an error: the turn was answered, by the offline engine instead of the configured backend.
        const notice = document.createElement("span");
        notice.className = "fallback-notice";
        notice.textContent = `offline engine answered: ${fallback.reason}`;
        item.classList.add("offline");
        item.append(notice);
      }
      return item;
    }),
  );
  list.scrollTop = list.scrollHeight;
}

/**
 * Status prefixes and the statuses meaning "present" (ontology/cmas.json), and the record's labels
 * (ontology/record-labels.json: value → its lay label, and the patient's words that keep the value),
 * from the server (`/api/ontology`).
 */
const names = { statuses: [], presentStatuses: [], recordLabels: {} };

/** A CMAS value as the record shows it: the data's label of everyday words ("alcohol abuse", "bedridden") in lay words, unless the patient said it. */
function recordValue(value, patientWords) {
  if (typeof value !== "string" || !Object.hasOwn(names.recordLabels, value)) return value;
  const { label, said } = names.recordLabels[value];
  return said !== undefined && new RegExp(said, "i").test(patientWords) ? value : label;
}

/** Plain words for the state's status prefixes and entry statuses, which are codes of the CMAS schema. */
const STATUS_WORDS = {
  positive: "yes",
  negative: "no",
  unknown: "not sure",
  avail: "done",
  unavail: "not done",
  not_traveled: "has not travelled",
  traveled: "travelled",
  true: "",
  false: "not",
};

/** Plain words for attribute names (the CMAS schema spells one "respone_to"). */
const ATTRIBUTE_WORDS = {
  respone_to: "taken for",
  response_to: "taken for",
  impact: "effect",
  aggravating_factor: "worse with",
  alleviating_factor: "better with",
  not_aggravating_factor: "not worse with",
  not_alleviating_factor: "not better with",
  not_alleviating_aggravating_factor: "no change with",
  unknown_factor: "not sure what changes it",
  unknown_ana_factor: "not sure what changes it",
  positive_characteristics: "feels",
  negative_characteristics: "does not feel",
  unknown_characteristics: "not sure if",
  rash_swollen: "swollen",
  lesions_peel_off: "peels off",
  lesion_size: "size",
};

/** A code in plain words: known ones from the tables above, any other lower-cased with spaces ("NOT_TRAVELED" → "not traveled"). */
function plainWords(code, table) {
  const key = String(code).toLowerCase();
  if (Object.hasOwn(table, key)) return table[key];
  return key.replace(/_/g, " ");
}

/** The medicines the patient named, each with its dose and how often, as the profile's first section (none: no section). */
function medicinesSection(medicines) {
  const section = document.createElement("div");
  section.className = "slot";
  const title = document.createElement("h3");
  title.textContent = "medicines named";
  section.append(title);
  for (const medicine of medicines) {
    const box = document.createElement("span");
    box.className = "entry positive";
    box.append(document.createTextNode(medicine.name));
    const details = [
      medicine.dose ? `dose: ${medicine.dose}` : "",
      medicine.frequency ? `how often: ${medicine.frequency}` : "",
    ]
      .filter(Boolean)
      .join("; ");
    appendDetails(box, details);
    section.append(box);
  }
  return section;
}

/** Adds an entry's details (attributes, or a medicine's dose and frequency) under it, when it has any. */
function appendDetails(box, details) {
  if (!details) return;
  const extra = document.createElement("span");
  extra.className = "attributes";
  extra.textContent = details;
  box.append(extra);
}

function renderProfile(state, medicines, history) {
  const patientWords = history
    .filter((turn) => turn.speaker === "patient")
    .map((turn) => turn.text)
    .join("\n");
  const groups = new Map();
  for (const [slot, entries] of Object.entries(state)) {
    const status = names.statuses.find((candidate) => slot.startsWith(`${candidate}_`)) || "";
    const name = status ? slot.slice(status.length + 1) : slot;
    if (!groups.has(name)) groups.set(name, []);
    for (const entry of entries) groups.get(name).push({ status, entry });
  }
  const profile = $("profile");
  if (groups.size === 0 && medicines.length === 0) {
    profile.innerHTML = '<p class="empty">Nothing known yet.</p>';
    return;
  }
  profile.replaceChildren(
    ...(medicines.length > 0 ? [medicinesSection(medicines)] : []),
    ...[...groups].map(([name, items]) => {
      const section = document.createElement("div");
      section.className = "slot";
      const title = document.createElement("h3");
      title.textContent = name.replace(/_/g, " ");
      section.append(title);
      for (const { status, entry } of items) {
        const box = document.createElement("span");
        box.className = `entry ${status || entry.status || ""}`;
        const label = document.createElement("span");
        label.className = "status";
        const { value, status: ownStatus, ...attributes } = entry;
        const said = status || ownStatus || "";
        label.textContent = said && value ? plainWords(said, STATUS_WORDS) : "";
        const shown =
          recordValue(value, patientWords) ||
          Object.values(attributes)[0] ||
          (ownStatus ? plainWords(ownStatus, STATUS_WORDS) : "");
        box.append(label, document.createTextNode(Array.isArray(shown) ? shown.join(", ") : shown));
        const details = Object.entries(attributes)
          .filter(([, val]) => value || val !== shown)
          .map(([key, val]) => `${plainWords(key, ATTRIBUTE_WORDS)}: ${Array.isArray(val) ? val.join(", ") : val}`)
          .join("; ");
        appendDetails(box, details);
        section.append(box);
      }
      return section;
    }),
  );
}

const URGENCY = { emergency: "Emergency", same_day: "See a doctor today", soon: "See a doctor soon" };

/** The red-flag banner: every flag fired so far, with its advice in plain words. */
function renderRedFlags(flags, ended) {
  const banner = $("red-flags");
  banner.hidden = flags.length === 0;
  $("red-flag-list").replaceChildren(
    ...flags.map((flag) => {
      const item = document.createElement("li");
      item.className = `urgency-${flag.urgency}`;
      const title = document.createElement("strong");
      title.textContent = `${URGENCY[flag.urgency] || flag.urgency}: ${flag.label}. `;
      item.append(title, document.createTextNode(flag.advice));
      return item;
    }),
  );
  banner.querySelector(".choice").hidden = ended;
}

const SLOT_NAMES = { basic_information: "about the patient" };

/** Practice mode: which facts of the case the trainee has asked about, by slot. */
function renderCoverage(coverage) {
  const reveal = $("reveal").checked;
  $("coverage-summary").textContent = `(${coverage.percent}% — ${coverage.asked} of ${coverage.total} asked)`;
  const groups = new Map();
  for (const fact of coverage.facts) {
    if (!groups.has(fact.slot)) groups.set(fact.slot, []);
    groups.get(fact.slot).push(fact);
  }
  if (groups.size === 0) {
    $("coverage").innerHTML = '<p class="empty">This case has no history to take.</p>';
    return;
  }
  $("coverage").replaceChildren(
    ...[...groups].map(([slot, facts]) => {
      const section = document.createElement("div");
      section.className = "slot";
      const title = document.createElement("h3");
      const done = facts.filter((fact) => fact.asked).length;
      title.textContent = `${SLOT_NAMES[slot] || slot.replace(/_/g, " ")} — ${done} of ${facts.length} asked`;
      section.append(title);
      for (const fact of facts) {
        const box = document.createElement("span");
        box.className = `entry fact ${fact.asked ? "asked" : "pending"}`;
        const label = document.createElement("span");
        label.className = "status";
        label.textContent = fact.asked ? "asked" : "not yet asked";
        const shown = fact.asked || reveal;
        box.append(
          label,
          document.createTextNode(
            shown
              ? `${fact.label}${fact.status && !names.presentStatuses.includes(fact.status) ? ` (${fact.status})` : ""}`
              : "…",
          ),
        );
        if (shown && fact.attributes.length > 0) {
          const extra = document.createElement("span");
          extra.className = "attributes";
          for (const attribute of fact.attributes) {
            const tag = document.createElement("span");
            tag.className = `attr ${attribute.asked ? "asked" : "pending"}`;
            tag.textContent = `${attribute.asked ? "✓" : "○"} ${attribute.name.replace(/_/g, " ")}`;
            extra.append(tag);
          }
          box.append(extra);
        }
        section.append(box);
      }
      return section;
    }),
  );
}

function renderPractice(view) {
  session = view;
  document.body.classList.add("practice");
  renderRedFlags([], true);
  $("note").hidden = true;
  renderTranscript(view.history, true, []);
  renderCoverage(view.coverage);
  $("profile-panel").hidden = true;
  $("coverage-panel").hidden = false;
  $("debug-summary").textContent = "Last question: doctor actions read from it";
  if (view.actions) $("debug").textContent = JSON.stringify({ actions: view.actions }, null, 2);
  $("simulate").hidden = true;
  $("auto").hidden = true;
  $("retry").hidden = true;
  $("message").disabled = false;
  $("send").disabled = false;
  $("message").placeholder = "Ask the patient a question…";
  $("message").setAttribute("aria-label", "Your question");
  setStatus(
    view.history.length === 0
      ? "You are the doctor: take the history. Start by asking what brings the patient in."
      : "",
  );
}

/** Retry re-runs a failed turn, or re-asks the configured backend for a turn the offline engine answered; the status says which. */
function renderRetryAndStatus(view) {
  const lastFallback = (view.fallbacks || []).at(-1);
  const offline = view.retryable && !view.error && lastFallback;
  $("retry").hidden = !view.retryable;
  $("retry").textContent = offline ? `Retry with ${lastFallback.backend}` : "Retry";
  $("retry").title = offline ? `Ask ${lastFallback.backend} again for the last turn` : "Run the failed turn again";
  if (view.error) {
    setStatus(`The last turn failed: ${view.error}`, true);
    return;
  }
  const notes = [];
  if (view.ended) notes.push("The history is complete. Start a new conversation to go again.");
  if (offline)
    notes.push(
      `The offline engine answered the last turn because ${lastFallback.backend} failed; Retry asks ${lastFallback.backend} again.`,
    );
  setStatus(notes.join(" "));
}

function render(view) {
  if (view.role === "doctor") {
    renderPractice(view);
    return;
  }
  session = view;
  document.body.classList.remove("practice");
  $("profile-panel").hidden = false;
  $("coverage-panel").hidden = true;
  $("debug-summary").textContent = "Last turn: NLU frames and doctor actions";
  $("message").placeholder = "Type the patient's answer…";
  $("message").setAttribute("aria-label", "Patient's answer");
  renderTranscript(view.history, false, view.fallbacks);
  renderProfile(view.state, view.medicines || [], view.history);
  renderRedFlags(view.redFlags || [], view.ended);
  // The note is written by the server from the tracked state; the link downloads it as Markdown.
  $("note").href = `/api/sessions/${encodeURIComponent(view.id)}/note?format=markdown`;
  $("note").setAttribute("download", `anamnesis-note-${view.id}.md`);
  $("note").hidden = !view.history.some((turn) => turn.speaker === "patient");
  if (view.outcome)
    $("debug").textContent = JSON.stringify(
      { frames: view.outcome.frames, actions: view.outcome.actions, ms: Math.round(view.outcome.elapsedMs * 10) / 10 },
      null,
      2,
    );
  const simulated = Boolean(view.case);
  $("simulate").hidden = !simulated;
  $("auto").hidden = !simulated;
  $("simulate").disabled = view.ended;
  $("auto").disabled = view.ended;
  $("message").disabled = simulated || view.ended;
  $("send").disabled = simulated || view.ended;
  renderRetryAndStatus(view);
}

/**
 * Runs one action at a time. While it runs the page is marked busy: its buttons and lists take no
 * clicks (style.css) and say so with the cursor, instead of a click that looks taken and is dropped
 * (an "Auto" pressed while a new conversation was still being made did nothing).
 */
async function guarded(work) {
  if (running) return;
  running = true;
  document.body.classList.add("busy");
  try {
    await work();
  } catch (error) {
    setStatus(error.message, true);
  } finally {
    running = false;
    document.body.classList.remove("busy");
  }
}

async function newConversation() {
  const practice = $("role").value === "doctor";
  // A practice session needs a case: the first one stands in for "You".
  if (practice && !$("case").value && $("case").options.length > 1) $("case").selectedIndex = 1;
  $("case").options[0].disabled = practice;
  const caseId = $("case").value;
  if (practice && !caseId) throw new Error("Practice mode needs a simulated patient, and this server offers none.");
  render(
    await api("POST", "/api/sessions", practice ? { case: caseId, role: "doctor" } : caseId ? { case: caseId } : {}),
  );
  if (!caseId || practice) $("message").focus();
}

$("new").addEventListener("click", () => guarded(newConversation));
$("case").addEventListener("change", () => guarded(newConversation));
$("role").addEventListener("change", () => guarded(newConversation));
$("reveal").addEventListener("change", () => {
  if (session && session.coverage) renderCoverage(session.coverage);
});

$("composer").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("message").value.trim();
  if (!text || !session) return;
  guarded(async () => {
    setStatus(session.role === "doctor" ? "The patient is thinking…" : "The doctor is thinking…");
    $("message").value = "";
    render(await api("POST", `/api/sessions/${session.id}/turns`, { text }));
  });
});

$("simulate").addEventListener("click", () =>
  guarded(async () => render(await api("POST", `/api/sessions/${session.id}/simulate`))),
);
$("end").addEventListener("click", () =>
  guarded(async () => render(await api("POST", `/api/sessions/${session.id}/end`))),
);
$("retry").addEventListener("click", () =>
  guarded(async () => {
    setStatus("Asking again…");
    render(await api("POST", `/api/sessions/${session.id}/retry`));
  }),
);
$("auto").addEventListener("click", () =>
  guarded(async () => {
    for (let step = 0; step < 150 && session && !session.ended && !session.error; step += 1) {
      render(await api("POST", `/api/sessions/${session.id}/simulate`));
    }
  }),
);

/**
 * What screens for red flags, from `/api/health`: the rules always; the learned model and the semantic
 * signal's statements off, loading, on or failed (and why).
 */
async function renderRedFlagSignal(tries = 0) {
  const { redFlags } = await api("GET", "/api/health");
  const { state, reason, statements, learnedModel } = redFlags.semantic;
  const words = {
    on: "on",
    loading: "loading",
    off: `off${reason ? ` (${reason})` : ""}`,
    failed: `failed${reason ? ` (${reason})` : ""}: the rules run alone`,
  };
  const signal =
    state === "on"
      ? `learned model ${learnedModel ? "on" : "off"}; statements compared ${statements ? "on" : "off"}`
      : `learned model and semantic signal ${words[state] || state}`;
  $("red-flag-signal").textContent = `Red flags: lay-word rules on; ${signal}.`;
  // Asked again while the encoder loads (for a few minutes at most), so the note says when it is on.
  if (state === "loading" && tries < 60) setTimeout(() => renderRedFlagSignal(tries + 1).catch(() => {}), 3000);
}

guarded(async () => {
  renderRedFlagSignal().catch(() => {});
  Object.assign(names, await api("GET", "/api/ontology"));
  const { cases } = await api("GET", "/api/cases");
  for (const item of cases) {
    const option = document.createElement("option");
    option.value = item.id;
    option.textContent = `Simulated: ${item.title}`;
    $("case").append(option);
  }
  await newConversation();
});
