/** The look every plot of the page shares (vega-lite config): no vega import, so any module may use it. */
export const PLOT_CONFIG = {
  font: 'system-ui, -apple-system, Segoe UI, Roboto, sans-serif',
  axis: { labelFontSize: 11, titleFontSize: 11, titleFontWeight: 'normal', gridColor: '#e6e6e6' },
  legend: { orient: 'bottom', labelFontSize: 11, titleFontSize: 11 },
  view: { stroke: '#dddddd' },
} as const;
