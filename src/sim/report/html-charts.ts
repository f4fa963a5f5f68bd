/**
 * The report's charts (uPlot, in the browser): pods, nodes, the fleet by instance type, capacity type or zone, and
 * cost over simulated time. Legends show the last sample's values until the cursor points at another, and each
 * scenario step is a dashed mark with its number.
 */

/** The chart containers, in order. */
export const chartIds = ['pods', 'nodes', 'fleet', 'cost'] as const;

/** The fleet chart's grouping choice. */
export const fleetControls = `<label class="fleet-by">fleet by <select id="fleet-by">
<option value="0">instance type</option><option value="1">capacity type</option><option value="2">zone</option></select></label>`;

/** Runs in the browser; marks the body with the charts drawn (or the first script error) for a headless check. */
export const chartsScript = `
window.addEventListener('error', function (e) { document.body.dataset.error = String(e.message); });
(function () {
  var r = JSON.parse(document.getElementById('report-data').textContent);
  var samples = r.samples, steps = r.steps || [];
  var t = samples.map(function (s) { return s.t; });
  var last = samples.length - 1;
  var palette = ['#137cbd', '#0f9960', '#d9822b', '#8f398f', '#db3737', '#00998c', '#634dbf', '#a67908', '#293742', '#c22762'];
  function col(k) { return samples.map(function (s) { return s[k]; }); }
  // Steps that begin at the same instant share one mark: "4-6".
  var marks = [];
  steps.forEach(function (s) {
    var m = marks[marks.length - 1];
    if (m && Math.abs(m.t - s.t) < 0.5) m.steps.push(s.step); else marks.push({ t: s.t, steps: [s.step] });
  });
  marks.forEach(function (m) {
    var a = m.steps[0], b = m.steps[m.steps.length - 1];
    m.label = m.steps.length === 1 ? String(a) : (b - a === m.steps.length - 1 ? a + '-' + b : m.steps.join(','));
  });

  // Step marks: a dashed line and the step's number where each step began; the label is in the tooltip list below.
  var stepMarks = {
    hooks: {
      draw: [function (u) {
        var ctx = u.ctx, top = u.bbox.top, bottom = u.bbox.top + u.bbox.height;
        ctx.save();
        ctx.strokeStyle = '#8a9ba8'; ctx.fillStyle = '#5c7080'; ctx.setLineDash([4, 4]); ctx.lineWidth = 1;
        ctx.font = (11 * devicePixelRatio) + 'px system-ui, sans-serif'; ctx.textAlign = 'left';
        marks.forEach(function (s) {
          var x = Math.round(u.valToPos(s.t, 'x', true));
          if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) return;
          ctx.beginPath(); ctx.moveTo(x, top); ctx.lineTo(x, bottom); ctx.stroke();
          ctx.fillText(s.label, x + 3 * devicePixelRatio, top + 12 * devicePixelRatio);
        });
        ctx.restore();
      }]
    }
  };
  // With no cursor on the chart the legend shows the last sample, not "--".
  var lastValues = {
    hooks: {
      ready: [function (u) { u.setLegend({ idx: last }); }],
      setCursor: [function (u) { if (u.cursor.idx == null && last >= 0) u.setLegend({ idx: last }); }]
    }
  };

  function draw(id, title, series, data) {
    var el = document.getElementById('chart-' + id);
    el.innerHTML = '';
    var opts = {
      title: title, width: 900, height: 260, scales: { x: { time: false } },
      series: [{ label: 'simulated s' }].concat(series), plugins: [stepMarks, lastValues]
    };
    return new uPlot(opts, [t].concat(data), el);
  }
  function line(label, stroke) { return { label: label, stroke: stroke, width: 2 }; }

  var drawn = 0;
  [
    ['pods', 'Pods', [['podsPending', 'pending', '#d9822b'], ['podsRunning', 'running', '#0f9960']]],
    ['nodes', 'Nodes', [['nodesReady', 'ready', '#137cbd'], ['nodesNotReady', 'not ready', '#db3737'], ['nodeClaims', 'NodeClaims', '#8f398f']]],
    ['cost', 'Cost per hour (USD)', [['costPerHour', '$/h', '#293742']]]
  ].forEach(function (c) {
    draw(c[0], c[1], c[2].map(function (s) { return line(s[1], s[2]); }), c[2].map(function (s) { return col(s[0]); }));
    drawn++;
  });

  // The fleet: nodes by instance type, capacity type or zone (a sample's keys are type/capacity/zone).
  function drawFleet(part) {
    var totals = {};
    var per = samples.map(function (s) {
      var out = {};
      Object.keys(s.fleet || {}).forEach(function (k) {
        var g = k.split('/')[part];
        out[g] = (out[g] || 0) + s.fleet[k];
        totals[g] = Math.max(totals[g] || 0, out[g]);
      });
      return out;
    });
    var names = Object.keys(totals).sort(function (a, b) { return totals[b] - totals[a] || (a < b ? -1 : 1); }).slice(0, 10);
    draw('fleet', 'Fleet (nodes)', names.map(function (n, i) { return line(n, palette[i % palette.length]); }),
      names.map(function (n) { return per.map(function (p) { return p[n] || 0; }); }));
  }
  drawFleet(0);
  drawn++;
  document.getElementById('fleet-by').addEventListener('change', function (e) { drawFleet(Number(e.target.value)); });
  document.body.dataset.rendered = String(drawn);
})();
`;
