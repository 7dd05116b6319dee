/**
 * Chart.js with only the parts the page draws (bars, a line, two kinds of axis, tooltips), registered once. The
 * page imports this module lazily, so only the Usage view loads the chart code. Chart.js draws on a canvas and
 * sets styles through the CSSOM only, which the page's CSP (no inline style attributes) allows.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from "chart.js";

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
);

export { Chart };
