/**
 * The report's Events: grouped by reason, type and source (160 Nominated rows are one line you can open), with a
 * text filter, a Warnings-only switch and a source choice that work in the browser (a link may carry them:
 * `report.html#q=FailedScheduling&warn=1&source=karpenter`).
 */
import type { TimelineEvent } from './run-report.js';

/** Escapes text for HTML content and attributes. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Events of one reason, type and source, in time order. */
export interface EventGroup {
  reason: string;
  type: string;
  source: string;
  rows: TimelineEvent[];
}

/** Groups Events by reason, type and source; groups in the order of their first Event. */
export function groupEvents(events: readonly TimelineEvent[]): EventGroup[] {
  const groups = new Map<string, EventGroup>();
  for (const e of [...events].sort((a, b) => a.t - b.t)) {
    const source = e.source ?? '';
    const key = `${e.reason}\u0000${e.type}\u0000${source}`;
    const g = groups.get(key) ?? { reason: e.reason, type: e.type, source, rows: [] };
    g.rows.push(e);
    groups.set(key, g);
  }
  return [...groups.values()];
}

function seconds(t: number): string {
  return t.toFixed(0);
}

function groupBody(g: EventGroup, index: number): string {
  const first = g.rows[0];
  const last = g.rows[g.rows.length - 1];
  const objects = new Set(g.rows.map((r) => r.object)).size;
  const warn = g.type === 'Warning' ? ' warn' : '';
  const head =
    `<tr class="head${warn}"><td>${g.rows.length > 1 ? `<button type="button" class="open" aria-expanded="false" data-group="${index}">+</button>` : ''}</td>` +
    `<td>${escapeHtml(g.reason)}</td><td>${escapeHtml(g.type)}</td><td>${escapeHtml(g.source)}</td><td class="n">${g.rows.length}</td>` +
    `<td class="n">${seconds(first?.t ?? 0)}${g.rows.length > 1 ? `–${seconds(last?.t ?? 0)}` : ''}</td>` +
    `<td>${objects === 1 ? escapeHtml(first?.object ?? '') : `${objects} objects`}</td><td>${escapeHtml(first?.message ?? '')}</td></tr>`;
  const items = g.rows
    .map(
      (e) =>
        `<tr class="item${warn}"${g.rows.length > 1 ? ' hidden' : ''}><td></td><td colspan="4"></td><td class="n">${seconds(e.t)}</td><td>${escapeHtml(e.object)}</td><td>${escapeHtml(e.message)}</td></tr>`,
    )
    .join('');
  // A group of one shows its only Event in the head row.
  return `<tbody class="group" data-type="${escapeHtml(g.type)}" data-source="${escapeHtml(g.source)}">${head}${g.rows.length > 1 ? items : ''}</tbody>`;
}

/** The Events section's filters and grouped table. */
export function eventsSection(events: readonly TimelineEvent[]): string {
  const groups = groupEvents(events);
  const sources = [...new Set(groups.map((g) => g.source))].filter(Boolean).sort();
  const options = sources.map((s) => `<option value="${escapeHtml(s)}">${escapeHtml(s)}</option>`).join('');
  return `<div class="filters"><input id="ev-text" type="search" placeholder="filter by reason, object or message" size="40">
<label><input id="ev-warn" type="checkbox"> Warnings only</label>
<select id="ev-source"><option value="">every source</option>${options}</select>
<span id="ev-shown">${events.length} Events in ${groups.length} groups</span></div>
<table id="events"><thead><tr><th></th><th>reason</th><th>type</th><th>source</th><th>count</th><th>t (s)</th><th>object</th><th>message (first)</th></tr></thead>
${groups.map(groupBody).join('\n')}
</table>`;
}

/** Runs in the browser: opens and closes groups, and filters Events by text, type and source. */
export const eventsScript = `
(function () {
  var text = document.getElementById('ev-text'), warn = document.getElementById('ev-warn');
  var source = document.getElementById('ev-source'), shown = document.getElementById('ev-shown');
  var groups = Array.prototype.slice.call(document.querySelectorAll('#events tbody.group'));
  function rowText(tr) { return tr.textContent.toLowerCase(); }
  function apply() {
    var q = text.value.trim().toLowerCase(), events = 0, visible = 0;
    groups.forEach(function (g) {
      var ok = (!warn.checked || g.dataset.type === 'Warning') && (!source.value || g.dataset.source === source.value);
      var items = g.querySelectorAll('tr.item'), head = g.querySelector('tr.head'), n = 0;
      if (items.length === 0) n = ok && (!q || rowText(head).indexOf(q) >= 0) ? 1 : 0;
      Array.prototype.forEach.call(items, function (tr) {
        var hit = ok && (!q || rowText(tr).indexOf(q) >= 0 || rowText(head).indexOf(q) >= 0);
        tr.dataset.match = hit ? '1' : '';
        if (hit) n++;
        tr.hidden = !(hit && (q || g.dataset.open === '1'));
      });
      g.hidden = n === 0;
      if (n > 0) { events += n; visible++; }
    });
    shown.textContent = events + ' Events in ' + visible + ' groups';
  }
  document.getElementById('events').addEventListener('click', function (e) {
    var b = e.target.closest('button.open');
    if (!b) return;
    var g = b.closest('tbody');
    g.dataset.open = g.dataset.open === '1' ? '' : '1';
    b.setAttribute('aria-expanded', g.dataset.open === '1' ? 'true' : 'false');
    b.textContent = g.dataset.open === '1' ? '-' : '+';
    apply();
  });
  [text, warn, source].forEach(function (el) { el.addEventListener('input', apply); el.addEventListener('change', apply); });
  // A link may carry the filter: report.html#q=FailedScheduling&warn=1&source=karpenter
  var h = new URLSearchParams(location.hash.slice(1));
  text.value = h.get('q') || ''; warn.checked = h.get('warn') === '1'; source.value = h.get('source') || '';
  apply();
})();
`;
