/**
 * A Preact hook over TanStack's framework-free virtualizer: only the rows in (and near) the scroll box are in
 * the DOM, measured as they render, so a 10,000-event timeline scrolls like a 50-event one.
 */
import {
  elementScroll,
  observeElementOffset,
  observeElementRect,
  type VirtualItem,
  Virtualizer,
} from "@tanstack/virtual-core";
import { useLayoutEffect, useReducer, useState } from "preact/hooks";

export interface VirtualOptions {
  count: number;
  estimate: number;
  getKey: (index: number) => string;
  scrollElement: () => HTMLElement | null;
  overscan?: number;
}

export interface VirtualList {
  virtualizer: Virtualizer<HTMLElement, HTMLElement>;
  items: VirtualItem[];
  total: number;
}

export function useVirtual(options: VirtualOptions): VirtualList {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const config = {
    count: options.count,
    getScrollElement: options.scrollElement,
    estimateSize: () => options.estimate,
    getItemKey: options.getKey,
    overscan: options.overscan ?? 8,
    observeElementRect,
    observeElementOffset,
    scrollToFn: elementScroll,
    onChange: () => rerender(0),
  };
  const [virtualizer] = useState(() => new Virtualizer<HTMLElement, HTMLElement>(config));
  virtualizer.setOptions({ ...virtualizer.options, ...config });
  useLayoutEffect(() => virtualizer._didMount(), []);
  useLayoutEffect(() => virtualizer._willUpdate());
  return { virtualizer, items: virtualizer.getVirtualItems(), total: virtualizer.getTotalSize() };
}
