// Standing requests (#/schedules): the tenant's schedules and watches, their next tick, pause,
// resume and cancel, and each one's firings (tick, status, the run it started, its result).
// Every value from the API goes into the page as text.

import { ApiError, getJson, postJson, request } from "./api.js";
import { el, enc, when } from "./dom.js";

function firingsTable(firings) {
  if (!firings.length) return el("p", { class: "muted" }, "No tick has fired yet.");
  return el(
    "table",
    { class: "firings" },
    el("thead", {}, el("tr", {}, ["Tick", "Status", "Run", "Result", "Gateway"].map((h) => el("th", {}, h)))),
    el(
      "tbody",
      {},
      firings.map((f) =>
        el(
          "tr",
          { "data-firing-id": f.id, "data-status": f.status },
          el("td", {}, when(f.tick)),
          el("td", {}, f.status + (f.condition_met === null ? "" : f.condition_met ? " (condition true)" : " (condition false)")),
          el("td", {}, f.run_id ? el("a", { href: `#/runs/${enc(f.run_id)}` }, f.run_id) : "–"),
          el("td", { class: "firing-result" }, f.result || ""),
          el("td", {}, f.gateway_id || "–"),
        ),
      ),
    ),
  );
}

function row(item, reload) {
  const details = el("td", { colspan: "7", class: "firings-cell" });
  const detailsRow = el("tr", { hidden: true, "data-firings-of": item.id }, details);
  const change = async (action, button) => {
    button.disabled = true;
    try {
      if (action === "cancel") {
        await request("DELETE", `/v1/schedules/${enc(item.id)}`);
      } else {
        await postJson(`/v1/schedules/${enc(item.id)}/${action}`);
      }
      await reload();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) throw error;
      details.replaceChildren(el("p", { class: "error" }, error.message || String(error)));
      detailsRow.hidden = false;
      button.disabled = false;
    }
  };
  const show = async () => {
    if (!detailsRow.hidden) {
      detailsRow.hidden = true;
      return;
    }
    const listed = await getJson(`/v1/schedules/${enc(item.id)}/firings`);
    details.replaceChildren(firingsTable(listed.data || []));
    detailsRow.hidden = false;
  };
  const buttons = [];
  if (item.status === "active") buttons.push(el("button", { type: "button", class: "ghost", onclick: (e) => change("pause", e.currentTarget) }, "Pause"));
  if (item.status === "paused") buttons.push(el("button", { type: "button", class: "ghost", onclick: (e) => change("resume", e.currentTarget) }, "Resume"));
  if (item.status !== "cancelled") buttons.push(el("button", { type: "button", class: "ghost", onclick: (e) => change("cancel", e.currentTarget) }, "Cancel"));
  buttons.push(el("button", { type: "button", onclick: show, "data-show-firings": item.id }, "Firings"));
  const main = el(
    "tr",
    { "data-standing-id": item.id, "data-status": item.status },
    el("td", {}, item.kind === "watch" ? "Watch" : "Schedule"),
    el("td", { lang: item.language }, item.label),
    el("td", {}, item.description),
    el("td", {}, item.status),
    el("td", {}, item.status === "active" ? when(item.next_fire_at) : "–"),
    el("td", {}, el("a", { href: `#/sessions/${enc(item.session_id)}` }, item.session_id)),
    el("td", { class: "actions" }, buttons),
  );
  return [main, detailsRow];
}

export async function showSchedules(view) {
  const reload = async () => {
    const listed = await getJson("/v1/schedules?include_cancelled=true");
    const items = listed.data || [];
    const body = items.length
      ? el(
          "table",
          { id: "schedules-table" },
          el("thead", {}, el("tr", {}, ["Kind", "About", "When", "Status", "Next tick", "Session", ""].map((h) => el("th", {}, h)))),
          el("tbody", {}, items.flatMap((item) => row(item, reload))),
        )
      : el("p", { class: "muted", id: "schedules-none" }, "No schedule or watch in this tenant.");
    view.replaceChildren(
      el(
        "section",
        { class: "card" },
        el("h2", {}, "Schedules and watches"),
        el("p", {}, "Standing requests of this key's tenant, made in conversation (“todo dia útil às 9h…”, “me avisa quando…”) or through /v1/schedules. Each tick runs the request as a turn of its session; a watch tells the person once each time its condition becomes true."),
        body,
      ),
    );
  };
  await reload();
}
