// Approvals waiting for a yes (#/approvals): the tenant's pending ones with approve and reject
// buttons, for an approver key. Every value from the API goes into the page as text.

import { ApiError, getJson, postJson } from "./api.js";
import { el, enc, when } from "./dom.js";

// What happened, in words: the decision's run and its answer, as the person will read it.
function outcome(decided) {
  const run = decided.run || {};
  return el(
    "p",
    { class: "approval-outcome", "data-status": decided.approval.status },
    `${decided.approval.status === "approved" ? "Approved" : "Rejected"}: the run `,
    el("a", { href: `#/runs/${enc(run.run_id || "")}` }, run.run_id || "–"),
    ` ended ${run.status || "?"}. The person reads: “${run.answer || ""}”`,
  );
}

function refusal(error) {
  if (error instanceof ApiError && error.status === 403) {
    return "This key cannot answer approvals: use a key with the approver role (orchestrator keys create --role approver).";
  }
  return error && error.message ? error.message : String(error);
}

function row(approval, onDecided) {
  const status = el("td", { class: "approval-status" });
  const decide = async (decision, button) => {
    for (const b of button.parentElement.querySelectorAll("button")) b.disabled = true;
    try {
      const decided = await postJson(`/v1/approvals/${enc(approval.id)}/${decision}`);
      status.replaceChildren(outcome(decided));
      onDecided();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) throw error;
      status.replaceChildren(el("p", { class: "error" }, refusal(error)));
    }
  };
  const approve = el("button", { type: "button", class: "approve", "data-approval": approval.id }, "Approve");
  const reject = el("button", { type: "button", class: "ghost reject", "data-approval": approval.id }, "Reject");
  approve.addEventListener("click", () => decide("approve", approve));
  reject.addEventListener("click", () => decide("reject", reject));
  const steps = (approval.steps || []).map((s) => `${s.domain}.${s.capability}`).join(", ");
  return el(
    "tr",
    { "data-approval-id": approval.id },
    el("td", {}, el("a", { href: `#/sessions/${enc(approval.session_id)}` }, approval.session_id)),
    el("td", { class: "approval-question", lang: approval.language }, approval.question),
    el("td", {}, steps || "–"),
    el("td", {}, when(approval.created_at)),
    el("td", {}, approval.expires_at ? when(approval.expires_at) : "never"),
    el("td", {}, approval.reminded_at ? when(approval.reminded_at) : "–"),
    el("td", { class: "actions" }, approve, " ", reject),
    status,
  );
}

export async function showApprovals(view) {
  let listed;
  try {
    listed = await getJson("/v1/approvals");
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) {
      view.replaceChildren(el("section", { class: "card" }, el("h2", {}, "Approvals"), el("p", { class: "error", id: "approvals-refused" }, refusal(error))));
      return;
    }
    throw error;
  }
  const pending = listed.data || [];
  const remaining = el("p", { class: "muted", id: "approvals-count" });
  const count = () => {
    const open = view.querySelectorAll("tr[data-approval-id] button.approve:not([disabled])").length;
    remaining.textContent = `${open} waiting for a decision.`;
  };
  const body = pending.length
    ? el(
        "table",
        { id: "approvals-table" },
        el("thead", {}, el("tr", {}, ["Session", "Question", "Steps", "Asked", "Expires", "Reminded", "Decide", ""].map((h) => el("th", {}, h)))),
        el("tbody", {}, pending.map((a) => row(a, count))),
      )
    : el("p", { class: "muted", id: "approvals-none" }, "No approval is waiting.");
  view.replaceChildren(
    el(
      "section",
      { class: "card" },
      el("h2", {}, "Approvals"),
      el("p", {}, "Steps that wait for a yes before they run, in this key's tenant. Approving runs them in the person's session, as their own yes would; rejecting cancels with nothing run. Past its deadline an approval is refused."),
      remaining,
      body,
    ),
  );
  count();
}
