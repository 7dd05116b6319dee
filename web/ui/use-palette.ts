/**
 * The chart colours of the theme in force, read from the stylesheet's custom properties (`theme.css`), and read
 * again when the theme changes: the user's pick (`data-theme` on the root) or, under "Auto", the system's.
 */
import { useEffect, useState } from "preact/hooks";

export const SERIES_COLOURS = 6;

export interface Palette {
  series: string[];
  grid: string;
  text: string;
  surface: string;
  font: string;
}

function read(): Palette {
  const style = getComputedStyle(document.documentElement);
  const v = (name: string): string => style.getPropertyValue(name).trim();
  return {
    series: Array.from({ length: SERIES_COLOURS }, (_, i) => v(`--series-${i + 1}`)),
    grid: v("--line"),
    text: v("--muted"),
    surface: v("--card"),
    font: getComputedStyle(document.body).fontFamily,
  };
}

export function usePalette(): Palette {
  const [palette, setPalette] = useState(read);
  useEffect(() => {
    const update = (): void => setPalette(read());
    const observer = new MutationObserver(update);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    const system = matchMedia("(prefers-color-scheme: dark)");
    system.addEventListener("change", update);
    return () => {
      observer.disconnect();
      system.removeEventListener("change", update);
    };
  }, []);
  return palette;
}
