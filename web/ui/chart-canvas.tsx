/**
 * One Chart.js chart on a canvas, redrawn when its data or the theme changes. The canvas is hidden from assistive
 * technology: every chart on the page has a table of the same numbers beside it (`chart-figure.tsx`), and its
 * clickable bars are links in that table too.
 */
import type { JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { Series } from "../history/usage-data.ts";
import { usePalette } from "./use-palette.ts";

export interface ChartSpec {
  kind: "bar" | "line";
  labels: string[];
  /** Each series takes the palette's colour at its index. */
  series: Series[];
  stacked?: boolean;
  /** Bars along the x axis, one row per label. */
  horizontal?: boolean;
  /** How a value reads on the value axis and in the tooltip. */
  format: (n: number) => string;
  /** The value axis's end, when the values have one (a share's 1). */
  max?: number;
  /** Labels longer than this are cut on the axis (the table has them whole). */
  labelChars?: number;
  /** What a click on a label's bars (anywhere in its row or column) does. */
  onPick?: (index: number) => void;
}

type ChartModule = typeof import("./chart-setup.ts");
let loading: Promise<ChartModule> | null = null;
const load = (): Promise<ChartModule> => {
  loading ??= import("./chart-setup.ts");
  return loading;
};

function cut(label: string, max: number): string {
  return label.length > max ? `${label.slice(0, max - 1)}…` : label;
}

export function ChartCanvas(props: { spec: ChartSpec; height: number }): JSX.Element {
  const { spec, height } = props;
  const canvas = useRef<HTMLCanvasElement>(null);
  const palette = usePalette();
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    let chart: { destroy(): void } | null = null;
    let gone = false;
    load().then(
      ({ Chart }) => {
        if (gone || !canvas.current) return;
        const along = spec.horizontal ? "y" : "x";
        const across = spec.horizontal ? "x" : "y";
        const tickFont = { family: palette.font, size: 12 };
        const labelChars = spec.labelChars ?? 40;
        chart = new Chart(canvas.current, {
          type: spec.kind,
          data: {
            labels: spec.labels,
            datasets: spec.series.map((s, i) => {
              const colour = palette.series[i % palette.series.length]!;
              return {
                label: s.name,
                data: s.values,
                backgroundColor: colour,
                borderColor: colour,
                borderWidth: spec.kind === "line" ? 2 : 0,
                pointRadius: spec.kind === "line" ? 3 : 0,
                spanGaps: true,
                maxBarThickness: 28,
              };
            }),
          },
          options: {
            animation: false,
            maintainAspectRatio: false,
            indexAxis: along,
            layout: { padding: 8 },
            interaction: { mode: "index", axis: along, intersect: false },
            scales: {
              [along]: {
                stacked: spec.stacked ?? false,
                // Half a step of room at each end, so the first and last points are not cut by the edge.
                offset: true,
                grid: { display: false },
                border: { color: palette.grid },
                ticks: {
                  color: palette.text,
                  font: tickFont,
                  autoSkip: !spec.horizontal,
                  maxRotation: 60,
                  // Read at each layout, so a window made narrower cuts labels shorter.
                  callback(this: { chart: { width: number } }, value: string | number) {
                    const label = spec.labels[Number(value)] ?? String(value);
                    return cut(label, this.chart.width < 500 ? Math.min(labelChars, 16) : labelChars);
                  },
                },
              },
              [across]: {
                stacked: spec.stacked ?? false,
                beginAtZero: true,
                ...(spec.max === undefined ? {} : { max: spec.max }),
                grid: { color: palette.grid },
                border: { display: false },
                ticks: {
                  color: palette.text,
                  font: tickFont,
                  maxTicksLimit: 6,
                  callback: (value: string | number) => spec.format(Number(value)),
                },
              },
            },
            plugins: {
              tooltip: {
                callbacks: {
                  title: (items) => spec.labels[items[0]?.dataIndex ?? 0] ?? "",
                  label: (item) => `${item.dataset.label}: ${spec.format(Number(item.raw ?? 0))}`,
                },
              },
            },
            onHover: (event, elements) => {
              const target = event.native?.target as HTMLElement | undefined;
              if (target && spec.onPick) target.style.cursor = elements.length > 0 ? "pointer" : "";
            },
            onClick: (_event, elements) => {
              const hit = elements[0];
              if (hit && spec.onPick) spec.onPick(hit.index);
            },
          },
        });
      },
      (error: unknown) => setFailed(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      gone = true;
      chart?.destroy();
    };
  }, [spec, palette]);
  if (failed) return <p class="meta">The chart could not be drawn ({failed}); the table has its numbers.</p>;
  return (
    <div class="chart-box" style={{ height: `${height}px` }} aria-hidden="true">
      <canvas ref={canvas} />
    </div>
  );
}
