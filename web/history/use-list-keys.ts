/**
 * j/k (and the arrow keys) through a list, Enter to open the selected item. Keys typed into a form field are
 * left alone. The selected item is scrolled into view and its first link focused, so Tab and screen readers
 * follow along.
 */
import { useEffect, useRef, useState } from "preact/hooks";

function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));
}

export function useListKeys(count: number, open: (index: number) => void, container: string): number {
  const [selected, setSelected] = useState(-1);
  // The listener reads the latest values from here: keys pressed faster than the page re-renders (j j) must each
  // move from where the previous one left the selection, not from the value the listener was made with.
  const latest = useRef({ selected, count, open, container });
  latest.current = { ...latest.current, count, open, container };
  useEffect(() => {
    latest.current.selected = -1;
    setSelected(-1);
  }, [count]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      const { selected: at, count: n, open: openItem, container: box } = latest.current;
      if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target) || n === 0) return;
      let next = at;
      if (event.key === "j") next = Math.min(n - 1, at + 1);
      else if (event.key === "k") next = Math.max(0, at - 1);
      else if (event.key === "Enter" && at >= 0 && !(event.target as HTMLElement | null)?.closest("a,button")) {
        event.preventDefault();
        openItem(at);
        return;
      } else return;
      event.preventDefault();
      latest.current.selected = next;
      setSelected(next);
      const item = document.querySelector<HTMLElement>(`${box} [data-index="${next}"]`);
      item?.scrollIntoView({ block: "nearest" });
      item?.querySelector<HTMLElement>("a")?.focus({ preventScroll: true });
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);
  return selected;
}
