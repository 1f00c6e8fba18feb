import { useState } from "preact/hooks";
import { ApiError, manage, newActionKey, requestHeaders, apiErrorOf, type ManageAnswer } from "../api/client";
import { describeError } from "../api/error-words";
import { paths } from "../router";
import { Button, Link, Loading, Notice, PageHeader } from "../ui/controls";
import type { ScreenProps } from "./types";
import { useLoad } from "./use-load";

type Problem = ManageAnswer<"getGenerationReadiness">["problems"][number];
type Token = ManageAnswer<"listBackendReadTokens">["data"][number];
type Model = ManageAnswer<"listModels">["data"][number];

/** Entries resolved for content problems (translation group → an entry id), at most this many per page. */
const RESOLVE_ENTRIES = 25;

/**
 * Settings › Source and publishing (issue #25 item 8, docs/generated-backend.md "In the CMS"):
 * what refuses generating the site's backend, each problem linking to the model or entry that
 * causes it; the backend read tokens, issued (the secret shown once) and revoked; and the download
 * of the backend's source. Everything goes through the management API under the session, so the
 * rules (site:infra) are the service's.
 */
export default function SourcePublishing({ site }: ScreenProps) {
  const setup = useLoad(async (signal) => {
    const [models, readiness, content, tokens] = await Promise.all([
      manage("listModels", { signal }),
      manage("getGenerationReadiness", { signal }),
      manage("getGenerationReadinessContent", { signal }),
      manage("listBackendReadTokens", { signal }),
    ]);
    const entries = await entriesOf(content.problems, models.data, signal);
    return { models: models.data, problems: readiness.problems, content: content.problems, next: content.page.next_cursor, entries, tokens: tokens.data };
  }, [site]);
  const [more, setMore] = useState<{ problems: Problem[]; next: string | null; entries: Map<string, string> } | null>(null);
  const [moreBusy, setMoreBusy] = useState(false);
  const [tokens, setTokens] = useState<Token[] | null>(null);
  const [issued, setIssued] = useState<{ name: string; secret: string } | null>(null);
  const [said, setSaid] = useState("");
  const [failure, setFailure] = useState<string | null>(null);

  if (setup.error) {
    const words = describeError(setup.error);
    const notAllowed = setup.error instanceof ApiError && (setup.error.status === 403 || setup.error.code === "missing_permission");
    return (
      <>
        <Header />
        <Notice kind={notAllowed ? "warning" : "error"} title={notAllowed ? "Your role does not allow the site's source and publishing settings." : words.title}>
          <p>{notAllowed ? "Generating the backend and issuing its read tokens need the site infrastructure permission. Ask one of the site's administrators." : words.detail}</p>
        </Notice>
      </>
    );
  }
  if (!setup.data) return <Loading label="Checking the site's backend…" />;
  const data = setup.data;
  const models = data.models;
  const contentProblems = [...data.content, ...(more?.problems ?? [])];
  const entries = new Map([...data.entries, ...(more?.entries ?? [])]);
  const next = more ? more.next : data.next;
  const allProblems = [...data.problems, ...contentProblems];
  const liveTokens = tokens ?? data.tokens;

  const checkMore = async () => {
    if (next === null) return;
    setMoreBusy(true);
    try {
      const page = await manage("getGenerationReadinessContent", { query: { cursor: next } });
      const resolved = await entriesOf(page.problems, models);
      setMore((m) => ({ problems: [...(m?.problems ?? []), ...page.problems], next: page.page.next_cursor, entries: new Map([...(m?.entries ?? []), ...resolved]) }));
    } catch (thrown) {
      setFailure(describeError(thrown).title);
    } finally {
      setMoreBusy(false);
    }
  };

  return (
    <>
      <Header />
      <p role="status" aria-live="polite" class="muted">
        {said}
      </p>
      {failure ? <Notice kind="error" title={failure} /> : null}

      <section class="stack" aria-labelledby="source-readiness">
        <h2 id="source-readiness">Readiness</h2>
        {allProblems.length === 0 && next === null ? (
          <Notice kind="success" title="Ready: the backend can be generated from this site." />
        ) : (
          <>
            <p>
              {allProblems.length === 0 ? "No problem in what was checked so far." : `${allProblems.length} problem${allProblems.length === 1 ? "" : "s"} refuse generating the backend. Fix each one where it is caused:`}
            </p>
            {allProblems.length > 0 ? (
              <table class="list responsive">
                <thead>
                  <tr>
                    <th scope="col">Problem</th>
                    <th scope="col">Where</th>
                    <th scope="col">Detail</th>
                  </tr>
                </thead>
                <tbody>
                  {allProblems.map((problem) => (
                    <tr>
                      <td>
                        <code>{problem.code}</code>
                      </td>
                      <td>
                        <ProblemLink site={site} problem={problem} models={models} entries={entries} />
                      </td>
                      <td>{problem.detail}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
          </>
        )}
        {next !== null ? (
          <p>
            <Button onClick={() => void checkMore()} busy={moreBusy}>
              Check more published content
            </Button>
          </p>
        ) : null}
      </section>

      <section class="stack" aria-labelledby="source-download">
        <h2 id="source-download">Backend source</h2>
        <p>A TypeScript project serving this site's models under /api/&lt;model&gt;, with its published content as starting data. Generate again after changing models, content or read tokens.</p>
        <p>
          <Button variant="primary" disabled={data.problems.length > 0} onClick={() => void download(setFailure, setSaid)}>
            Download the backend (.tar.gz)
          </Button>
        </p>
        {data.problems.length > 0 ? <p class="muted">Fix the problems above first: generation refuses them.</p> : null}
      </section>

      <section class="stack" aria-labelledby="source-tokens">
        <h2 id="source-tokens">Read tokens</h2>
        <p>Tokens the generated backend accepts for reading its models. Only a digest is kept; a token reaches the backend at its next generation and deploy.</p>
        {issued ? (
          <Notice kind="success" title={`Read token "${issued.name}" issued. Copy it now: it is shown this once.`}>
            <label>
              Secret of {issued.name}
              <input readOnly value={issued.secret} style={{ width: "100%" }} onFocus={(event) => event.currentTarget.select()} />
            </label>
          </Notice>
        ) : null}
        <IssueForm
          models={models}
          onIssued={(token, secret) => {
            setTokens([token, ...liveTokens]);
            setIssued({ name: token.name, secret });
            setSaid(`Read token ${token.name} issued.`);
          }}
          onFailed={setFailure}
        />
        {liveTokens.length === 0 ? (
          <p class="muted">No read token yet.</p>
        ) : (
          <table class="list responsive">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Models</th>
                <th scope="col">Issued</th>
                <th scope="col">State</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {liveTokens.map((token) => (
                <tr>
                  <td>{token.name}</td>
                  <td>{token.models.includes("*") ? "Every model" : token.models.map((id) => models.find((m) => m.id === id)?.name ?? id).join(", ")}</td>
                  <td>{token.created_at.slice(0, 10)}</td>
                  <td>{token.revoked_at ? `Revoked ${token.revoked_at.slice(0, 10)}` : "Active"}</td>
                  <td>
                    {token.revoked_at ? null : (
                      <Button
                        variant="danger"
                        aria-label={`Revoke ${token.name}`}
                        onClick={async () => {
                          try {
                            const revoked = await manage("revokeBackendReadToken", { params: { id: token.id }, key: newActionKey() });
                            setTokens(liveTokens.map((t) => (t.id === token.id ? { ...t, revoked_at: (revoked as Partial<Token>).revoked_at ?? new Date().toISOString() } : t)));
                            setSaid(`Read token ${token.name} revoked.`);
                          } catch (thrown) {
                            setFailure(describeError(thrown).title);
                          }
                        }}
                      >
                        Revoke
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

function Header() {
  return (
    <>
      <nav aria-label="Breadcrumb" class="muted">
        Settings › Source and publishing
      </nav>
      <PageHeader title="Source and publishing" />
    </>
  );
}

/** The model or entry a problem names, as a link (the entry when it could be resolved). */
function ProblemLink({ site, problem, models, entries }: { site: string; problem: Problem; models: readonly Model[]; entries: Map<string, string> }) {
  const model = models.find((m) => m.definition.model.slug === problem.model);
  const field = problem.field ? ` · ${problem.field}` : "";
  // A saved query naming a private field is fixed on the saved queries screen (or on the model).
  if (problem.query !== undefined) return <Link href={paths.siteQueries(site)}>{`Saved query ${problem.query} · ${model?.name ?? problem.model}${field}`}</Link>;
  if (problem.item !== undefined) {
    const entry = entries.get(problem.item);
    if (entry !== undefined) return <Link href={paths.entry(site, entry)}>{`Entry ${problem.item} of ${model?.name ?? problem.model}${field}`}</Link>;
  }
  if (model !== undefined) return <Link href={paths.entries(site, model.id)}>{`Model ${model.name}${field}`}</Link>;
  return <span>{`Model ${problem.model}${field}`}</span>;
}

/** The entry ids of the items content problems name (one language of each group is enough to open it). */
async function entriesOf(problems: readonly Problem[], models: readonly Model[], signal?: AbortSignal): Promise<Map<string, string>> {
  const groups = [...new Map(problems.filter((p) => p.item !== undefined).map((p) => [p.item as string, p.model])).entries()].slice(0, RESOLVE_ENTRIES);
  const found = new Map<string, string>();
  await Promise.all(
    groups.map(async ([group, slug]) => {
      const model = models.find((m) => m.definition.model.slug === slug);
      try {
        const list = await manage("listEntries", { query: { translation_group_id: group, ...(model ? { model_id: model.id } : {}), limit: "1" }, ...(signal ? { signal } : {}) });
        const first = list.data[0];
        if (first !== undefined) found.set(group, first.instance_id);
      } catch {
        // An entry the person may not read, or gone since: the problem links to its model instead.
      }
    }),
  );
  return found;
}

/** Fetches the archive under the session and hands it to the browser as a file download. */
async function download(onFailure: (words: string) => void, onDone: (words: string) => void): Promise<void> {
  const response = await fetch("/api/v1/generated-backend", { headers: { ...requestHeaders("GET"), accept: "application/gzip" }, credentials: "same-origin" });
  if (!response.ok) {
    const text = await response.text();
    onFailure(describeError(apiErrorOf(response.status, response.statusText, text ? (JSON.parse(text) as unknown) : null)).title);
    return;
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "backend.tar.gz";
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  onDone(`Downloaded ${name}.`);
}

function IssueForm({ models, onIssued, onFailed }: { models: readonly Model[]; onIssued: (token: Token, secret: string) => void; onFailed: (words: string) => void }) {
  const [name, setName] = useState("");
  const [every, setEvery] = useState(true);
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  return (
    <form
      class="stack"
      aria-labelledby="source-issue"
      onSubmit={async (event) => {
        event.preventDefault();
        if (name.trim() === "") return setError("Give the token a name.");
        if (!every && chosen.length === 0) return setError("Choose at least one model, or every model.");
        setError("");
        setBusy(true);
        try {
          const answer = await manage("createBackendReadToken", { body: { name: name.trim(), models: every ? ["*"] : chosen }, key: newActionKey() });
          const { token: secret, ...token } = answer as Token & { token: string | null };
          if (secret) onIssued(token as Token, secret);
          setName("");
        } catch (thrown) {
          onFailed(describeError(thrown).title);
        } finally {
          setBusy(false);
        }
      }}
    >
      <h3 id="source-issue">Issue a read token</h3>
      <label>
        Token name
        <input value={name} maxLength={120} aria-invalid={error !== "" ? "true" : undefined} aria-describedby={error ? "source-issue-error" : undefined} onInput={(event) => setName(event.currentTarget.value)} />
      </label>
      <fieldset>
        <legend>Models it reads</legend>
        <label>
          <input type="checkbox" checked={every} onChange={(event) => setEvery(event.currentTarget.checked)} /> Every model (also openapi.json)
        </label>
        {every
          ? null
          : models.map((model) => (
              <label>
                <input
                  type="checkbox"
                  checked={chosen.includes(model.id)}
                  onChange={(event) => {
                    const on = event.currentTarget.checked;
                    setChosen((list) => (on ? [...list, model.id] : list.filter((id) => id !== model.id)));
                  }}
                />{" "}
                {model.name}
              </label>
            ))}
      </fieldset>
      {error ? (
        <p id="source-issue-error" role="alert" class="error">
          {error}
        </p>
      ) : null}
      <p>
        <Button type="submit" busy={busy}>
          Issue read token
        </Button>
      </p>
    </form>
  );
}
