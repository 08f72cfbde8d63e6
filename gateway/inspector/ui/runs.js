// Operator controls on a run's page: cancel a background run that is queued or running, retry a
// failed one (POST /v1/runs/{id}/cancel, /retry). The gateway decides what is allowed (an
// interactive run cannot be cancelled, only a failed run is retried): its refusal is shown as
// text, and the page is drawn again from the stored run after a change.

import { ApiError, postJson } from "./api.js";
import { el, enc } from "./dom.js";

const UNFINISHED = new Set(["queued", "executing"]);

// The run's action bar, or null when no action applies to its status. onChanged() redraws the
// page from the stored run.
export function runActions(run, onChanged) {
  const action = UNFINISHED.has(run.status)
    ? { verb: "cancel", label: "Cancel run", hint: "A queued run never starts; a running one finishes its step in flight and starts no other." }
    : run.status === "failed"
      ? { verb: "retry", label: "Retry run", hint: "Runs it again in the background under its id: steps that succeeded answer from what they did, nothing is sent twice." }
      : null;
  if (!action) return null;
  const result = el("p", { class: "muted", id: "run-action-result", role: "status" }, action.hint);
  const button = el("button", { type: "button", id: `run-${action.verb}`, class: action.verb === "cancel" ? "ghost" : "" }, action.label);
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const answer = await postJson(`/v1/runs/${enc(run.run_id)}/${action.verb}`);
      result.textContent = action.verb === "cancel" ? `Cancelled: the run is ${answer.status}.` : `Sent again: the run is ${answer.status}.`;
      await onChanged();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) throw error;
      button.disabled = false;
      result.className = "error";
      result.textContent = error && error.message ? error.message : String(error);
    }
  });
  return el("div", { class: "run-actions", id: "run-actions" }, button, " ", result);
}
