"""The preview page: one HTML document with its style and script inline (no build step).

It asks /api/state once, shows every item's image, and listens to /events (server-sent events):
an update replaces only the images whose key changed, so the page never reloads and the last
good image stays on screen while the data has errors.
"""

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>pnp preview</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 0; background: #f4f1ea; color: #222; }
  header { position: sticky; top: 0; z-index: 2; background: #2f2a24; color: #fff;
           padding: 8px 16px; display: flex; gap: 16px; align-items: center; flex-wrap: wrap; }
  header h1 { font-size: 16px; margin: 0 12px 0 0; }
  header input[type=search] { width: 240px; }
  #status { margin-left: auto; font-size: 12px; opacity: .85; }
  #banner { display: none; background: #b3261e; color: #fff; padding: 6px 16px; }
  body.broken #banner { display: block; }
  #game-diags { margin: 8px 16px; padding: 0; }
  section h2 { font-size: 15px; margin: 16px 16px 4px; }
  .grid { display: flex; flex-wrap: wrap; gap: 14px; padding: 0 16px; align-items: flex-start; }
  figure { margin: 0; display: flex; gap: 6px; align-items: flex-start; }
  figure.hidden, section.hidden { display: none; }
  .frame { position: relative; overflow: hidden; background: #fff;
           box-shadow: 0 1px 3px rgba(0,0,0,.3); border-radius: 3px; }
  .frame img { position: absolute; display: block; }
  .trim, .safe { position: absolute; display: none; pointer-events: none; }
  .trim { border: 1px dashed #d00; }
  .safe { border: 1px dashed #06c; }
  body.overlays .trim, body.overlays .safe { display: block; }
  figcaption { font-size: 12px; max-width: 180px; }
  figcaption .name { font-weight: 600; }
  ul.diags { list-style: none; margin: 4px 0 0; padding: 0; max-width: 260px; }
  ul.diags li { font-size: 12px; margin-bottom: 4px; padding: 2px 4px; border-radius: 2px;
                background: #fff3cd; white-space: pre-wrap; word-break: break-word; }
  ul.diags li.error { background: #fde2e1; }
  figure.has-error .frame { outline: 3px solid #d00; }
  figure.fresh .frame { outline: 3px solid #2a7; }
</style>
</head>
<body>
<header>
  <h1 id="title">pnp preview</h1>
  <label>Deck or file <select id="group"><option value="">all</option></select></label>
  <input id="filter" type="search" placeholder="filter: card id or text">
  <label><input id="overlays" type="checkbox"> bleed and safe zone</label>
  <span id="status">loading</span>
</header>
<div id="banner">The data has errors: the last good images stay on screen until they are fixed.</div>
<ul id="game-diags" class="diags"></ul>
<main id="main"></main>
<script>
"use strict";
const PX = 96 / 72;  // CSS pixels per point
const PAGE_SCALE = 0.6;
window.pnpPageId = Math.random().toString(36).slice(2);  // a reload would change it
window.pnpLoaded = {};  // item id -> {key, at}: when each image last finished loading
window.pnpUpdates = 0;
window.pnpTimings = [];  // the server's time for each update that redrew something or reloaded
const items = new Map();
let diagnostics = {};

function scale(item) { return item.kind === "cards" ? PX : PX * PAGE_SCALE; }

function section(group) {
  let s = document.querySelector(`section[data-group="${CSS.escape(group)}"]`);
  if (!s) {
    s = document.createElement("section");
    s.dataset.group = group;
    s.innerHTML = "<h2></h2><div class='grid'></div>";
    s.querySelector("h2").textContent = group;
    document.getElementById("main").appendChild(s);
    const option = document.createElement("option");
    option.value = option.textContent = group;
    document.getElementById("group").appendChild(option);
  }
  return s.querySelector(".grid");
}

function place(item) {
  const k = scale(item);
  const w = item.width * k, h = item.height * k, b = item.bleed * k, safe = item.safe * k;
  let fig = document.getElementById(item.id);
  if (!fig) {
    fig = document.createElement("figure");
    fig.id = item.id;
    fig.innerHTML = "<div class='frame'><img alt=''><div class='trim'></div>" +
      "<div class='safe'></div></div><figcaption><div class='name'></div>" +
      "<div class='id'></div><ul class='diags'></ul></figcaption>";
    section(item.group).appendChild(fig);
    const img = fig.querySelector("img");
    img.loading = "lazy";
    img.addEventListener("load", () => {
      window.pnpLoaded[fig.id] = {key: img.dataset.key, at: Date.now()};
    });
  }
  fig.dataset.kind = item.kind;
  fig.dataset.text = (item.text + " " + item.title + " " + item.id).toLowerCase();
  fig.querySelector(".name").textContent = item.title;
  fig.querySelector(".id").textContent = item.kind === "cards" ? item.id.split("/")[2] : "";
  const frame = fig.querySelector(".frame");
  const full = document.body.classList.contains("overlays");
  const inset = full ? 0 : b;
  frame.style.width = (w + 2 * b - 2 * inset) + "px";
  frame.style.height = (h + 2 * b - 2 * inset) + "px";
  const img = fig.querySelector("img");
  img.style.width = (w + 2 * b) + "px";
  img.style.left = img.style.top = (-inset) + "px";
  const trim = fig.querySelector(".trim"), safeBox = fig.querySelector(".safe");
  Object.assign(trim.style, {left: b + "px", top: b + "px", width: w + "px", height: h + "px"});
  Object.assign(safeBox.style, {left: (b + safe) + "px", top: (b + safe) + "px",
    width: Math.max(0, w - 2 * safe) + "px", height: Math.max(0, h - 2 * safe) + "px"});
  if (img.dataset.key !== item.key) {
    img.dataset.key = item.key;
    img.src = "/img/" + item.id + "?k=" + item.key;
  }
  items.set(item.id, item);
}

function showDiagnostics() {
  for (const fig of document.querySelectorAll("figure")) {
    const list = diagnostics[fig.id] || [];
    const ul = fig.querySelector("ul.diags");
    ul.replaceChildren(...list.map(line));
    fig.classList.toggle("has-error", list.some(d => d.severity === "error"));
  }
  const game = Object.entries(diagnostics)
    .filter(([id]) => !id || !items.has(id)).flatMap(([, list]) => list);
  document.getElementById("game-diags").replaceChildren(...game.map(line));
}

function line(d) {
  const li = document.createElement("li");
  li.className = d.severity;
  li.textContent = d.text;
  return li;
}

function applyFilter() {
  const words = document.getElementById("filter").value.trim().toLowerCase();
  const group = document.getElementById("group").value;
  for (const s of document.querySelectorAll("section")) {
    let shown = 0;
    for (const fig of s.querySelectorAll("figure")) {
      const ok = (!group || s.dataset.group === group) &&
        (!words || words.split(/\\s+/).every(w => fig.dataset.text.includes(w)));
      fig.classList.toggle("hidden", !ok);
      shown += ok ? 1 : 0;
    }
    s.classList.toggle("hidden", shown === 0);
  }
}

function status(text) { document.getElementById("status").textContent = text; }

function apply(update) {
  for (const id of update.removed || []) {
    document.getElementById(id)?.remove();
    items.delete(id);
  }
  for (const item of update.items || []) {
    place(item);
    const fig = document.getElementById(item.id);
    fig.classList.add("fresh");
    setTimeout(() => fig.classList.remove("fresh"), 1500);
  }
  if (update.diagnostics) diagnostics = update.diagnostics;
  if ("ok" in update) document.body.classList.toggle("broken", !update.ok);
  showDiagnostics();
  applyFilter();
  window.pnpUpdates += 1;
  if (update.seconds !== undefined) {
    window.pnpTimings.push({seconds: update.seconds, items: (update.items || []).length});
  }
  const n = (update.items || []).length;
  status(`updated ${new Date().toLocaleTimeString()}: ${n} redrawn` +
         (update.seconds !== undefined ? ` in ${update.seconds} s` : ""));
}

async function start() {
  const state = await (await fetch("/api/state")).json();
  document.getElementById("title").textContent = state.game;
  document.title = "pnp preview: " + state.game;
  document.body.classList.toggle("broken", !state.ok);
  for (const item of state.items) place(item);
  diagnostics = state.diagnostics;
  showDiagnostics();
  applyFilter();
  status(`${state.items.length} items; watching ${state.folder}`);
  const events = new EventSource("/events");
  events.addEventListener("update", e => apply(JSON.parse(e.data)));
  events.addEventListener("error", () => status("not connected: is pnp preview still running?"));
}

document.getElementById("filter").addEventListener("input", applyFilter);
document.getElementById("group").addEventListener("change", applyFilter);
document.getElementById("overlays").addEventListener("change", e => {
  document.body.classList.toggle("overlays", e.target.checked);
  for (const item of items.values()) place(item);
});
start();
</script>
</body>
</html>
"""
