import { useEffect, useState } from "preact/hooks";
import { manage } from "../api/client";
import { Button, Loading } from "../ui/controls";
import { Refusal } from "./refusal";
import type { MediaItem, MediaUsage } from "./types";
import { UsageList } from "./usage-list";

/** Where the file is used (`getMediaUsage`), read when the file is chosen and on Refresh. */
export function UsageSection({ site, item }: { site: string; item: MediaItem }) {
  const [usage, setUsage] = useState<MediaUsage | null | undefined>(undefined);
  const [failure, setFailure] = useState<unknown>(null);
  const load = async () => {
    setUsage(undefined);
    setFailure(null);
    try {
      setUsage(await manage("getMediaUsage", { params: { id: item.id } }));
    } catch (error) {
      setUsage(null);
      setFailure(error);
    }
  };
  useEffect(() => {
    void load();
  }, [item.id]);
  return (
    <section class="stack details-section" aria-labelledby="media-usage-title">
      <div class="row">
        <h3 id="media-usage-title">Where it is used</h3>
        <Button variant="ghost" onClick={() => void load()} aria-label="Refresh where it is used">
          Refresh
        </Button>
      </div>
      {usage === undefined ? <Loading label="Looking for content using this file…" /> : usage ? <UsageList site={site} usage={usage} /> : <Refusal error={failure} />}
    </section>
  );
}
