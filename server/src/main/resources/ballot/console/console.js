// The Ballot console: polls this node's /console/api (same origin only) and draws the selected node's figures with
// uPlot. window.ballotConsole.pointsDrawn() reports the points each graph holds (ConsoleIT reads it).
"use strict";

const REFRESH_MILLIS = 2000;
const COLORS = ["#2e6fdb", "#d9480f", "#2b8a3e", "#862e9c", "#e67700", "#0b7285", "#c2255c", "#5c940d", "#495057"];

// Graphs of one figure per series, by the column names of /console/api/node.
const FIXED = [
  { title: "LWTs per second", unit: "LWT/s", series: [["lwtPerSecond", "LWT/s"]] },
  { title: "LWT latency", unit: "ms", series: [["lwtP50Millis", "p50"], ["lwtP99Millis", "p99"]] },
  { title: "Contention (backoffs per second)", unit: "/s", series: [["contentionPerSecond", "contention/s"]] },
  { title: "Condition not met per second", unit: "/s", series: [["conditionNotMetPerSecond", "not applied/s"]] },
  { title: "LWT timeouts per second", unit: "/s", series: [["timeoutsPerSecond", "timeouts/s"]] },
  { title: "Round trips per LWT", unit: "round trips", series: [["roundTripsPerLwt", "round trips"]] },
];
// Graphs of one series per key (opcode, error code): the keys that moved in the window, or their total if none did.
const BY_KEY = [
  { title: "Requests per second, by opcode", unit: "/s", column: "requestsPerSecond", total: "all opcodes" },
  { title: "Errors per second, by code", unit: "/s", column: "errorsPerSecond", total: "all codes" },
];

const plots = new Map(); // title -> { plot, labels }
let selectedHost = null; // null: this node
let selfHost = null;

// A figure the node could not give (it, or the peer it asks, is down): shown on the page. Anything else is a bug and
// stays uncaught, so that it reaches the browser's console.
class ApiError extends Error {}

function fetchJson(path) {
  return fetch(path, { cache: "no-store" })
    .catch(error => Promise.reject(new ApiError(`${path}: ${error.message}`)))
    .then(response => response.ok ? response.json()
      : response.text().then(text => Promise.reject(new ApiError(`${path}: ${text.trim() || response.status}`))));
}

function seriesOf(points, graph) {
  if (graph.series) return graph.series.map(([column, label]) => ({ label, values: points[column] }));
  const byKey = points[graph.column];
  const moved = Object.keys(byKey).filter(key => byKey[key].some(v => v > 0));
  if (moved.length > 0) return moved.map(key => ({ label: key, values: byKey[key] }));
  const total = points.timeMillis.map((_, i) => Object.values(byKey).reduce((sum, values) => sum + values[i], 0));
  return [{ label: graph.total, values: total }];
}

function draw(graph, points) {
  const series = seriesOf(points, graph);
  const labels = series.map(s => s.label).join("\u0000");
  const data = [points.timeMillis.map(t => t / 1000), ...series.map(s => s.values)];
  let entry = plots.get(graph.title);
  if (entry && entry.labels === labels) {
    entry.plot.setData(data);
    return;
  }
  if (entry) entry.plot.destroy(); // its series changed: draw it anew in the same place
  const box = entry ? entry.box : document.getElementById("charts").appendChild(document.createElement("div"));
  const plot = new uPlot({
    title: graph.title,
    width: 560,
    height: 220,
    scales: { x: { time: true } },
    axes: [{}, { label: graph.unit }],
    series: [{}, ...series.map((s, i) => ({ label: s.label, stroke: COLORS[i % COLORS.length], width: 1.5 }))],
  }, data, box);
  plots.set(graph.title, { plot, labels, box });
}

function showRing(members) {
  const body = document.querySelector("#ring tbody");
  body.replaceChildren(...members.map(m => {
    const row = document.createElement("tr");
    const cells = [m.address + (m.self ? " (this node)" : ""), m.dataCenter, m.rack, m.up ? "Up" : "Down", m.state,
      String(m.tokens), (100 * m.ownership).toFixed(1) + "%", m.hostId];
    for (const text of cells) row.appendChild(Object.assign(document.createElement("td"), { textContent: text }));
    if (!m.up) row.children[3].className = "down";
    if (m.self) selfHost = m.hostId;
    if ((selectedHost || selfHost) === m.hostId) row.className = "selected";
    row.addEventListener("click", () => { selectedHost = m.self ? null : m.hostId; refresh(); });
    return row;
  }));
}

function showNode(node) {
  const s = node.status;
  document.getElementById("status").textContent = `${s.address} · ${s.dataCenter}/${s.rack} · cluster ${s.cluster}`
    + ` · up ${s.uptimeSeconds} s · release ${s.releaseVersion}`;
  document.getElementById("graphs-title").textContent = `Graphs of ${s.address} (one point per ${s.samplePeriodMillis / 1000} s)`;
  for (const graph of [...FIXED, ...BY_KEY]) draw(graph, node.points);
}

function showError(error) {
  const box = document.getElementById("graphs-error");
  box.hidden = error === null;
  box.textContent = error === null ? "" : String(error.message || error);
}

let timer = null;
function refresh() {
  clearTimeout(timer);
  const host = selectedHost ? "?host=" + encodeURIComponent(selectedHost) : "";
  Promise.all([fetchJson("/console/api/ring"), fetchJson("/console/api/node" + host)])
    .then(([ring, node]) => { showRing(ring.members); showNode(node); showError(null); })
    .catch(error => { if (error instanceof ApiError) showError(error); else throw error; })
    .finally(() => { timer = setTimeout(refresh, REFRESH_MILLIS); });
}

window.ballotConsole = {
  /** Per graph title: the points drawn (non-null values over all its series). */
  pointsDrawn() {
    const out = {};
    for (const [title, { plot }] of plots) {
      out[title] = plot.data.slice(1).reduce((n, values) => n + values.filter(v => v !== null && v !== undefined).length, 0);
    }
    return out;
  },
};

refresh();
