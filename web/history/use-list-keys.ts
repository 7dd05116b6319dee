/**
 * j/k (and the arrow keys) through a list, Enter to open the selected item. Keys typed into a form field are
 * left alone. The selected item is scrolled into view and its first link focused, so Tab and screen readers
 * follow along.
 */
import { useEffect, useState } from "preact/hooks";

function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));
}

export function useListKeys(count: number, open: (index: number) => void, container: string): number {
  const [selected, setSelected] = useState(-1);
  useEffect(() => setSelected(-1), [count]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target) || count === 0) return;
      let next = selected;
      if (event.key === "j") next = Math.min(count - 1, selected + 1);
      else if (event.key === "k") next = Math.max(0, selected - 1);
      else if (event.key === "Enter" && selected >= 0 && !(event.target as HTMLElement | null)?.closest("a,button")) {
        event.preventDefault();
        open(selected);
        return;
      } else return;
      event.preventDefault();
      setSelected(next);
      const item = document.querySelector<HTMLElement>(`${container} [data-index="${next}"]`);
      item?.scrollIntoView({ block: "nearest" });
      item?.querySelector<HTMLElement>("a")?.focus({ preventScroll: true });
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, [count, selected, open, container]);
  return selected;
}
