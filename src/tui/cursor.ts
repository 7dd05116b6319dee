/**
 * A cursor over a list shown in a window of rows: the selected index and the first row on screen, kept so that
 * the selection stays in view however it moves and however the window is resized.
 */
export class Cursor {
  index = 0;
  top = 0;
  count = 0;

  /** A new length; the selection stays on its index (clamped), or follows the end when `follow` and it was there. */
  setCount(count: number, follow = false): void {
    const atEnd = this.count > 0 && this.index === this.count - 1;
    this.count = count;
    if (follow && atEnd) this.index = count - 1;
    this.index = clamp(this.index, 0, count - 1);
  }

  moveTo(index: number): void {
    this.index = clamp(index, 0, this.count - 1);
  }

  moveBy(delta: number): void {
    this.moveTo(this.index + delta);
  }

  /** The first row to show in a window of `height` rows with the selection inside it. */
  window(height: number): number {
    if (this.index < this.top) this.top = this.index;
    if (this.index >= this.top + height) this.top = this.index - height + 1;
    this.top = clamp(this.top, 0, Math.max(0, this.count - height));
    return this.top;
  }
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, n));
}
