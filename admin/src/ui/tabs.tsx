import type { ComponentChildren } from "preact";

/**
 * Tabs with the ARIA tabs pattern: arrow keys move between tabs, the selected tab is the one tab
 * stop. `panelId` is the id of the panel the caller renders below.
 */
export function Tabs({ label, tabs, selected, onSelect, panelId }: { label: string; tabs: readonly { id: string; label: ComponentChildren }[]; selected: string; onSelect: (id: string) => void; panelId: string }) {
  const move = (event: KeyboardEvent, index: number) => {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = tabs[(index + step + tabs.length) % tabs.length];
    if (!next) return;
    onSelect(next.id);
    (event.currentTarget as HTMLElement).parentElement?.querySelector<HTMLElement>(`[data-tab="${CSS.escape(next.id)}"]`)?.focus();
  };
  return (
    <div role="tablist" aria-label={label}>
      {tabs.map((tab, index) => (
        <button
          type="button"
          role="tab"
          data-tab={tab.id}
          id={`${panelId}-tab-${tab.id}`}
          aria-selected={tab.id === selected ? "true" : "false"}
          aria-controls={panelId}
          tabIndex={tab.id === selected ? 0 : -1}
          onClick={() => onSelect(tab.id)}
          onKeyDown={(event) => move(event, index)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
