// The run inspector: hash routes (#/sessions, #/sessions/<id>, #/runs/<id>, #/new, #/domains).
// Every value from the API goes into the page as text (never as HTML).

import { ApiError, apiKey, followSse, getJson, postJson, setApiKey } from "./api.js";
import { el, enc, when } from "./dom.js";
import { STATUS_LABELS, dagSteps, formatMs, renderDag, renderTimeline } from "./graph.js";
import { showApprovals } from "./approvals.js";
import { showSchedules } from "./schedules.js";
import { runActions } from "./runs.js";

const view = document.getElementById("view");
const PAGE_SIZE = 25;
let leaving = new AbortController(); // aborts the current page's streams when the route changes

// ------------------------------------------------------------------ small DOM helpers

function badge(status) {
  const value = status || "unknown";
  return el("span", { class: `badge status-${value}`, "data-status": value, title: value }, STATUS_LABELS[value] || value);
}

// replaceChildren would print a skipped (null) part as the text "null"
function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
}

function card(title, ...children) {
  return el("section", { class: "card" }, el("h2", {}, title), ...children);
}

function keyValues(pairs) {
  return el("dl", { class: "kv" }, ...pairs.filter(([, v]) => v !== undefined).flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v ?? "–")]));
}

function rawJson(value, label = "Raw JSON") {
  return el("details", { class: "raw" }, el("summary", {}, label), el("pre", {}, JSON.stringify(value, null, 2)));
}

// What each kind of pending question means, for a person who never read the JSON.
const QUESTION_KINDS = {
  confidence_gate: "The goal was uncertain: the person confirms it.",
  domain_clarification: "A domain asked to pick one.",
  slot_filling: "The goal needs a value the person has not given yet: the platform asks for it.",
  approval: "A step needs the person's approval before it runs (nothing has run yet).",
};

// Channels by the names people know them by.
const CHANNEL_NAMES = {
  cli: "CLI",
  openai: "OpenAI API",
  rest: "REST API",
  a2a: "A2A",
  mcp: "MCP",
  telegram: "Telegram",
};

function channelName(channel) {
  return CHANNEL_NAMES[channel] || channel || "–";
}

// One status a person understands: waiting (with what for) wins over the last turn's status.
function personStatus(status, question) {
  if (question) return el("span", { class: "person-status" }, badge("waiting_input"), " ", el("span", { class: "pending-text" }, question));
  return badge(status);
}

// Capability descriptions by "domain.capability", in the language asked for (one fetch per language).
const catalogs = new Map();
function catalogIn(language) {
  const lang = (language || "en").split("-")[0];
  if (!catalogs.has(lang)) {
    catalogs.set(lang, getJson(`/v1/inspector/catalog?lang=${enc(lang)}`).catch((error) => {
      catalogs.delete(lang);
      if (error instanceof ApiError && error.status === 401) throw error;
      return null; // an older gateway: ids instead of descriptions
    }));
  }
  return catalogs.get(lang);
}

function describer(catalog) {
  const described = new Map();
  for (const d of (catalog && catalog.domains) || []) {
    for (const c of d.capabilities || []) described.set(`${d.name}.${c.name}`, c.description);
  }
  return (step) => described.get(`${step.domain}.${step.capability}`) || "";
}

function toast(message, kind = "info") {
  const box = document.getElementById("toast");
  box.textContent = message;
  box.className = `toast-${kind}`;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => {
    box.hidden = true;
  }, 5000);
}

function showError(error) {
  if (error instanceof ApiError && error.status === 401) {
    askForKey(error.message);
    fill(view, el("p", { class: "muted" }, "This gateway needs an API key."));
    return;
  }
  if (error && error.name === "AbortError") return;
  fill(view, el("p", { class: "error", id: "page-error" }, error && error.message ? error.message : String(error)));
}

// ------------------------------------------------------------------ the key

const keyDialog = document.getElementById("key-dialog");

function askForKey(reason) {
  const error = document.getElementById("key-error");
  error.textContent = reason || "";
  error.hidden = !reason;
  document.getElementById("key-input").value = apiKey();
  if (!keyDialog.open) keyDialog.showModal();
}

document.getElementById("key-button").addEventListener("click", () => askForKey(""));
document.getElementById("key-forget").addEventListener("click", () => {
  setApiKey("");
  keyDialog.close();
  route();
});
document.getElementById("key-form").addEventListener("submit", () => {
  setApiKey(document.getElementById("key-input").value.trim());
  route();
});

// ------------------------------------------------------------------ sessions list

async function showSessions(params) {
  const q = params.get("q") || "";
  const offset = Number(params.get("offset") || 0);
  const search = el("input", { type: "search", id: "session-search", name: "q", value: q, placeholder: "Words from a message or a title, or a session id" });
  const form = el("form", { class: "search", id: "session-search-form" }, search, el("button", { type: "submit" }, "Search"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    location.hash = `#/sessions?q=${enc(search.value.trim())}`;
  });
  fill(view, el("h1", {}, "Sessions"), form, el("p", { class: "muted" }, "Loading…"));
  const page = await getJson(`/v1/sessions?q=${enc(q)}&limit=${PAGE_SIZE}&offset=${offset}`);
  const rows = (page.data || []).map((s) =>
    el("tr", { class: "session-row", "data-session-id": s.session_id, "data-channel": s.channel || "" },
      el("td", {},
        el("a", { href: `#/sessions/${enc(s.session_id)}`, class: "session-title" }, s.title || "(no message yet)"),
        el("div", { class: "muted small" }, s.session_id)),
      el("td", { class: "session-status" }, personStatus(s.status, s.pending_question)),
      el("td", { class: "num" }, s.turn_count ?? "–"),
      el("td", {}, s.turn_count > 1 ? s.last_input || "" : ""),
      el("td", { class: "channel" }, channelName(s.channel)),
      el("td", {}, when(s.updated_at)),
    ));
  const table = rows.length
    ? el("table", { id: "sessions-table" },
      el("thead", {}, el("tr", {}, ...["Conversation", "Status", "Turns", "Last message", "Channel", "Last activity"].map((h) => el("th", {}, h)))),
      el("tbody", {}, rows))
    : el("p", { class: "muted", id: "sessions-empty" }, q ? `No session matches “${q}”.` : "No session yet: start one from “New run”.");
  const total = page.total ?? rows.length;
  const pager = el("div", { class: "pager" },
    el("span", { class: "muted" }, `${total} session(s)`),
    offset > 0 ? el("a", { href: `#/sessions?q=${enc(q)}&offset=${Math.max(0, offset - PAGE_SIZE)}` }, "← Newer") : null,
    offset + PAGE_SIZE < total ? el("a", { href: `#/sessions?q=${enc(q)}&offset=${offset + PAGE_SIZE}` }, "Older →") : null);
  fill(view, el("h1", {}, "Sessions"), form, table, pager);
}

// ------------------------------------------------------------------ new run / reply

function runForm({ sessionId = "", label = "Run", id = "new-run-form" } = {}) {
  const text = el("textarea", { name: "input_text", id: `${id}-text`, rows: 2, required: true, placeholder: "What the person says, e.g. preço da Apple, Microsoft e Nvidia" });
  const session = el("input", { name: "session_id", id: `${id}-session`, value: sessionId, placeholder: "new session" });
  const form = el("form", { class: "run-form", id },
    el("label", {}, "Message", text),
    sessionId ? null : el("label", {}, "Session id (optional)", session),
    el("button", { type: "submit" }, label));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const body = { input_text: text.value, background: true };
      const sid = sessionId || session.value.trim();
      if (sid) body.session_id = sid;
      const started = await postJson("/v1/runs", body);
      location.hash = `#/runs/${enc(started.run_id)}?live=1`;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) askForKey(error.message);
      else toast(error.message, "error");
    }
  });
  return { form, text };
}

function showNewRun() {
  const { form } = runForm();
  fill(view, el("h1", {}, "New run"),
    el("p", { class: "muted" }, "Sends the message through POST /v1/runs and follows the run live."), form);
}

// ------------------------------------------------------------------ one session

function optionLabel(option) {
  if (option === null || typeof option !== "object") return String(option);
  if (option.label) return option.label;
  if (option.description) return option.description;
  if (option.goal) return `${option.domain ? `${option.domain} · ` : ""}${option.goal}`;
  return option.value === undefined ? JSON.stringify(option) : String(option.value);
}

function questionCard(question, onAnswer, answeredBy = null) {
  if (!question) return null;
  const text = question.text || question.question || "";
  const options = Array.isArray(question.options) ? question.options : [];
  return card(answeredBy ? "Asked the person" : "Waiting for the person",
    answeredBy
      ? el("p", { class: "answered-by", id: "answered-by" }, "Answered “", answeredBy.input_text || "", "” in ",
        el("a", { href: `#/runs/${enc(answeredBy.run_id)}` }, `run ${answeredBy.event_id || answeredBy.run_id}`), ".")
      : null,
    el("p", { class: "question" }, text.split("\n")[0]),
    options.length
      ? el("ol", { class: "options" }, options.map((o, i) =>
        el("li", {}, onAnswer && !answeredBy
          ? el("button", { type: "button", class: "ghost option", onclick: () => onAnswer(String(i + 1)) }, optionLabel(o))
          : optionLabel(o))))
      : null,
    question.kind ? el("p", { class: "muted" }, QUESTION_KINDS[question.kind] || "A domain asked to pick one.") : null);
}

async function showVersion(sessionId, version, target) {
  fill(target, el("p", { class: "muted" }, "Loading…"));
  try {
    const body = await getJson(`/v1/sessions/${enc(sessionId)}/versions/${version}`);
    const state = body.state || {};
    const turn = state.turn || {};
    fill(target, keyValues([
      ["Message", turn.input || "–"],
      ["Turn status", turn.status ? badge(turn.status) : "–"],
      ["Goal", (turn.intent && turn.intent.goal) || "–"],
      ["Answer", turn.answer || "–"],
      ["Pending question", state.question ? (state.question.text || "").split("\n")[0] : "none"],
      ["Messages kept", Array.isArray(state.messages) ? state.messages.length : "–"],
    ]), rawJson(body, "State JSON"));
  } catch (error) {
    fill(target, el("p", { class: "error" }, error.message));
  }
}

async function fork(sessionId, version, button) {
  button.disabled = true;
  try {
    const result = await postJson(`/v1/sessions/${enc(sessionId)}/fork`, { version });
    toast(`Forked ${sessionId} at version ${version} into ${result.session_id}`, "ok");
    location.hash = `#/sessions/${enc(result.session_id)}?forked_from=${enc(sessionId)}&version=${version}`;
  } catch (error) {
    button.disabled = false;
    if (error instanceof ApiError && error.status === 401) askForKey(error.message);
    else toast(error.message, "error");
  }
}

async function showSession(sessionId, params) {
  fill(view, el("p", { class: "muted" }, "Loading…"));
  const s = await getJson(`/v1/sessions/${enc(sessionId)}`);
  const turns = Array.isArray(s.turns) ? s.turns : [];
  const versions = Array.isArray(s.versions) ? s.versions : [];
  const reply = runForm({ sessionId, label: "Send", id: "reply-form" });
  const answer = (value) => {
    reply.text.value = value;
    reply.form.requestSubmit();
  };
  const forkedFrom = params.get("forked_from");
  const turnRows = turns.map((t, i) => {
    // a turn that asked and was answered by the next one: its answer run, linked
    const next = t.status === "waiting_input" ? turns[i + 1] : null;
    return el("tr", { class: "turn-row", "data-run-id": t.run_id },
      el("td", {}, t.event_id || ""),
      el("td", {}, t.input_text || "",
        // a reply such as "2" runs the request it answered: say what it was understood as
        t.resolved_to && t.resolved_to.query && t.resolved_to.query !== t.input_text
          ? el("div", { class: "muted small resolved" }, `understood as: ${t.resolved_to.query}`)
          : null),
      el("td", {}, t.goal || "–"),
      el("td", {}, next
        ? el("span", {}, badge("answered"), el("div", { class: "small answered-link" }, "answered in ",
          el("a", { href: `#/runs/${enc(next.run_id)}` }, next.event_id || next.run_id)))
        : badge(t.status)),
      el("td", { class: "answer-cell" }, (t.answer || "").split("\n")[0]),
      el("td", {}, el("a", { href: `#/runs/${enc(t.run_id)}` }, "Inspect run →")));
  });
  const detail = el("div", { id: "version-detail" });
  const versionRows = versions.map((v) => {
    const forkButton = el("button", {
      type: "button",
      class: "fork-button",
      "data-version": v.version,
      disabled: v.step_boundary === false,
      title: v.step_boundary === false ? "Not a step boundary: cannot continue from here" : "Start a new session from this state",
    }, "Fork from here");
    forkButton.addEventListener("click", () => fork(sessionId, v.version, forkButton));
    return el("tr", { class: "version-row", "data-version": v.version },
      el("td", { class: "num" }, v.version),
      el("td", {}, v.node || ""),
      el("td", {}, when(v.created_at)),
      el("td", { class: "num" }, v.delta_bytes ?? "–"),
      el("td", {}, v.snapshot ? "snapshot" : "delta"),
      el("td", {},
        el("button", { type: "button", class: "ghost", onclick: () => showVersion(sessionId, v.version, detail) }, "View state"),
        " ", forkButton));
  });
  const title = turns.length ? turns[0].input_text : "";
  const pending = s.pending_question ? (s.pending_question.text || "").split("\n")[0] : "";
  fill(view,
    el("h1", { id: "session-title" }, title || "Session"),
    el("p", { class: "muted" }, "Session ", el("code", { id: "session-id" }, sessionId)),
    forkedFrom ? el("p", { class: "notice", id: "fork-notice" }, "Forked from ",
      el("a", { href: `#/sessions/${enc(forkedFrom)}` }, forkedFrom), ` at version ${params.get("version")}.`) : null,
    keyValues([
      ["Status", el("span", { id: "session-status" }, personStatus(s.status, pending))],
      ["Turns", s.turn_count ?? turns.length],
    ]),
    questionCard(s.pending_question, answer),
    card("Send a message", reply.form),
    card("Turns", turnRows.length
      ? el("table", { id: "turns-table" },
        el("thead", {}, el("tr", {}, ...["Event", "Message", "Goal", "Status", "Answer", ""].map((h) => el("th", {}, h)))),
        el("tbody", {}, turnRows))
      : el("p", { class: "muted" }, "No turn stored yet.")),
    el("details", { class: "card details", id: "session-details" },
      el("summary", {}, "Details: state versions and engine status"),
      keyValues([
        // the conversation graph pauses between messages too: only a pending question is "asked"
        ["Graph status", !s.graph_status ? "no graph state (reset)"
          : s.graph_status === "waiting_input" && !pending
            ? el("span", { id: "graph-status" }, "paused between messages (waiting_input)")
            : el("span", { id: "graph-status" }, badge(s.graph_status))],
        ["Events", s.event_count ?? "–"],
      ]),
      el("p", { class: "muted" }, "Each node of a turn stores a version. Forking starts a new session from that state; this one is not changed."),
      versionRows.length
        ? el("table", { id: "versions-table" },
          el("thead", {}, el("tr", {}, ...["Version", "Node", "At", "Bytes", "Stored as", ""].map((h) => el("th", {}, h)))),
          el("tbody", {}, versionRows))
        : el("p", { class: "muted" }, "No state versions (the session was reset or never ran)."),
      detail),
    s.state ? rawJson(s.state, "Current state JSON") : null,
  );
}

// ------------------------------------------------------------------ one run

function intentCard(intent) {
  if (!intent) return card("Intent", el("p", { class: "muted" }, "Not understood yet."));
  const confidence = Number(intent.confidence || 0);
  const meter = el("meter", { min: 0, max: 1, value: confidence, low: 0.5, high: 0.8, optimum: 1, id: "intent-confidence" });
  const entities = Object.entries(intent.entities || {});
  const alternatives = (intent.alternatives || []).filter((a) => a.goal !== intent.goal || a.domain !== intent.primary_domain);
  return card("Intent",
    keyValues([
      ["Goal", el("strong", { id: "intent-goal" }, intent.goal || "out of scope")],
      ["Domain", intent.primary_domain || "–"],
      ["Confidence", el("span", {}, meter, ` ${(confidence * 100).toFixed(1)} %`)],
      ["Understood by", intent.adapter || "–"],
      ["Message", intent.original_query || "–"],
    ]),
    entities.length
      ? el("table", { class: "compact", id: "entities-table" },
        el("thead", {}, el("tr", {}, el("th", {}, "Entity"), el("th", {}, "Value"))),
        el("tbody", {}, entities.map(([k, v]) => el("tr", {}, el("td", {}, k), el("td", {}, Array.isArray(v) ? v.join(", ") : typeof v === "object" ? JSON.stringify(v) : String(v))))))
      : el("p", { class: "muted" }, "No entities."),
    alternatives.length
      ? el("p", { class: "muted" }, "Also considered: ", alternatives.slice(0, 3).map((a) => `${a.domain}.${a.goal} (${(a.confidence * 100).toFixed(1)} %)`).join(", "))
      : null);
}

function retriesCard(run) {
  const retried = (run.steps || []).filter((s) => (s.attempts || 0) > 1);
  const notes = [...((run.plan && run.plan.notes) || []).map((n) => ["plan", n]), ...(run.notes || []).map((n) => ["run", n])];
  const replans = notes.filter(([, n]) => /replan/i.test(n));
  return card("Retries and replans",
    el("p", { id: "retry-summary" }, `${retried.length} step(s) retried, ${replans.length} replan(s).`),
    retried.length ? el("ul", {}, retried.map((s) => el("li", {}, `Step ${s.id} ${s.capability}: ${s.attempts} attempts${s.error ? ` — last error: ${s.error}` : ""}`))) : null,
    notes.length ? el("ul", { class: "notes", id: "run-notes" }, notes.map(([kind, n]) => el("li", { class: /replan/i.test(n) ? "replan" : "" }, el("span", { class: "muted" }, `${kind}: `), n))) : el("p", { class: "muted" }, "No planner notes."));
}

function stepsTable(steps, describe) {
  if (!steps.length) return el("p", { class: "muted" }, "No step ran.");
  return el("table", { id: "steps-table" },
    el("thead", {}, el("tr", {}, ...["Step", "Domain · capability", "Parameters", "Status", "Attempts", "Duration", "Result"].map((h) => el("th", {}, h)))),
    el("tbody", {}, steps.map((s) => el("tr", { "data-step-id": s.id },
      el("td", { class: "num" }, s.id),
      el("td", {}, describe(s) || s.capability, el("div", { class: "muted small" }, `${s.domain}.${s.capability}`)),
      el("td", {}, Object.entries(s.params || {}).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`).join(", ")),
      el("td", {}, badge(s.status)),
      el("td", { class: "num" }, s.attempts ?? "–"),
      el("td", { class: "num" }, formatMs(s.duration_ms)),
      el("td", {}, s.error || (s.output && (s.output.explanation || (s.output.failure && s.output.failure.reason))) || "")))));
}

// extras: describe(step) -> the capability's description; answeredBy: the turn that answered
// the run's question (if any)
function renderRun(container, run, live, extras = {}) {
  const describe = extras.describe || (() => "");
  const steps = dagSteps(run.plan, run.steps);
  const total = run.created_at && run.finished_at ? Date.parse(run.finished_at) - Date.parse(run.created_at) : null;
  const plan = run.plan || {};
  fill(container, 
    el("h1", {}, "Run ", el("code", {}, run.run_id)),
    keyValues([
      ["Status", el("span", { id: "run-status" }, badge(run.status))],
      ["Session", run.session_id ? el("a", { href: `#/sessions/${enc(run.session_id)}` }, run.session_id) : "–"],
      ["Started", when(run.created_at)],
      ["Took", total === null ? "–" : formatMs(total)],
      ["Plan", run.plan ? `${plan.steps ? plan.steps.length : 0} step(s), ${plan.execution_mode || "?"}, combined as ${plan.combine_mode || "?"}` : "–"],
    ]),
    el("div", { class: "grid" },
      intentCard(run.intent),
      card("Answer",
        el("pre", { class: "answer", id: "run-answer" }, run.answer || (live ? "…" : "(no answer)")),
        questionCard(run.question, null, extras.answeredBy || null))),
    card("Plan", el("div", { class: "legend" }, ["pending", "executing", "completed", "waiting_input", "failed", "skipped"].map((s) => badge(s))),
      el("div", { class: "scroll", id: "dag" }, renderDag(steps, describe))),
    run.held_plan ? card("Held plan (runs only on a yes)",
      el("p", { class: "muted" }, "A replan waiting for the person's approval: nothing of it ran. Steps that already settled are kept on a yes."),
      el("div", { class: "scroll", id: "held-dag" }, renderDag(dagSteps(run.held_plan, run.steps), describe))) : null,
    card("Timeline", el("p", { class: "muted" }, "Each bar is a step's call; 0 is when the turn started (before it: understanding and planning). Bars side by side ran in parallel."),
      el("div", { class: "scroll", id: "timeline" }, renderTimeline(steps, run.created_at))),
    card("Steps", stepsTable(run.steps || [], describe)),
    retriesCard(run),
    rawJson(run, "Full trace JSON"),
  );
}

// What the run page shows beside the trace: capability descriptions in the run's language, and
// the turn that answered the run's question (the session's next turn).
async function runExtras(run) {
  const language = (run.intent && run.intent.language) || "en";
  const [catalog, history] = await Promise.all([
    catalogIn(language),
    run.question && run.session_id
      ? getJson(`/v1/sessions/${enc(run.session_id)}/history`).catch(() => null)
      : Promise.resolve(null),
  ]);
  const turns = (history && history.turns) || [];
  const at = turns.findIndex((t) => t.run_id === run.run_id);
  return { describe: describer(catalog), answeredBy: at >= 0 && at + 1 < turns.length ? turns[at + 1] : null };
}

// A stored run, with its cancel or retry button (runs.js); a change draws it again.
async function drawStored(page, run) {
  renderRun(page, run, false, await runExtras(run));
  const actions = runActions(run, async () => drawStored(page, await getJson(`/v1/runs/${enc(run.run_id)}`)));
  if (actions) page.querySelector("h1").after(actions);
}

async function showRun(runId, params) {
  const page = el("div", { id: "run-page" });
  const liveLog = el("ol", { class: "live-log", id: "live-log" });
  const liveCard = card("Live events", el("p", { class: "muted", id: "live-state" }, "Connecting…"), liveLog);
  fill(view, page, liveCard);
  let stored = null;
  if (!params.get("live")) {
    try {
      stored = await getJson(`/v1/runs/${enc(runId)}`);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    }
  }
  if (stored) {
    liveCard.remove();
    await drawStored(page, stored);
    return;
  }
  // not stored yet: draw it from its events as they come, then from the stored trace
  const signal = leaving.signal;
  const live = { run_id: runId, status: "executing", steps: [], created_at: new Date().toISOString() };
  const stepsById = new Map();
  renderRun(page, live, true);
  const onEvent = (name, data) => {
    liveLog.append(el("li", { "data-event": name }, `${name}${data && data.step_id ? ` · step ${data.step_id}` : ""}${data && data.status ? ` · ${data.status}` : ""}`));
    if (name === "step" && data) {
      const known = stepsById.get(data.step_id) || { id: data.step_id, started_at: new Date().toISOString(), depends_on: [] };
      const step = { ...known, domain: data.domain, capability: data.capability, status: data.status, attempts: data.attempts, error: data.error };
      if (data.duration_ms !== undefined && data.duration_ms !== null) step.duration_ms = data.duration_ms;
      else if (!["pending", "executing", "parallel"].includes(data.status)) step.duration_ms = Date.now() - Date.parse(known.started_at);
      stepsById.set(data.step_id, step);
      live.steps = [...stepsById.values()];
      renderRun(page, live, true);
    } else if (name === "run.status" && data && data.status) {
      live.status = data.status;
      renderRun(page, live, true);
    } else if (name === "run.finished") {
      live.status = (data && data.status) || live.status;
      live.answer = (data && (data.answer || data.error)) || "";
    }
  };
  const state = document.getElementById("live-state");
  for (let attempt = 0; ; attempt += 1) {
    try {
      state.textContent = "Following the run live…";
      await followSse(`/v1/runs/${enc(runId)}/events`, onEvent, signal);
      break;
    } catch (error) {
      // a run started a moment ago may not be known to the gateway yet
      if (error instanceof ApiError && error.status === 404 && attempt < 20) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        continue;
      }
      throw error;
    }
  }
  if (signal.aborted) return;
  state.textContent = "Run finished: showing its stored trace.";
  try {
    await drawStored(page, await getJson(`/v1/runs/${enc(runId)}`));
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
    live.answer = live.answer || "The run ended before a trace was stored.";
    renderRun(page, live, false);
  }
}

// ------------------------------------------------------------------ domains

async function showDomains() {
  fill(view, el("h1", {}, "Domains"), el("p", { class: "muted" }, "Loading…"));
  const [domains, catalog, breakers] = await Promise.all([
    getJson("/v1/domains"),
    catalogIn("en"),
    getJson("/v1/breakers").catch((error) => {
      if (error instanceof ApiError && error.status === 401) throw error;
      return null; // an older gateway without breaker state: the rest of the page still shows
    }),
  ]);
  const breakerOf = new Map(((breakers && breakers.data) || []).map((b) => [b.domain, b]));
  const list = domains.data || [];
  const kindOf = new Map(((catalog && catalog.domains) || []).map((d) => [d.name, d.kind]));
  const overlaps = (catalog && catalog.overlaps) || [];
  const notices = (catalog && catalog.notices) || [];
  const describe = describer(catalog);
  const rows = list.map((d) => {
    const breaker = breakerOf.get(d.name);
    return el("tr", { class: "domain-row", "data-domain": d.name },
      el("td", {}, el("strong", {}, d.name), el("div", { class: "muted small" }, d.base_url || "")),
      el("td", { class: "kind" }, (kindOf.get(d.name) || "–").toUpperCase()),
      el("td", {}, el("span", { class: `badge health-${d.healthy ? "up" : "down"}`, "data-healthy": String(Boolean(d.healthy)) }, d.healthy ? "healthy" : "down"),
        d.last_error ? el("div", { class: "error small" }, d.last_error) : null),
      el("td", {}, breaker ? el("span", { class: `badge breaker-${breaker.state}`, "data-breaker": breaker.state }, breaker.state) : "unknown"),
      el("td", {}, d.version || "–"),
      el("td", {}, (d.goals || []).length ? el("ul", { class: "plain" }, d.goals.map((g) => el("li", {}, g))) : el("span", { class: "muted" }, "no goals (called by other steps only)")),
      el("td", {}, (d.capabilities || []).length
        ? el("ul", { class: "plain" }, d.capabilities.map((c) => el("li", { title: c }, describe({ domain: d.name, capability: c }) || c)))
        : "–"),
      el("td", {}, when(d.checked_at)));
  });
  fill(view, 
    el("h1", {}, "Domains"),
    el("p", { class: "muted" }, breakers
      ? `A circuit opens after ${breakers.threshold} consecutive failed calls and is retried after ${breakers.ttl_s} s.`
      : "Circuit breaker state is not exposed by this gateway."),
    el("table", { id: "domains-table" },
      el("thead", {}, el("tr", {}, ...["Domain", "Kind", "Health", "Circuit", "Version", "Goals", "Capabilities", "Checked"].map((h) => el("th", {}, h)))),
      el("tbody", {}, rows)),
    card("Overlap warnings",
      el("p", { class: "muted" }, "Goals of different domains that read alike (similarity of their descriptions and examples): people may reach the wrong one."),
      overlaps.length
        ? el("ul", { id: "overlap-warnings" }, overlaps.map((o) => el("li", { class: "overlap" },
          el("strong", {}, `${o.domain_a}.${o.goal_a}`), " ↔ ", el("strong", {}, `${o.domain_b}.${o.goal_b}`),
          el("span", { class: "score" }, ` ${Math.round(o.similarity * 100)} % similar`))))
        : el("p", { class: "muted", id: "overlap-warnings-none" },
          catalog ? `No goal of one domain reads like another's (none ${Math.round(catalog.overlap_shown_from * 100)} % similar or more).` : "Overlaps are not exposed by this gateway.")),
    card("Registry notices",
      el("p", { class: "muted" }, "What the registry changed or noticed in the manifests (e.g. a policy clamped to the operator's limits)."),
      notices.length
        ? el("ul", { id: "registry-notices" }, notices.map((n) => el("li", {}, el("strong", {}, n.domain), ": ", n.message)))
        : el("p", { class: "muted", id: "registry-notices-none" }, "None.")),
  );
}

// ------------------------------------------------------------------ routing

async function route() {
  leaving.abort();
  leaving = new AbortController();
  const mine = leaving.signal;
  delete view.dataset.loaded;
  const hash = location.hash.replace(/^#/, "") || "/sessions";
  const [path, query] = hash.split("?");
  const params = new URLSearchParams(query || "");
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  for (const link of document.querySelectorAll("[data-nav]")) {
    link.classList.toggle("active", link.dataset.nav === parts[0]);
  }
  try {
    if (parts[0] === "sessions" && parts[1]) await showSession(parts[1], params);
    else if (parts[0] === "runs" && parts[1]) await showRun(parts[1], params);
    else if (parts[0] === "domains") await showDomains();
    else if (parts[0] === "approvals") await showApprovals(view);
    else if (parts[0] === "schedules") await showSchedules(view);
    else if (parts[0] === "new") showNewRun();
    else await showSessions(params);
    if (!mine.aborted) view.dataset.loaded = parts[0] || "sessions";
  } catch (error) {
    if (!mine.aborted) showError(error);
  }
}

window.addEventListener("hashchange", route);
route();
