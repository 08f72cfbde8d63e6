// The plan as a DAG and the steps as a waterfall, drawn as inline SVG (no library).

const SVG_NS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, children = []) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(name, String(value));
  }
  for (const child of children) node.append(child);
  return node;
}

function svgText(x, y, text, cls, anchor = "start") {
  const node = svg("text", { x, y, class: cls, "text-anchor": anchor });
  node.textContent = text;
  return node;
}

function clip(text, max) {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

// Plain words for the statuses a step can be in.
export const STATUS_LABELS = {
  pending: "waiting to run",
  executing: "running",
  parallel: "running",
  // an LLM plan after a recoverable failure: what ran is read, then the rest is rewritten
  observing: "observing a failure",
  rewriting: "rewriting the plan",
  replanning: "replanning",
  completed: "completed",
  failed: "failed",
  waiting_input: "asked the person",
  paused: "paused",
  cancelled: "cancelled",
  skipped: "skipped",
  stagnated: "stagnated",
  timeout: "timed out",
  deadlock: "deadlock",
};

// Each step's layer: 0 without dependencies, else one more than its deepest dependency.
export function layers(steps) {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const layer = new Map();
  const visiting = new Set();
  const depth = (id) => {
    if (layer.has(id)) return layer.get(id);
    if (visiting.has(id) || !byId.has(id)) return -1; // a cycle or a missing step: draw it first
    visiting.add(id);
    const deps = byId.get(id).depends_on || [];
    const value = deps.length ? 1 + Math.max(...deps.map(depth)) : 0;
    visiting.delete(id);
    layer.set(id, Math.max(0, value));
    return layer.get(id);
  };
  for (const s of steps) depth(s.id);
  return layer;
}

// The plan's steps merged with what ran (a replanned or live run may have steps the plan lacks).
export function dagSteps(plan, traces) {
  const out = new Map();
  for (const step of (plan && plan.steps) || []) {
    out.set(step.id, { ...step, status: "pending", attempts: 0, duration_ms: null });
  }
  for (const t of traces || []) {
    const known = out.get(t.id) || { id: t.id, depends_on: [] };
    out.set(t.id, { ...known, ...t, depends_on: known.depends_on || [] });
  }
  return [...out.values()].sort((a, b) => a.id - b.id);
}

const NODE_W = 250;
const NODE_H = 58;
const GAP_X = 70;
const GAP_Y = 22;
const PAD = 16;

// The domain's own words about what a finished step did ("kept the message in the outbox"),
// so a node does not say more than happened.
export function stepOutcome(step) {
  const output = step.output || {};
  return output.explanation || (output.failure && output.failure.reason) || "";
}

// describe(step): the capability's description in the person's language ("" when unknown).
export function renderDag(steps, describe = () => "") {
  if (!steps.length) {
    const empty = document.createElement("p");
    empty.className = "muted";
    empty.textContent = "No plan: this turn called no domain.";
    return empty;
  }
  const layerOf = layers(steps);
  const columns = [];
  for (const s of steps) {
    const l = layerOf.get(s.id);
    (columns[l] = columns[l] || []).push(s);
  }
  const rows = Math.max(...columns.map((c) => (c ? c.length : 0)));
  const width = PAD * 2 + columns.length * NODE_W + (columns.length - 1) * GAP_X;
  const height = PAD * 2 + rows * NODE_H + (rows - 1) * GAP_Y;
  const position = new Map();
  columns.forEach((column, l) => {
    const offset = ((rows - column.length) * (NODE_H + GAP_Y)) / 2;
    column.forEach((s, i) => {
      position.set(s.id, { x: PAD + l * (NODE_W + GAP_X), y: PAD + offset + i * (NODE_H + GAP_Y) });
    });
  });
  const root = svg("svg", {
    class: "dag",
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: "img",
    "aria-label": `Plan with ${steps.length} step(s)`,
  });
  const marker = svg("marker", {
    id: "arrow",
    viewBox: "0 0 10 10",
    refX: 10,
    refY: 5,
    markerWidth: 7,
    markerHeight: 7,
    orient: "auto-start-reverse",
  }, [svg("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "dag-arrow" })]);
  root.append(svg("defs", {}, [marker]));
  for (const s of steps) {
    for (const dep of s.depends_on || []) {
      const from = position.get(dep);
      const to = position.get(s.id);
      if (!from || !to) continue;
      const x1 = from.x + NODE_W;
      const y1 = from.y + NODE_H / 2;
      const x2 = to.x;
      const y2 = to.y + NODE_H / 2;
      const mid = (x1 + x2) / 2;
      root.append(svg("path", {
        class: "dag-edge",
        d: `M ${x1} ${y1} C ${mid} ${y1}, ${mid} ${y2}, ${x2} ${y2}`,
        "marker-end": "url(#arrow)",
        "data-from": dep,
        "data-to": s.id,
      }));
    }
  }
  for (const s of steps) {
    const { x, y } = position.get(s.id);
    const status = s.status || "pending";
    const title = svg("title");
    const params = Object.entries(s.params || {}).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(", ");
    const described = describe(s);
    const outcome = stepOutcome(s);
    title.textContent = `Step ${s.id}: ${described ? `${described} (${s.domain}.${s.capability})` : `${s.domain}.${s.capability}`} — ${STATUS_LABELS[status] || status}` +
      (outcome ? `\n${outcome}` : "") +
      (s.when ? `\nwhen: ${s.when}` : "") +
      (s.skipped_by_condition ? `\nskipped because ${s.skipped_by_condition}` : "") +
      (params ? `\n${params}` : "") + (s.error ? `\nerror: ${s.error}` : "");
    // a step its condition switched off says so on the node, not only in the tooltip
    const detail = [s.skipped_by_condition ? "skipped: condition false" : outcome && status === "completed" ? outcome : STATUS_LABELS[status] || status];
    if (s.duration_ms !== null && s.duration_ms !== undefined) detail.push(formatMs(s.duration_ms));
    if ((s.attempts || 0) > 1) detail.push(`${s.attempts} attempts`);
    const firstParam = Object.values(s.params || {})[0];
    const node = svg("g", {
      class: `dag-node status-${status}`,
      "data-step-id": s.id,
      "data-status": status,
      "data-skipped-by-condition": s.skipped_by_condition || undefined,
      "data-when": s.when || undefined,
      transform: `translate(${x} ${y})`,
      tabindex: 0,
    }, [
      title,
      svg("rect", { width: NODE_W, height: NODE_H, rx: 8, class: "dag-box" }),
      svgText(10, 18, clip(`${s.id} · ${described || s.capability}`, 28), "dag-title"),
      svgText(10, 34, clip(s.when ? `if ${s.when}` : firstParam === undefined ? s.domain : `${s.domain} · ${firstParam}`, 34), "dag-sub"),
      svgText(10, 50, clip(detail.join(" · "), 34), "dag-sub"),
    ]);
    root.append(node);
  }
  return root;
}

export function formatMs(ms) {
  if (ms === null || ms === undefined || Number.isNaN(ms)) return "–";
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

const ROW_H = 26;
const LABEL_W = 230;
const CHART_W = 560;
const AXIS_H = 22;

// One bar per step, from its start to its end, on a shared time axis from the first start.
export function renderTimeline(steps, runStart) {
  const timed = steps.filter((s) => s.started_at);
  if (!timed.length) {
    const empty = document.createElement("p");
    empty.className = "muted";
    empty.textContent = "No step has started yet.";
    return empty;
  }
  const startOf = (s) => Date.parse(s.started_at);
  const endOf = (s) => {
    if (s.finished_at) return Date.parse(s.finished_at);
    if (s.duration_ms !== null && s.duration_ms !== undefined) return startOf(s) + s.duration_ms;
    return Date.now();
  };
  // a bar's length is the step's own measured duration; the clock gives where it starts
  const lengthOf = (s) => (s.duration_ms !== null && s.duration_ms !== undefined ? s.duration_ms : endOf(s) - startOf(s));
  const t0 = Math.min(runStart ? Date.parse(runStart) : Infinity, ...timed.map(startOf));
  const t1 = Math.max(...timed.map((s) => startOf(s) + lengthOf(s)));
  const span = Math.max(t1 - t0, 0.001);
  const scale = CHART_W / span;
  const width = LABEL_W + CHART_W + 90;
  const height = AXIS_H + timed.length * ROW_H + 8;
  const root = svg("svg", {
    class: "timeline",
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: "img",
    "aria-label": `Timeline of ${timed.length} step(s) over ${formatMs(span)}`,
  });
  for (let i = 0; i <= 4; i += 1) {
    const x = LABEL_W + (CHART_W * i) / 4;
    root.append(svg("line", { x1: x, y1: AXIS_H - 4, x2: x, y2: height, class: "tl-grid" }));
    root.append(svgText(x, AXIS_H - 8, formatMs((span * i) / 4), "tl-axis", i === 0 ? "start" : "middle"));
  }
  timed.sort((a, b) => startOf(a) - startOf(b) || a.id - b.id).forEach((s, row) => {
    const y = AXIS_H + row * ROW_H;
    const x = LABEL_W + (startOf(s) - t0) * scale;
    const barW = Math.max(2, lengthOf(s) * scale);
    const status = s.status || "pending";
    const title = svg("title");
    title.textContent = `Step ${s.id} ${s.domain}.${s.capability}: ${formatMs(lengthOf(s))}, ` +
      `started +${formatMs(startOf(s) - t0)}, ${s.attempts || 0} attempt(s), ${STATUS_LABELS[status] || status}`;
    const label = Object.values(s.params || {})[0];
    const bar = svg("g", { class: `tl-row status-${status}`, "data-step-id": s.id, "data-status": status }, [
      title,
      svgText(4, y + 17, clip(`${s.id} · ${s.capability}${label === undefined ? "" : ` · ${label}`}`, 34), "tl-label"),
      svg("rect", {
        class: "tl-bar",
        x: x.toFixed(2),
        y: y + 5,
        width: barW.toFixed(2),
        height: ROW_H - 10,
        rx: 3,
        "data-start-ms": startOf(s) - t0,
        "data-duration-ms": lengthOf(s),
      }),
      svgText(Math.min(x + barW + 6, LABEL_W + CHART_W + 4), y + 17,
        formatMs(lengthOf(s)) + ((s.attempts || 0) > 1 ? ` ×${s.attempts}` : ""), "tl-value"),
    ]);
    root.append(bar);
  });
  return root;
}
