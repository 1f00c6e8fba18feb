import { navigate, paths } from "../router";
import { EntryProposal } from "../review/entry-proposal";
import { EntryProposalList } from "../review/entry-proposal-list";
import { ModelProposalView } from "../review/model-proposal";
import { ModelProposalList } from "../review/model-proposal-list";
import { reviewPaths } from "../review/words";
import { PageHeader } from "../ui/controls";
import { Tabs } from "../ui/tabs";
import "../styles/review.css";
import type { ScreenProps } from "./types";

/**
 * Review (issue #15 item 7, docs/admin-ui-review.md): proposals from agents, plugins and scripts
 * waiting for a person. `?tab=models` shows model proposals; `?state=` filters (open by default);
 * `?proposal=ID` / `?model_proposal=ID` open one with its diff and Apply / Reject (Dismiss).
 */
export default function Review({ site, search }: ScreenProps) {
  const base = paths.review(site);
  const proposal = search.get("proposal");
  const modelProposal = search.get("model_proposal");
  if (proposal) return <EntryProposal site={site} id={proposal} />;
  if (modelProposal) return <ModelProposalView site={site} id={modelProposal} />;
  const tab = search.get("tab") === "models" ? "models" : "entries";
  const state = search.get("state") ?? "open";
  const panelId = "review-panel";
  return (
    <>
      <PageHeader title="Review" />
      <p class="muted">Changes proposed by agents, plugins and scripts wait here until a person applies or rejects them.</p>
      <Tabs
        label="Proposals"
        panelId={panelId}
        selected={tab}
        tabs={[
          { id: "entries", label: "Entry proposals" },
          { id: "models", label: "Model proposals" },
        ]}
        onSelect={(id) => navigate(reviewPaths.list(base, id === "models" ? "models" : "entries"), { replace: true })}
      />
      <div id={panelId} role="tabpanel" aria-labelledby={`${panelId}-tab-${tab}`}>
        {tab === "entries" ? (
          <EntryProposalList site={site} state={state} onState={(s) => navigate(reviewPaths.list(base, "entries", s), { replace: true })} />
        ) : (
          <ModelProposalList site={site} state={state} onState={(s) => navigate(reviewPaths.list(base, "models", s), { replace: true })} />
        )}
      </div>
    </>
  );
}
