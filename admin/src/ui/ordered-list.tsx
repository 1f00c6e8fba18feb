import type { ComponentChildren } from "preact";
import { useLayoutEffect, useRef, useState } from "preact/hooks";

/**
 * An ordered list a person reorders by dragging a row or, from the keyboard, with each row's
 * "Move up" / "Move down" buttons (focus stays on the moved row's button); every move and removal
 * is announced in a live region ("Moved Tides to position 1 of 3"). Used by the relation and
 * media inputs.
 */
export function OrderedList<T>({ label, items, keyOf, nameOf, render, reorderable, onReorder, onRemove }: {
  label: string;
  items: readonly T[];
  keyOf: (item: T) => string;
  nameOf: (item: T) => string;
  render: (item: T) => ComponentChildren;
  reorderable: boolean;
  onReorder: (next: T[]) => void;
  onRemove?: ((item: T) => void) | undefined;
}) {
  const [said, say] = useState("");
  const [dragged, setDragged] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const focusNext = useRef<string | null>(null);
  const root = useRef<HTMLOListElement>(null);

  useLayoutEffect(() => {
    if (!focusNext.current) return;
    const target = root.current?.querySelector<HTMLButtonElement>(focusNext.current);
    focusNext.current = null;
    target?.focus();
  });

  const move = (from: number, to: number, how: "button" | "drag", direction?: "up" | "down") => {
    if (to < 0 || to >= items.length || from === to) return;
    const next = [...items];
    const [item] = next.splice(from, 1);
    if (item === undefined) return;
    next.splice(to, 0, item);
    if (how === "button" && direction) {
      // Keep focus on the same button of the moved row, or the other one at the list's end.
      const edge = (direction === "up" && to === 0) || (direction === "down" && to === items.length - 1);
      focusNext.current = `[data-key="${CSS.escape(keyOf(item))}"] [data-move="${edge ? (direction === "up" ? "down" : "up") : direction}"]`;
    }
    say(`Moved ${nameOf(item)} to position ${to + 1} of ${items.length}.`);
    onReorder(next);
  };

  return (
    <>
      {items.length > 0 ? (
        <ol class="ordered-list" ref={root} aria-label={label}>
          {items.map((item, index) => {
            const name = nameOf(item);
            return (
              <li
                key={keyOf(item)}
                data-key={keyOf(item)}
                class={`ordered-item${dragged === index ? " is-dragged" : ""}${over === index && dragged !== index ? " is-over" : ""}`}
                draggable={reorderable}
                onDragStart={(event) => {
                  setDragged(index);
                  event.dataTransfer?.setData("text/plain", keyOf(item));
                  if (event.dataTransfer) event.dataTransfer.effectAllowed = "move";
                }}
                onDragOver={(event) => {
                  if (dragged === null) return;
                  event.preventDefault();
                  setOver(index);
                }}
                onDrop={(event) => {
                  event.preventDefault();
                  if (dragged !== null) move(dragged, index, "drag");
                  setDragged(null);
                  setOver(null);
                }}
                onDragEnd={() => {
                  setDragged(null);
                  setOver(null);
                }}
              >
                {reorderable ? (
                  <span class="drag-handle" aria-hidden="true" title="Drag to reorder">
                    ⠿
                  </span>
                ) : null}
                <span class="ordered-position" aria-hidden="true">
                  {reorderable ? `${index + 1}.` : ""}
                </span>
                <span class="ordered-body">{render(item)}</span>
                <span class="ordered-actions">
                  {reorderable ? (
                    <>
                      <button type="button" data-move="up" aria-label={`Move ${name} up`} disabled={index === 0} onClick={() => move(index, index - 1, "button", "up")}>
                        <span aria-hidden="true">↑</span>
                      </button>
                      <button type="button" data-move="down" aria-label={`Move ${name} down`} disabled={index === items.length - 1} onClick={() => move(index, index + 1, "button", "down")}>
                        <span aria-hidden="true">↓</span>
                      </button>
                    </>
                  ) : null}
                  {onRemove ? (
                    <button
                      type="button"
                      class="button-danger"
                      aria-label={`Remove ${name}`}
                      onClick={() => {
                        say(`Removed ${name}.`);
                        onRemove(item);
                      }}
                    >
                      Remove
                    </button>
                  ) : null}
                </span>
              </li>
            );
          })}
        </ol>
      ) : null}
      <p class="visually-hidden" role="status" aria-live="polite">
        {said}
      </p>
    </>
  );
}
