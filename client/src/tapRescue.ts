// A tap that Chromium swallows: after a fast swipe (a stroke on the board) the browser takes the next tap for the
// gesture that stops the fling, and dispatches its pointer events but no click. A tap on a control 100 ms after a
// stroke was dropped every time. So: a touch tap (down and up on the same control, without moving away) whose click
// has not come within 350 ms gets one, as a touch click (the page reads its input source from it); a click that then
// comes late anyway is dropped, so a tap never acts twice.
const CONTROL = 'button, [role="button"], [role="radio"], [role="checkbox"], a[href], label, input[type="checkbox"], input[type="radio"]';
const WAIT_MS = 350;
const SLOP_PX = 12;

export function installTapRescue(doc: Document = document): void {
  let down: { el: Element; x: number; y: number; id: number } | null = null;
  let waiting: { el: Element; timer: ReturnType<typeof setTimeout> } | null = null;
  let rescued: { el: Element; at: number } | null = null;
  const controlOf = (t: EventTarget | null) => (t instanceof Element ? t.closest(CONTROL) : null);
  doc.addEventListener(
    'pointerdown',
    (e) => {
      const el = e.pointerType === 'touch' ? controlOf(e.target) : null;
      down = el ? { el, x: e.clientX, y: e.clientY, id: e.pointerId } : null;
    },
    true,
  );
  doc.addEventListener('pointercancel', () => (down = null), true);
  doc.addEventListener(
    'pointerup',
    (e) => {
      const d = down;
      down = null;
      if (!d || e.pointerId !== d.id || controlOf(e.target) !== d.el) return;
      if (Math.hypot(e.clientX - d.x, e.clientY - d.y) > SLOP_PX) return;
      if ((d.el as HTMLButtonElement).disabled) return;
      if (waiting) clearTimeout(waiting.timer);
      const el = d.el;
      const { clientX, clientY } = e;
      waiting = {
        el,
        timer: setTimeout(() => {
          waiting = null;
          if (!el.isConnected || (el as HTMLButtonElement).disabled) return;
          rescued = { el, at: Date.now() };
          el.dispatchEvent(new PointerEvent('click', { bubbles: true, cancelable: true, composed: true, detail: 1, pointerType: 'touch', clientX, clientY }));
        }, WAIT_MS),
      };
    },
    true,
  );
  doc.addEventListener(
    'click',
    (e) => {
      const el = controlOf(e.target);
      if (!el) return;
      if (waiting && waiting.el === el) {
        // The browser's own click came: nothing to rescue.
        clearTimeout(waiting.timer);
        waiting = null;
        return;
      }
      if (rescued && rescued.el === el && e.isTrusted && Date.now() - rescued.at < 1_000) {
        // The browser's click after all, late: the tap already acted.
        rescued = null;
        e.stopPropagation();
        e.preventDefault();
      }
    },
    true,
  );
}
