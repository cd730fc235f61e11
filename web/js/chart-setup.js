// Chart.js from npm, with only what the report's charts use registered (line and bar charts on
// linear and category axes, legend, tooltip, and the filled error bands): the bundler drops the rest.
import { Chart, LineController, BarController, LineElement, PointElement, BarElement, LinearScale, CategoryScale, Legend, Tooltip, Filler } from 'chart.js';

Chart.register(LineController, BarController, LineElement, PointElement, BarElement, LinearScale, CategoryScale, Legend, Tooltip, Filler);

export { Chart };
