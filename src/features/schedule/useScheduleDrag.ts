// Dragging a visit block on the day schedule to another time and/or another practitioner's lane, with pointer events.
// With a mouse or pen, a press becomes a drag once the pointer has moved a few pixels, so a click still opens the visit.
// With a finger, a swipe still scrolls the schedule and the page: the block is picked up by holding it still for a
// moment (it lifts), then it follows the finger. Escape or a cancelled pointer puts it back. The drop is handed to
// `onDrop`; nothing is moved here.
import { useEffect, useRef, useState, type MouseEvent as ReactMouseEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { draggedStart, type ScheduleBlock, type ScheduleLayout } from './scheduleLayout';

/** How far (px) a press must move before it is a drag and not a click. */
const DRAG_THRESHOLD_PX = 6;
/** How long a finger holds a block still to pick it up. */
const TOUCH_HOLD_MS = 350;
/** The click that follows the end of a drag comes at once; a later one is a click of its own. */
const SWALLOW_CLICK_MS = 500;
/** Near an edge (px) of the window or of the schedule's scroll box, a drag scrolls them, this far each frame. */
const EDGE_PX = 40;
const EDGE_STEP_PX = 12;

/** Where the dragged block would land now. */
export interface DragTarget {
  appointmentId: number;
  practitionerId: number;
  from: number;
  to: number;
}

interface Press {
  pointerId: number;
  x: number;
  y: number;
  block: ScheduleBlock;
  practitionerId: number;
  element: HTMLElement;
  /** A finger's press: it may drag only once held (`held`). */
  touch: boolean;
  held: boolean;
  holdTimer?: ReturnType<typeof setTimeout>;
  dragging: boolean;
  /** The minute the block was pressed at: it moves by as much as the pointer's minute moves. */
  grabbedAt: number;
  /** Where the pointer is, and the frame that scrolls when it is near an edge. */
  last: { x: number; y: number };
  frame?: number;
  /** Escape put the block back; the press ends with the pointer's release. */
  cancelled: boolean;
}

export function useScheduleDrag({ layout, enabled, movable = () => true, onDrop }: {
  layout: ScheduleLayout;
  enabled: boolean;
  /** Whether a block may be picked up (a started visit may not). */
  movable?: (block: ScheduleBlock) => boolean;
  onDrop: (block: ScheduleBlock, fromPractitionerId: number, target: DragTarget) => void;
}) {
  const press = useRef<Press | null>(null);
  const tracks = useRef(new Map<number, HTMLElement>());
  const [root, setRoot] = useState<HTMLElement | null>(null);
  /** A drag ends with a click on the block it started on: that click must not open the visit. */
  const dragEndedAt = useRef(-Infinity);
  const [target, setTarget] = useState<DragTarget | null>(null);
  /** The block a finger has picked up (before it moves). */
  const [heldId, setHeldId] = useState<number | null>(null);

  /** The minute of the day at `x` on the lanes (they share the axis; the page or the schedule may have scrolled). */
  const minuteAt = (practitionerId: number, x: number) => {
    const track = (tracks.current.get(practitionerId) ?? [...tracks.current.values()][0]).getBoundingClientRect();
    return layout.startMinute + ((x - track.left) / track.width) * (layout.endMinute - layout.startMinute);
  };

  const targetAt = (current: Press, x: number, y: number): DragTarget => {
    const from = draggedStart(current.block, minuteAt(current.practitionerId, x) - current.grabbedAt, layout);
    // The lane under the pointer, or the nearest one when it is above or below them all.
    let practitionerId = current.practitionerId;
    let nearest = Infinity;
    for (const [id, track] of tracks.current) {
      const rect = track.getBoundingClientRect();
      const distance = y < rect.top ? rect.top - y : y > rect.bottom ? y - rect.bottom : 0;
      if (distance < nearest) [nearest, practitionerId] = [distance, id];
    }
    return { appointmentId: current.block.appointment.id, practitionerId, from, to: from + (current.block.to - current.block.from) };
  };

  const end = () => {
    const current = press.current;
    press.current = null;
    clearTimeout(current?.holdTimer);
    if (current?.frame !== undefined) cancelAnimationFrame(current.frame);
    if (current?.dragging || current?.held) dragEndedAt.current = performance.now();
    setTarget(null);
    setHeldId(null);
  };

  /** While dragging, a pointer held near an edge scrolls the page (lanes out of sight) or the schedule (hours out of sight). */
  const scrollAtEdges = (current: Press) => {
    const step = () => {
      if (press.current !== current || current.cancelled) return;
      const { x, y } = current.last;
      const down = y > window.innerHeight - EDGE_PX ? EDGE_STEP_PX : y < EDGE_PX ? -EDGE_STEP_PX : 0;
      const box = root?.getBoundingClientRect();
      const across = !box ? 0 : x > box.right - EDGE_PX ? EDGE_STEP_PX : x < box.left + EDGE_PX ? -EDGE_STEP_PX : 0;
      if (down) window.scrollBy(0, down);
      if (across && root) root.scrollLeft += across;
      if (down || across) setTarget(targetAt(current, x, y));
      current.frame = requestAnimationFrame(step);
    };
    current.frame = requestAnimationFrame(step);
  };

  // A drag cut short by the schedule going away (another day, another page) leaves no frame running behind it.
  useEffect(() => () => {
    const current = press.current;
    press.current = null;
    clearTimeout(current?.holdTimer);
    if (current?.frame !== undefined) cancelAnimationFrame(current.frame);
  }, []);

  // Escape puts the block back.
  useEffect(() => {
    if (!target) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !press.current) return;
      event.preventDefault();
      press.current.cancelled = true;
      setTarget(null);
    };
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  });

  // A held block keeps the finger: the schedule must not scroll under it (React's touch listeners are passive).
  useEffect(() => {
    if (!root || !enabled) return;
    const keepFinger = (event: TouchEvent) => {
      if (press.current?.held && event.cancelable) event.preventDefault();
    };
    root.addEventListener('touchmove', keepFinger, { passive: false });
    return () => root.removeEventListener('touchmove', keepFinger);
  }, [root, enabled]);

  // Nothing is left waiting when the schedule goes.
  useEffect(() => () => clearTimeout(press.current?.holdTimer), []);

  /** The props of a block: its pointer handlers. */
  const blockProps = (block: ScheduleBlock, practitionerId: number) => {
    if (!enabled || !movable(block)) return {};
    return {
      onPointerDown: (event: ReactPointerEvent<HTMLElement>) => {
        if (!event.isPrimary || event.button !== 0) return;
        const touch = event.pointerType === 'touch';
        const current: Press = {
          pointerId: event.pointerId, x: event.clientX, y: event.clientY, block, practitionerId, element: event.currentTarget,
          touch, held: false, dragging: false, cancelled: false, last: { x: event.clientX, y: event.clientY },
          grabbedAt: minuteAt(practitionerId, event.clientX),
        };
        if (touch) {
          current.holdTimer = setTimeout(() => {
            current.held = true;
            setHeldId(block.appointment.id);
          }, TOUCH_HOLD_MS);
        }
        press.current = current;
      },
      onPointerMove: (event: ReactPointerEvent<HTMLElement>) => {
        const current = press.current;
        if (!current || current.pointerId !== event.pointerId || current.cancelled) return;
        if (!current.dragging) {
          if (Math.hypot(event.clientX - current.x, event.clientY - current.y) < DRAG_THRESHOLD_PX) return;
          // A finger that moves before holding still is scrolling.
          if (current.touch && !current.held) {
            end();
            return;
          }
          current.dragging = true;
          // The block keeps the pointer's events wherever it goes (jsdom has no capture).
          current.element.setPointerCapture?.(event.pointerId);
          scrollAtEdges(current);
        }
        current.last = { x: event.clientX, y: event.clientY };
        setTarget(targetAt(current, event.clientX, event.clientY));
      },
      onPointerUp: (event: ReactPointerEvent<HTMLElement>) => {
        const current = press.current;
        if (!current || current.pointerId !== event.pointerId) return;
        if (current.dragging && !current.cancelled) onDrop(current.block, current.practitionerId, targetAt(current, event.clientX, event.clientY));
        end();
      },
      onPointerCancel: end,
      // A held finger would otherwise open the browser's menu.
      onContextMenu: (event: ReactMouseEvent<HTMLElement>) => {
        if (press.current?.touch) event.preventDefault();
      },
    };
  };

  return {
    /** Where the dragged block would land, while one is dragged. */
    target,
    /** The block a finger holds, picked up but not moved yet. */
    heldId,
    blockProps,
    /** The schedule's box (where a held finger must not scroll). */
    rootRef: setRoot,
    /** Registers a lane's track (the strip the blocks are on). */
    trackRef: (practitionerId: number) => (element: HTMLElement | null) => {
      if (element) tracks.current.set(practitionerId, element);
      else tracks.current.delete(practitionerId);
    },
    /** True for the click that ends a drag (it is not a click on the block). */
    takeSwallowedClick: () => {
      const swallowed = performance.now() - dragEndedAt.current < SWALLOW_CLICK_MS;
      dragEndedAt.current = -Infinity;
      return swallowed;
    },
  };
}
