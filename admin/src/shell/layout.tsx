import type { ComponentChildren } from "preact";
import { Button, Link } from "../ui/controls";
import { navigate, location, paths } from "../router";
import { currentSite, session, signOut } from "../state/session";

/** The frame of every signed-in screen: skip link, site switcher, sections, the person, sign-out. */
export function Layout({ children }: { children: ComponentChildren }) {
  const site = currentSite.value;
  const person = session.value?.person;
  const sites = session.value?.sites ?? [];
  const here = location.value.path;
  const sections = site
    ? [
        { href: paths.dashboard(site.id), label: "Home" },
        { href: paths.content(site.id), label: "Content" },
        { href: paths.pages(site.id), label: "Pages" },
        { href: paths.review(site.id), label: "Review" },
        { href: paths.comments(site.id), label: "Comments" },
        { href: paths.media(site.id), label: "Media" },
        { href: paths.people(site.id), label: "People" },
        { href: paths.siteReleases(site.id), label: "Site" },
        { href: paths.models(site.id), label: "Models" },
        { href: paths.settings(site.id), label: "Settings" },
      ]
    : [];
  // The section whose address is the longest prefix of this one ("Models" at /settings/models, not
  // "Settings" too); an entry's editor belongs to Content.
  const current =
    sections.filter((s) => here.startsWith(s.href)).sort((a, b) => b.href.length - a.href.length)[0] ??
    (here.includes("/entries/") ? sections.find((s) => s.label === "Content") : undefined);
  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <Link class="brand" href={paths.home()}>
          Driftwood
        </Link>
        {sites.length > 0 ? (
          <label class="row">
            <span class="visually-hidden">Site</span>
            <select
              aria-label="Site"
              value={site?.id ?? ""}
              onChange={(event) => {
                const id = (event.currentTarget as HTMLSelectElement).value;
                if (id) navigate(paths.content(id));
              }}
            >
              {site ? null : <option value="">Choose a site…</option>}
              {sites.map((s) => (
                <option value={s.id}>{s.name}</option>
              ))}
            </select>
          </label>
        ) : null}
        {person?.superadmin ? (
          <nav aria-label="Operators">
            <ul>
              <li>
                <Link href={paths.operatorSites()} aria-current={here.startsWith(paths.operatorSites()) ? "page" : undefined}>
                  All sites
                </Link>
              </li>
            </ul>
          </nav>
        ) : null}
        {sections.length ? (
          <nav aria-label="Sections">
            <ul>
              {sections.map((s) => (
                <li>
                  <Link href={s.href} aria-current={s === current ? "page" : undefined}>
                    {s.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <span class="spacer" />
        {person ? (
          <span class="muted" title={person.email}>
            {site ? (
              <Link class="account-link" href={paths.account(site.id)} aria-current={here === paths.account(site.id) ? "page" : undefined}>
                <span class="visually-hidden">Your account: </span>
                {person.name}
              </Link>
            ) : (
              person.name
            )}
            {site ? ` · ${site.role}` : ""}
          </span>
        ) : null}
        <Button
          variant="ghost"
          onClick={async () => {
            await signOut();
            navigate(paths.signIn(), { replace: true });
          }}
        >
          Sign out
        </Button>
      </header>
      {site?.suspended ? (
        <p class="suspended-banner" role="status">
          <strong>{site.name} is suspended.</strong> You can read everything; changes are refused until the operators resume the site.
        </p>
      ) : null}
      <main id="main" class="page" tabIndex={-1}>
        {children}
      </main>
      <footer class="footer muted">Driftwood {DRIFTWOOD_VERSION}</footer>
    </div>
  );
}
