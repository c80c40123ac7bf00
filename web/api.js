// Talking to the toolcalc API from the page: the base path and dev key the server wrote
// into index.html's <meta> tags, the key kept in localStorage, and JSON that keeps the
// numbers' text exactly as the API wrote it (results are rendered at their precision).

const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.content ?? "";

export const apiBase = meta("toolcalc-api-base");
const devKey = meta("toolcalc-dev-key");
const KEY_STORAGE = "toolcalc.apiKey";

// The key: the one saved in this browser, except that a fresh dev key (serve --dev)
// replaces an older dev key (tc_test_…, revoked at each dev start), never a tc_live_ key.
export function currentKey() {
  let saved = "";
  try {
    saved = localStorage.getItem(KEY_STORAGE) ?? "";
  } catch {
    // storage disabled: the key lives only in the input field
  }
  if (devKey && (saved === "" || (saved.startsWith("tc_test_") && saved !== devKey))) {
    saveKey(devKey);
    return devKey;
  }
  return saved;
}

export function saveKey(key) {
  try {
    if (key) localStorage.setItem(KEY_STORAGE, key);
    else localStorage.removeItem(KEY_STORAGE);
    return true;
  } catch {
    return false;
  }
}

export const isDevKeyPrefilled = () => devKey !== "" && currentKey() === devKey;

// A JSON number with the text it was written as ("0.50" stays "0.50").
export class RawNumber {
  constructor(value, text) {
    this.value = value;
    this.text = text;
  }
  valueOf() {
    return this.value;
  }
  toString() {
    return this.text;
  }
}

// JSON.parse keeping each number's source text (the reviver's `context.source`; where a
// browser lacks it, numbers stay plain and are formatted at the output's precision).
export function parseJsonKeepingNumbers(text) {
  return JSON.parse(text, (key, value, context) =>
    typeof value === "number" && context && typeof context.source === "string"
      ? new RawNumber(value, context.source)
      : value);
}

export const apiUrl = (path) => `${apiBase}${path}`;

// GET a discovery endpoint; resolves to the envelope's `result`.
export async function getResult(path) {
  const r = await fetch(apiUrl(path), { headers: { Accept: "application/json" } });
  const body = await r.json();
  if (!r.ok || !body.ok) throw new Error(body?.error?.message ?? `${r.status} from ${path}`);
  return body.result;
}

// POST a JSON body with the key; resolves to {status, body, text} whatever the status.
export async function postJson(path, payload) {
  const headers = { "Content-Type": "application/json", Accept: "application/json" };
  const key = currentKey();
  if (key) headers.Authorization = `Bearer ${key}`;
  const r = await fetch(apiUrl(path), { method: "POST", headers, body: JSON.stringify(payload) });
  const text = await r.text();
  let body = null;
  try {
    body = parseJsonKeepingNumbers(text);
  } catch {
    body = { ok: false, error: { code: "INVALID_RESPONSE", message: `HTTP ${r.status}` } };
  }
  return { status: r.status, body, text };
}

// The JSON text of `payload` for a curl line, numbers as the user typed them.
export function curlCommand(path, payload) {
  const url = new URL(apiUrl(path), window.location.href).href;
  const quote = (s) => `'${s.replaceAll("'", `'\\''`)}'`;
  return [
    `curl -s ${quote(url)}`,
    `  -H "Authorization: Bearer $TOOLCALC_KEY"`,
    `  -H 'Content-Type: application/json'`,
    `  -d ${quote(JSON.stringify(payload))}`,
  ].join(" \\\n");
}
