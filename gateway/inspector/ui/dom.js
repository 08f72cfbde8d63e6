// Small DOM helpers every inspector page shares. Every value goes into the page as text.

export const enc = encodeURIComponent;

// An element with attributes ("on…" ones as listeners) and children; a skipped (null, undefined
// or false) attribute or child is left out.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "class") node.className = value;
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// A stored time in the reader's locale ("–" when there is none).
export function when(stamp) {
  if (!stamp) return "–";
  const date = new Date(stamp);
  return Number.isNaN(date.getTime()) ? String(stamp) : date.toLocaleString();
}
