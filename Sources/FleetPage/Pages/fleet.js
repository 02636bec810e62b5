// The fleet page (/fleet): every booth of the store, newest heartbeat first, read again every few
// seconds; a booth's row opens its problems and what to do. Its data needs the operator's token
// (a session cookie from POST /login); the words of each problem are the server's.
import { ago, standing, statusText, cameraText, outboxText, diskText, summaryText, facts } from "/fleet/fleet-logic.js";

const $ = (id) => document.getElementById(id);
const refreshSeconds = 5;
/** The booths whose rows are open, kept open across refreshes. */
const opened = new Set();

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function cell(label, text) {
  const span = element("span", "", text);
  span.dataset.label = label;
  return span;
}

function row(booth) {
  const details = element("details", "booth " + standing(booth));
  details.dataset.kiosk = booth.kiosk;
  details.open = opened.has(booth.kiosk);
  details.addEventListener("toggle", () => {
    if (details.open) opened.add(booth.kiosk); else opened.delete(booth.kiosk);
  });
  const summary = element("summary");
  const name = element("span", "name", booth.name || booth.kiosk);
  if (booth.name && booth.name !== booth.kiosk) name.append(element("small", "", booth.kiosk));
  summary.append(name, element("span", "status", statusText(booth)), cell("Last heard", ago(booth.ageSeconds)),
    cell("Camera", cameraText(booth.heartbeat)), cell("Outbox", outboxText(booth.heartbeat)), cell("Disk left", diskText(booth.heartbeat)));
  const body = element("div", "body");
  if (booth.problems.length > 0) {
    const list = element("ul", "problems");
    for (const problem of booth.problems) {
      const item = element("li");
      item.dataset.problem = problem.problem;
      item.append(element("strong", "", problem.title + ": "), element("span", "what", problem.what), element("span", "fix", problem.fix));
      list.append(item);
    }
    body.append(list);
  } else {
    body.append(element("p", "", "Nothing wrong."));
  }
  const dl = element("dl");
  for (const [label, text] of facts(booth)) dl.append(element("dt", "", label), element("dd", "", text));
  body.append(dl);
  details.append(summary, body);
  return details;
}

function render(document_) {
  $("login").hidden = true;
  $("fleet").hidden = false;
  $("summary").textContent = summaryText(document_);
  const error = $("store-error");
  error.hidden = !document_.storeError;
  error.textContent = document_.storeError
    ? "The store cannot be read: " + document_.storeError + (document_.boothsAsOf ? " The booths below are as read at " + document_.boothsAsOf + "." : "")
    : "";
  $("booths").replaceChildren(...document_.booths.map(row));
  $("empty").hidden = document_.booths.length > 0;
  $("refreshed").textContent = "Read at " + new Date(document_.readAt).toLocaleTimeString() + "; again every " + refreshSeconds + " s.";
}

function loggedOut(why) {
  $("fleet").hidden = true;
  $("login").hidden = false;
  if (why) $("login-why").textContent = why;
  $("summary").textContent = "";
}

async function refresh() {
  try {
    const response = await fetch("/api/fleet", { credentials: "same-origin", headers: { "Accept": "application/json" } });
    const body = await response.json().catch(() => ({}));
    if (response.status === 401 || response.status === 403) return loggedOut(response.status === 403 ? body.error : undefined);
    if (!response.ok) throw new Error(body.error || "HTTP " + response.status);
    render(body);
  } catch (error) {
    const banner = $("store-error");
    banner.hidden = false;
    banner.textContent = "This page cannot reach its server: " + error.message;
  }
}

$("login-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const token = $("token").value.trim();
  $("token").value = "";
  const response = await fetch("/login", { method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token }) });
  const body = await response.json().catch(() => ({}));
  const message = $("login-message");
  message.hidden = response.ok;
  message.textContent = response.ok ? "" : body.error || "HTTP " + response.status;
  if (response.ok) refresh();
});

refresh();
setInterval(refresh, refreshSeconds * 1000);
