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

function renderTranscript(history) {
  const list = $("transcript");
  list.replaceChildren(
    ...history.map((turn) => {
      const item = document.createElement("li");
      item.className = turn.speaker;
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = turn.speaker;
      item.append(who, document.createTextNode(turn.text));
      return item;
    }),
  );
  list.scrollTop = list.scrollHeight;
}

const STATUSES = ["positive", "negative", "unknown", "avail", "unavail"];

function renderProfile(state) {
  const groups = new Map();
  for (const [slot, entries] of Object.entries(state)) {
    const status = STATUSES.find((candidate) => slot.startsWith(`${candidate}_`)) || "";
    const name = status ? slot.slice(status.length + 1) : slot;
    if (!groups.has(name)) groups.set(name, []);
    for (const entry of entries) groups.get(name).push({ status, entry });
  }
  const profile = $("profile");
  if (groups.size === 0) {
    profile.innerHTML = '<p class="empty">Nothing known yet.</p>';
    return;
  }
  profile.replaceChildren(
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
        label.textContent = status || entry.status || "";
        const { value, status: ownStatus, ...attributes } = entry;
        box.append(label, document.createTextNode(value || Object.values(attributes)[0] || ownStatus || ""));
        const details = Object.entries(attributes)
          .map(([key, val]) => `${key.replace(/_/g, " ")}: ${Array.isArray(val) ? val.join(", ") : val}`)
          .join("; ");
        if (details) {
          const extra = document.createElement("span");
          extra.className = "attributes";
          extra.textContent = details;
          box.append(extra);
        }
        section.append(box);
      }
      return section;
    }),
  );
}

function render(view) {
  session = view;
  renderTranscript(view.history);
  renderProfile(view.state);
  if (view.outcome) $("debug").textContent = JSON.stringify({ frames: view.outcome.frames, actions: view.outcome.actions, ms: Math.round(view.outcome.elapsedMs * 10) / 10 }, null, 2);
  const simulated = Boolean(view.case);
  $("simulate").hidden = !simulated;
  $("auto").hidden = !simulated;
  $("message").disabled = simulated || view.ended;
  $("send").disabled = simulated || view.ended;
  $("retry").hidden = !view.error;
  if (view.ended) setStatus("The history is complete. Start a new conversation to go again.");
  else if (view.error) setStatus(`The last turn failed: ${view.error}`, true);
  else setStatus("");
}

async function guarded(work) {
  if (running) return;
  running = true;
  try {
    await work();
  } catch (error) {
    setStatus(error.message, true);
  } finally {
    running = false;
  }
}

async function newConversation() {
  const caseId = $("case").value;
  render(await api("POST", "/api/sessions", caseId ? { case: caseId } : {}));
  if (!caseId) $("message").focus();
}

$("new").addEventListener("click", () => guarded(newConversation));
$("case").addEventListener("change", () => guarded(newConversation));

$("composer").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("message").value.trim();
  if (!text || !session) return;
  guarded(async () => {
    setStatus("The doctor is thinking…");
    $("message").value = "";
    render(await api("POST", `/api/sessions/${session.id}/turns`, { text }));
  });
});

$("simulate").addEventListener("click", () => guarded(async () => render(await api("POST", `/api/sessions/${session.id}/simulate`))));
$("retry").addEventListener("click", () => guarded(async () => render(await api("POST", `/api/sessions/${session.id}/retry`))));
$("auto").addEventListener("click", () =>
  guarded(async () => {
    for (let step = 0; step < 150 && session && !session.ended && !session.error; step += 1) {
      render(await api("POST", `/api/sessions/${session.id}/simulate`));
    }
  }),
);

guarded(async () => {
  const { cases } = await api("GET", "/api/cases");
  for (const item of cases) {
    const option = document.createElement("option");
    option.value = item.id;
    option.textContent = `Simulated: ${item.title}`;
    $("case").append(option);
  }
  await newConversation();
});
