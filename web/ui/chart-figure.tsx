/**
 * A chart with its caption, its legend and a table of the same numbers. The table is always in the page for
 * screen readers; sighted readers show it with the Table button, and it shows itself while a link in it has the
 * keyboard's focus, so nothing focusable is ever invisible.
 */
import type { ComponentChildren, JSX } from "preact";
import { useId, useState } from "preact/hooks";
import { ChartCanvas, type ChartSpec } from "./chart-canvas.tsx";

export function ChartFigure(props: {
  title: string;
  /** A sentence under the caption: what the chart counts. */
  about?: ComponentChildren;
  spec: ChartSpec;
  height: number;
  /** Whether to name the series above the chart (one series needs no legend). */
  legend?: boolean;
  /** Extra controls beside the Table button (a toggle of what the bars are split by). */
  controls?: ComponentChildren;
  table: ComponentChildren;
  id: string;
}): JSX.Element {
  const [open, setOpen] = useState(false);
  const captionId = useId();
  const tableId = `${props.id}-data`;
  return (
    <figure class="chart-figure" id={props.id} aria-labelledby={captionId}>
      <div class="chart-head">
        <figcaption id={captionId}>{props.title}</figcaption>
        <div class="chart-controls">
          {props.controls}
          <button type="button" aria-pressed={open} aria-controls={tableId} onClick={() => setOpen(!open)}>
            Table
          </button>
        </div>
      </div>
      {props.about && <p class="meta chart-about">{props.about}</p>}
      {props.legend !== false && props.spec.series.length > 1 && (
        <ul class="legend" aria-hidden="true">
          {props.spec.series.map((s, i) => (
            <li key={s.name}>
              <span class={`swatch s${(i % 6) + 1}`} />
              {s.name}
            </li>
          ))}
        </ul>
      )}
      <ChartCanvas spec={props.spec} height={props.height} />
      <div id={tableId} class={open ? "chart-data" : "chart-data folded"}>
        {props.table}
      </div>
    </figure>
  );
}
