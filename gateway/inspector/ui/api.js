// The gateway's JSON API as the page uses it: the key from sessionStorage on every call, and a
// Server-Sent Events reader on fetch (EventSource cannot send an Authorization header).

const KEY_NAME = "orchestrator.apiKey";

export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

export function apiKey() {
  return sessionStorage.getItem(KEY_NAME) || "";
}

export function setApiKey(key) {
  if (key) sessionStorage.setItem(KEY_NAME, key);
  else sessionStorage.removeItem(KEY_NAME);
}

function headers(extra) {
  const out = { Accept: "application/json", ...extra };
  const key = apiKey();
  if (key) out.Authorization = `Bearer ${key}`;
  return out;
}

function errorMessage(body, status) {
  const error = body && body.error;
  if (error && error.message) return error.message;
  if (body && typeof body.detail === "string") return body.detail;
  if (body && Array.isArray(body.detail)) return body.detail.map((d) => d.msg).join("; ");
  return `HTTP ${status}`;
}

export async function request(method, path, body) {
  const init = { method, headers: headers(body === undefined ? {} : { "Content-Type": "application/json" }) };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await fetch(path, init);
  const text = await response.text();
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = { detail: text };
  }
  if (!response.ok) throw new ApiError(response.status, errorMessage(parsed, response.status), parsed);
  return parsed;
}

export const getJson = (path) => request("GET", path);
export const postJson = (path, body) => request("POST", path, body);

// One SSE block ("event: x\ndata: ...\n\n") into {event, data}; comments (": ping") give null.
export function parseSseBlock(block) {
  let event = "message";
  const data = [];
  for (const line of block.split(/\r?\n/)) {
    if (!line || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  }
  if (!data.length) return null;
  return { event, data: data.join("\n") };
}

// Follows `path` until the server closes it or `signal` aborts; calls onEvent(name, parsedData).
export async function followSse(path, onEvent, signal) {
  const response = await fetch(path, { headers: headers({ Accept: "text/event-stream" }), signal });
  if (!response.ok) {
    let body = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    throw new ApiError(response.status, errorMessage(body, response.status), body);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, "");
      const message = parseSseBlock(block);
      if (!message) continue;
      let data = message.data;
      try {
        data = JSON.parse(message.data);
      } catch {
        // not JSON: handed over as text
      }
      onEvent(message.event, data);
    }
  }
}
