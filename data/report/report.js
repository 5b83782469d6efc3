// rigbench report glue: draws each chart that the JSON block #rigbench-data describes with
// Chart.js (inlined before this script). Spec per chart (src/report/html_report.cpp):
//   {id, title, y_title, unit, stacked, y_max: number|null, labels: [text],
//    datasets: [{label, data: [number|null]}]}
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
    var datasets = spec.datasets.map(function (d, i) {
      return { label: d.label, data: d.data, backgroundColor: palette[i % palette.length], borderWidth: 0 };
    });
    new Chart(canvas, {
      type: 'bar',
      data: { labels: spec.labels, datasets: datasets },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: {
          title: { display: true, text: spec.title },
          legend: { position: 'bottom' },
          tooltip: {
            callbacks: {
              label: function (ctx) { return ctx.dataset.label + ': ' + format(ctx.raw) + ' ' + spec.unit; }
            }
          }
        },
        scales: {
          x: { stacked: spec.stacked, ticks: { autoSkip: true, maxRotation: 60 } },
          y: {
            stacked: spec.stacked, beginAtZero: true, suggestedMax: spec.y_max === null ? undefined : spec.y_max,
            title: { display: true, text: spec.y_title }
          }
        }
      }
    });
  }

  var data = JSON.parse(document.getElementById('rigbench-data').textContent);
  data.charts.forEach(draw);
})();
