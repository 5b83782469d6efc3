// rigbench report glue: draws each chart that the JSON block #rigbench-data describes with
// Chart.js (inlined before this script). Spec per chart (src/report/html_report.cpp):
//   {id, title, y_title, unit, stacked, y_max: number|null, scale: "linear"|"log", y_min (log only), labels: [text],
//    datasets: [{label, data: [number|null]}]}
// or, with type "line": {..., type: "line", x_title, datasets: [{label, dashed, marker, data: [{x, y}]}]}
// (dashed: a stated or estimated constant, drawn dashed so it never reads as a measurement;
// marker: points alone, as triangles, no line: the capacity a sweep found).
// Labels and titles are drawn on the canvas as text, never inserted as markup.
(function () {
  'use strict';
  var palette = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f',
                 '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];

  function format(value) {
    if (value === null || value === undefined) return '-';
    var abs = Math.abs(value);
    return value.toFixed(abs >= 100 ? 1 : abs >= 1 ? 2 : 4);
  }

  function draw(spec) {
    var canvas = document.getElementById(spec.id);
    if (!canvas) return;
    var line = spec.type === 'line';
    var datasets = spec.datasets.map(function (d, i) {
      var color = palette[i % palette.length];
      return line ? { label: d.label, data: d.data, borderColor: color, backgroundColor: color,
                      pointRadius: d.marker ? 8 : 0, pointStyle: d.marker ? 'triangle' : 'circle', showLine: !d.marker,
                      borderWidth: d.dashed ? 2 : 1.5, borderDash: d.dashed ? [8, 5] : [] }
                  : { label: d.label, data: d.data, backgroundColor: color, borderWidth: 0 };
    });
    var x = line ? { type: 'linear', title: { display: true, text: spec.x_title } }
                 : { stacked: spec.stacked, ticks: { autoSkip: true, maxRotation: 60 } };
    new Chart(canvas, {
      type: line ? 'line' : 'bar',
      data: line ? { datasets: datasets } : { labels: spec.labels, datasets: datasets },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: {
          title: { display: true, text: spec.title },
          legend: { position: 'bottom' },
          tooltip: {
            callbacks: {
              label: function (ctx) {
                var v = line ? ctx.raw.y : ctx.raw;
                return ctx.dataset.label + ': ' + format(v) + ' ' + spec.unit;
              }
            }
          }
        },
        scales: {
          x: x,
          y: spec.scale === 'log'
            ? { type: 'logarithmic', min: spec.y_min, title: { display: true, text: spec.y_title } }
            : { stacked: spec.stacked, beginAtZero: true, suggestedMax: spec.y_max === null ? undefined : spec.y_max,
                title: { display: true, text: spec.y_title } }
        }
      }
    });
  }

  var data = JSON.parse(document.getElementById('rigbench-data').textContent);
  data.charts.forEach(draw);
})();
