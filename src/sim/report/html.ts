/**
 * The self-contained HTML report: charts of pods, nodes, the fleet and cost over simulated time with the steps
 * marked (uPlot, inlined), the expectation table and the grouped, filterable Events. One file, no network needed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chartIds, chartsScript, fleetControls } from './html-charts.js';
import { escapeHtml, eventsScript, eventsSection } from './html-events.js';
import type { RunReport } from './run-report.js';
import { unexplainedWaitsSection } from './unexplained-waits.js';

const require = createRequire(import.meta.url);

/** uPlot's script and stylesheet, read once from the installed package. */
function uplotAssets(): { js: string; css: string } {
  const js = readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8');
  const css = readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8');
  return { js, css };
}

/** JSON safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** The line saying which Events the bounded timeline left out, if any. */
function omittedEvents(r: RunReport): string {
  if (!r.eventsOmitted) return '';
  const reasons = Object.entries(r.eventsOmitted.byReason)
    .slice(0, 8)
    .map(([reason, n]) => `${escapeHtml(reason)} ${n.toLocaleString('en-US')}`)
    .join(', ');
  return `<p>${r.eventsOmitted.count.toLocaleString('en-US')} more Events are not shown (${reasons}). Tenon's own Events and Warnings are listed first.</p>`;
}

/** The scenario's steps as the charts mark them: number, when it began, what it did. */
function stepList(r: RunReport): string {
  if (!r.steps?.length) return '';
  const items = r.steps
    .map((s) => `<li value="${s.step}">${escapeHtml(s.label)} <span class="t">(${s.t.toFixed(0)} s)</span></li>`)
    .join('');
  return `<p>Steps (the numbered marks on the charts):</p><ol class="steps">${items}</ol>`;
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
  const charts = chartIds.map((id) => `${id === 'fleet' ? fleetControls : ''}<div id="chart-${id}"></div>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tenon — ${escapeHtml(r.scenario)}</title>
<style>${css}
body{font-family:system-ui,sans-serif;margin:2em;color:#182026}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;font-size:13px}
tr.fail td{background:#fbe3e3}tr.pass td:nth-child(3){color:#0f9960}tr.warn td{background:#fff4e0}.verdict{font-size:1.3em;font-weight:bold}
td.n{text-align:right;white-space:nowrap}tr.head td{font-weight:500}tr.item td{color:#394b59}button.open{width:1.8em}.filters{margin:1em 0;display:flex;gap:1em;align-items:center}
ol.steps{columns:2;font-size:13px;color:#394b59}.fleet-by{font-size:13px}
</style></head>
<body>
<h1>Scenario ${escapeHtml(r.scenario)}</h1>
<p>${escapeHtml(r.description ?? '')}</p>
<p class="verdict">${r.passed ? 'PASSED' : 'FAILED'} — seed ${r.seed}, ${r.simSeconds.toFixed(0)} s simulated in ${r.wallSeconds.toFixed(2)} s, $${r.costPerHour.toFixed(4)}/h at the end</p>
${r.error ? `<p class="fail">error: ${escapeHtml(r.error)}</p>` : ''}
${charts}
${stepList(r)}
<h2>Expectations</h2>
<table><tr><th>step</th><th>expectation</th><th>result</th><th>observed</th></tr>
${rows}
</table>
${unexplainedWaitsSection(r.unexplainedWaits)}
<h2>Events</h2>
${omittedEvents(r)}
${eventsSection(r.events)}
<script id="report-data" type="application/json">${scriptJson({ samples: r.samples, steps: r.steps ?? [] })}</script>
<script>${js}</script>
<script>${chartsScript}</script>
<script>${eventsScript}</script>
</body></html>
`;
}
