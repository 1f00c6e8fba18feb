import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { ApiError, manage, newActionKey, type ManageAnswer, type ManageOperations } from "../api/client";
import { describeError } from "../api/error-words";
import type { ScreenProps } from "../screens/types";
import { useLoad } from "../screens/use-load";
import { Button, Field, Loading, Notice, PageHeader } from "../ui/controls";
import { EntryPicker } from "../ui/entry-picker";
import { OutcomeNotice, SiteNav, useOutcome } from "./shared";
import "../styles/site.css";

type Menu = ManageAnswer<"getMenu">;
type StoredItem = { label: string; target: { kind: string; group_id?: string | undefined; url?: string | undefined }; children: readonly unknown[] };
type Item = { key: string; label: string; kind: "entry" | "url"; entry: string; entryLabel: string; url: string; children: Item[] };
type Input = { label: string; target: { kind: "entry"; entry_id: string } | { kind: "url"; url: string }; children?: Input[] };

/** Menus nest at most three levels (docs/menus.md). */
const MAX_DEPTH = 3;
let serial = 0;
const newKey = () => `m${++serial}`;

function fromStored(items: readonly unknown[]): Item[] {
  return (items as StoredItem[]).map((i) => ({
    key: newKey(),
    label: i.label,
    kind: i.target.kind === "url" ? "url" : "entry",
    entry: i.target.group_id ?? "",
    entryLabel: i.target.group_id ? `an entry (${i.target.group_id})` : "",
    url: i.target.url ?? "",
    children: fromStored(i.children ?? []),
  }));
}

function toInput(items: readonly Item[]): Input[] {
  return items.map((i) => ({
    label: i.label.trim(),
    target: i.kind === "url" ? { kind: "url", url: i.url.trim() } : { kind: "entry", entry_id: i.entry },
    ...(i.children.length ? { children: toInput(i.children) } : {}),
  }));
}

/** The list holding `key` changed by `change` (the whole tree copied). */
function editList(items: Item[], key: string, change: (list: Item[], index: number) => Item[]): Item[] {
  const index = items.findIndex((i) => i.key === key);
  if (index >= 0) return change(items, index);
  return items.map((i) => ({ ...i, children: editList(i.children, key, change) }));
}

/**
 * Menus (issue #29 item 3, docs/menus.md): the site's named menus, each language's items nested
 * up to three levels, each pointing at an entry or page (chosen with the entry picker) or an https
 * URL or site path. Items are reordered from the keyboard ("Move up" / "Move down", focus stays
 * on the moved item, the move is announced). Saving replaces every language's items (`putMenu`
 * with the menu's revision).
 */
export default function MenusScreen({ site, search }: ScreenProps) {
  const loaded = useLoad(async (signal) => {
    const [menus, info, models] = await Promise.all([manage("listMenus", { signal }), manage("getSite", { signal }), manage("listModels", { signal })]);
    return { menus: menus.data, languages: info.languages as string[], defaultLang: info.default_lang as string, models: models.data.map((m) => ({ id: m.id, name: m.name })) };
  }, []);
  const [name, setName] = useState(search.get("menu") ?? "");
  const [newName, setNewName] = useState("");
  const [menu, setMenu] = useState<Menu | null>(null);
  const [lang, setLang] = useState("");
  const [items, setItems] = useState<Record<string, Item[]>>({});
  const [picking, setPicking] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const note = useOutcome();
  const focusNext = useRef<string | null>(null);
  const tree = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (loaded.data && !lang) setLang(loaded.data.defaultLang);
  }, [loaded.data]);
  useLayoutEffect(() => {
    if (!focusNext.current) return;
    tree.current?.querySelector<HTMLElement>(focusNext.current)?.focus();
    focusNext.current = null;
  });

  const open = (menuName: string) => {
    const found = loaded.data?.menus.find((m) => m.name === menuName) ?? null;
    setName(menuName);
    setMenu(found);
    setItems(Object.fromEntries(Object.entries(found?.items ?? {}).map(([l, list]) => [l, fromStored(list)])));
    note.clear();
  };
  useEffect(() => {
    if (loaded.data && name && !menu) open(name);
  }, [loaded.data]);

  const list = items[lang] ?? [];
  const setList = (next: Item[]) => setItems({ ...items, [lang]: next });
  const edit = (key: string, change: Partial<Item>) => setList(editList(list, key, (l, i) => l.map((x, j) => (j === i ? { ...x, ...change } : x))));
  const move = (item: Item, by: -1 | 1) =>
    setList(
      editList(list, item.key, (l, i) => {
        const to = i + by;
        if (to < 0 || to >= l.length) return l;
        const next = [...l];
        next.splice(i, 1);
        next.splice(to, 0, item);
        const edge = to === 0 || to === l.length - 1;
        const button = edge ? (by < 0 ? "down" : "up") : by < 0 ? "up" : "down";
        focusNext.current = `[data-key="${item.key}"] > .row [data-move="${button}"]`;
        note.say(`Moved ${item.label || "the item"} to position ${to + 1} of ${l.length}.`, "info");
        return next;
      }),
    );
  const blank = (): Item => ({ key: newKey(), label: "", kind: "url", entry: "", entryLabel: "", url: "", children: [] });

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    try {
      const body = { items: Object.fromEntries(Object.entries(items).filter(([, l]) => l.length > 0).map(([l, its]) => [l, toInput(its)])), expected_revision: menu?.revision ?? 0 };
      const saved = await manage("putMenu", { params: { name }, body: body as ManageOperations["putMenu"]["body"], key: newActionKey() });
      setMenu(saved);
      note.say(`The menu ${saved.name} is saved. The website reads it at /v1/_menus/${saved.name}.`);
      loaded.reload();
    } catch (error) {
      const issues = error instanceof ApiError && Array.isArray(error.details.issues) ? (error.details.issues as { path?: string; message?: string }[]).map((i) => `${i.path ?? ""}: ${i.message ?? ""}`) : [];
      note.fail(error, { invalid_request: "Some items need attention: each needs a label and an entry, an https URL or a site path." }, issues);
    } finally {
      setBusy(false);
    }
  };

  const renderItems = (its: Item[], depth: number, parent: string) => (
    <ol aria-label={parent}>
      {its.map((item, i) => {
        const named = item.label || `item ${i + 1}`;
        return (
          <li key={item.key} data-key={item.key} class="menu-item">
            <div class="row">
              <Field label={`Label of ${depth === 1 ? "" : "sub-"}item ${i + 1}`}>{({ id }) => <input id={id} type="text" maxLength={120} value={item.label} onInput={(e) => edit(item.key, { label: (e.currentTarget as HTMLInputElement).value })} />}</Field>
              <Field label={`${named} points at`}>
                {({ id }) => (
                  <select id={id} value={item.kind} onChange={(e) => edit(item.key, { kind: (e.currentTarget as HTMLSelectElement).value as Item["kind"] })}>
                    <option value="url">An address (https URL or site path)</option>
                    <option value="entry">An entry or page</option>
                  </select>
                )}
              </Field>
              {item.kind === "url" ? (
                <Field label={`Address of ${named}`}>{({ id }) => <input id={id} type="text" class="mono" maxLength={2000} placeholder="https://… or /path" value={item.url} onInput={(e) => edit(item.key, { url: (e.currentTarget as HTMLInputElement).value })} />}</Field>
              ) : (
                <span class="row">
                  <span>{item.entry ? item.entryLabel : "No entry chosen"}</span>
                  <Button onClick={() => setPicking(item.key)} aria-label={`Choose an entry for ${named}`}>
                    Choose an entry
                  </Button>
                </span>
              )}
            </div>
            <div class="row">
              <Button variant="ghost" data-move="up" disabled={i === 0} aria-label={`Move up: ${named}`} onClick={() => move(item, -1)}>
                Move up
              </Button>
              <Button variant="ghost" data-move="down" disabled={i === its.length - 1} aria-label={`Move down: ${named}`} onClick={() => move(item, 1)}>
                Move down
              </Button>
              {depth < MAX_DEPTH ? (
                <Button variant="ghost" aria-label={`Add a sub-item under ${named}`} onClick={() => edit(item.key, { children: [...item.children, blank()] })}>
                  Add a sub-item
                </Button>
              ) : null}
              <Button variant="ghost" aria-label={`Remove ${named}`} onClick={() => setList(editList(list, item.key, (l, j) => l.filter((_, k) => k !== j)))}>
                Remove
              </Button>
            </div>
            {item.children.length ? renderItems(item.children, depth + 1, `Sub-items of ${named}`) : null}
          </li>
        );
      })}
    </ol>
  );

  return (
    <>
      <PageHeader title="Menus" />
      <SiteNav site={site} />
      {loaded.loading && !loaded.data ? <Loading label="Loading menus…" /> : null}
      {loaded.error ? <Notice kind="error" title={describeError(loaded.error).title} /> : null}
      {loaded.data ? (
        <section class="stack site-panel" aria-labelledby="menus-heading">
          <h2 id="menus-heading">The site's menus</h2>
          {loaded.data.menus.length === 0 ? <p class="muted">No menu yet.</p> : null}
          <ul class="row" aria-label="Menus">
            {loaded.data.menus.map((m) => (
              <li>
                <Button aria-pressed={m.name === name ? "true" : "false"} onClick={() => open(m.name)}>
                  Edit the menu {m.name}
                </Button>
              </li>
            ))}
          </ul>
          <form
            class="row"
            aria-label="New menu"
            onSubmit={(e) => {
              e.preventDefault();
              if (!/^[a-z][a-z0-9-]{0,63}$/.test(newName)) return note.say("A menu's name is 1 to 64 lower-case letters, digits and hyphens, starting with a letter (like main or footer).", "error");
              open(newName);
              setNewName("");
            }}
          >
            <Field label="New menu's name">{({ id }) => <input id={id} type="text" class="mono" maxLength={64} value={newName} onInput={(e) => setNewName((e.currentTarget as HTMLInputElement).value)} />}</Field>
            <Button type="submit">Start the menu</Button>
          </form>
        </section>
      ) : null}
      {loaded.data && name ? (
        <form class="stack site-panel" aria-labelledby="menu-heading" onSubmit={(e) => void save(e)}>
          <h2 id="menu-heading">Menu {name}</h2>
          <Field label="Language">
            {({ id }) => (
              <select id={id} value={lang} onChange={(e) => setLang((e.currentTarget as HTMLSelectElement).value)}>
                {loaded.data!.languages.map((l) => (
                  <option value={l}>
                    {l} ({(items[l] ?? []).length} items)
                  </option>
                ))}
              </select>
            )}
          </Field>
          <OutcomeNotice outcome={note.outcome} />
          <div class="menu-tree" ref={tree}>
            {list.length ? renderItems(list, 1, `Items of the menu ${name} in ${lang}`) : <p class="muted">No item in this language. A language without items serves the first of its fallback languages that has some.</p>}
          </div>
          <div class="row">
            <Button onClick={() => setList([...list, blank()])}>Add an item</Button>
            <Button type="submit" variant="primary" busy={busy}>
              Save the menu
            </Button>
          </div>
        </form>
      ) : null}
      {loaded.data ? (
        <EntryPicker
          open={picking !== null}
          title="Choose the entry this item points at"
          targets={loaded.data.models}
          multiple={false}
          exclude={[]}
          onPick={([picked]) => {
            if (picked && picking) edit(picking, { entry: picked.id, entryLabel: picked.label });
            setPicking(null);
          }}
          onClose={() => setPicking(null)}
        />
      ) : null}
    </>
  );
}
