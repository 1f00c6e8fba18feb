import { location, paths } from "../router";
import { Link } from "../ui/controls";

/** The settings area's own sections (docs/admin-ui-settings.md), under the top bar's "Settings". */
export function SettingsNav({ site }: { site: string }) {
  const here = location.value.path;
  const items = [
    { href: paths.settings(site), label: "General" },
    { href: paths.settingsCredentials(site), label: "Credentials" },
    { href: paths.settingsPlugins(site), label: "Plugins" },
    { href: paths.settingsWebhooks(site), label: "Webhooks" },
    { href: paths.settingsAudit(site), label: "Audit log" },
    { href: paths.sourcePublishing(site), label: "Source and publishing" },
    // Settings screens of other parts (admin/src/roles/, admin/src/site/), reachable from here too.
    { href: paths.roles(site), label: "Roles" },
    { href: paths.siteCors(site), label: "Browser access (CORS)" },
    { href: paths.siteRedirects(site), label: "Redirects" },
    { href: paths.siteChrome(site), label: "Site Chrome, SEO, robots" },
    // Comment settings and member-only paths (issue #30 item 3, docs/admin-ui-lists.md).
    { href: paths.settingsComments(site), label: "Comments" },
    { href: paths.settingsAccessRules(site), label: "Member-only paths" },
  ];
  return (
    <nav aria-label="Settings sections" class="settings-nav">
      <ul>
        {items.map((item) => (
          <li>
            <Link href={item.href} aria-current={here === item.href ? "page" : undefined}>
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
