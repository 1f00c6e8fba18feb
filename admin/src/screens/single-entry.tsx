import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, manage, newActionKey, type ManageAnswer } from "../api/client";
import { describeError } from "../api/error-words";
import { navigate, paths } from "../router";
import { Loading, Notice, PageHeader } from "../ui/controls";

type Model = ManageAnswer<"getModel">;

/** A single model's one entry: opened, or created on first open (a race answers `single_entry_exists`: open that one). */
export function SingleEntry({ site, model, lang }: { site: string; model: Model; lang: string }) {
  const [error, setError] = useState<unknown>(null);
  const key = useRef(newActionKey());
  useEffect(() => {
    let stop = false;
    const open = async () => {
      // The one entry outside Trash, else the one in Trash (a single model counts Trash: its editor offers the restore).
      const find = async () =>
        (await manage("listEntries", { query: { model_id: model.id, limit: "1" } })).data[0] ??
        (await manage("listEntries", { query: { model_id: model.id, state: "trash", limit: "1" } })).data[0];
      const found = await find();
      if (found) return found;
      try {
        return await manage("createEntry", { body: { model_id: model.id, lang, fields: {} }, key: key.current });
      } catch (e) {
        if (e instanceof ApiError && e.code === "single_entry_exists") return find();
        throw e;
      }
    };
    open().then(
      (entry) => !stop && entry && navigate(paths.entry(site, entry.instance_id, entry.lang), { replace: true }),
      (e: unknown) => !stop && setError(e),
    );
    return () => {
      stop = true;
    };
  }, [model.id]);
  if (!error) return <Loading label={`Opening ${model.name}…`} />;
  const words = describeError(error);
  return (
    <>
      <PageHeader title={model.name} />
      <Notice kind="error" title={words.title}>{words.detail}</Notice>
    </>
  );
}
