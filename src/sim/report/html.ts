/**
 * The self-contained HTML report: charts of pods, nodes and cost over simulated time (uPlot, inlined), the
 * expectation table and the Event timeline. One file, no network needed to open it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { RunReport } from './run-report.js';
import { unexplainedWaitsSection } from './unexplained-waits.js';

const require = createRequire(import.meta.url);

/** uPlot's script and stylesheet, read once from the installed package. */
function uplotAssets(): { js: string; css: string } {
  const js = readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8');
  const css = readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8');
  return { js, css };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

// Runs in the browser: draws the three charts, then marks the body so a headless check can see they rendered.
const chartScript = `
window.addEventListener('error', function (e) { document.body.dataset.error = String(e.message); });
(function () {
  var r = JSON.parse(document.getElementById('report-data').textContent);
  var t = r.samples.map(function (s) { return s.t; });
  function col(k) { return r.samples.map(function (s) { return s[k]; }); }
  var charts = [
    ['pods', 'Pods', [['podsPending', 'pending', '#d9822b'], ['podsRunning', 'running', '#0f9960']]],
    ['nodes', 'Nodes', [['nodesReady', 'ready', '#137cbd'], ['nodesNotReady', 'not ready', '#db3737'], ['nodeClaims', 'NodeClaims', '#8f398f']]],
    ['cost', 'Cost per hour (USD)', [['costPerHour', '$/h', '#293742']]]
  ];
  var drawn = 0;
  charts.forEach(function (c) {
    var el = document.getElementById('chart-' + c[0]);
    var series = [{ label: 'simulated s' }].concat(c[2].map(function (s) { return { label: s[1], stroke: s[2], width: 2 }; }));
    var data = [t].concat(c[2].map(function (s) { return col(s[0]); }));
    new uPlot({ title: c[1], width: 900, height: 260, scales: { x: { time: false } }, series: series }, data, el);
    drawn++;
  });
  document.body.dataset.rendered = String(drawn);
})();
`;

/** The line saying which Events the bounded timeline left out, if any. */
function omittedEvents(r: RunReport): string {
  if (!r.eventsOmitted) return '';
  const reasons = Object.entries(r.eventsOmitted.byReason)
    .slice(0, 8)
    .map(([reason, n]) => `${escapeHtml(reason)} ${n.toLocaleString('en-US')}`)
    .join(', ');
  return `<p>${r.eventsOmitted.count.toLocaleString('en-US')} more Events are not shown (${reasons}). Tenon's own Events and Warnings are listed first.</p>`;
}

/** Renders the report as one HTML document. */
export function renderHtml(r: RunReport): string {
  const { js, css } = uplotAssets();
  const rows = r.expectations
    .map(
      (e) =>
        `<tr class="${e.passed ? 'pass' : 'fail'}"><td>${e.step}</td><td>${escapeHtml(e.description)}</td><td>${e.passed ? 'pass' : 'FAIL'}</td><td>${escapeHtml(e.observed)}</td></tr>`,
    )
    .join('\n');
  const events = r.events
    .map(
      (e) =>
        `<tr class="${e.type === 'Warning' ? 'warn' : ''}"><td>${e.t.toFixed(0)}</td><td>${escapeHtml(e.type)}</td><td>${escapeHtml(e.reason)}</td><td>${escapeHtml(e.object)}</td><td>${escapeHtml(e.message)}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tenon — ${escapeHtml(r.scenario)}</title>
<style>${css}
body{font-family:system-ui,sans-serif;margin:2em;color:#182026}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;font-size:13px}
tr.fail td{background:#fbe3e3}tr.pass td:nth-child(3){color:#0f9960}tr.warn td{background:#fff4e0}.verdict{font-size:1.3em;font-weight:bold}
</style></head>
<body>
<h1>Scenario ${escapeHtml(r.scenario)}</h1>
<p>${escapeHtml(r.description ?? '')}</p>
<p class="verdict">${r.passed ? 'PASSED' : 'FAILED'} — seed ${r.seed}, ${r.simSeconds.toFixed(0)} s simulated in ${r.wallSeconds.toFixed(2)} s, $${r.costPerHour.toFixed(4)}/h at the end</p>
${r.error ? `<p class="fail">error: ${escapeHtml(r.error)}</p>` : ''}
<div id="chart-pods"></div><div id="chart-nodes"></div><div id="chart-cost"></div>
<h2>Expectations</h2>
<table><tr><th>step</th><th>expectation</th><th>result</th><th>observed</th></tr>
${rows}
</table>
${unexplainedWaitsSection(r.unexplainedWaits)}
<h2>Events</h2>
${omittedEvents(r)}
<table><tr><th>t (s)</th><th>type</th><th>reason</th><th>object</th><th>message</th></tr>
${events}
</table>
<script id="report-data" type="application/json">${scriptJson(r)}</script>
<script>${js}</script>
<script>${chartScript}</script>
</body></html>
`;
}
