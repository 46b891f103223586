import { useLayoutEffect, useRef } from "react";
import { Link } from "../../lib/Link";

/** The panel's pages: the leads and the campaigns for everyone, the team and the activity for owners. */
const PAGES = [
  { path: "/admin", label: "Leads", ownersOnly: false },
  { path: "/admin/campanhas", label: "Campanhas", ownersOnly: false },
  { path: "/admin/equipe", label: "Equipe", ownersOnly: true },
  { path: "/admin/atividade", label: "Atividade", ownersOnly: true },
];

/** The links to the panel's pages the signed-in person can open, the one on screen marked. */
export function StaffNav({ path, isOwner }: { path: string; isOwner: boolean }) {
  const nav = useRef<HTMLElement>(null);
  // On a phone the four pages scroll in their strip, beside 'Menu': the one
  // on screen is brought into the strip's view, never left past its edge.
  // biome-ignore lint/correctness/useExhaustiveDependencies: run again for each page reached
  useLayoutEffect(() => {
    const strip = nav.current;
    const current = strip?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!strip || !current) return;
    const box = strip.getBoundingClientRect();
    const tab = current.getBoundingClientRect();
    if (tab.right > box.right) strip.scrollLeft += tab.right - box.right;
    else if (tab.left < box.left) strip.scrollLeft -= box.left - tab.left;
  }, [path, isOwner]);
  return (
    <nav ref={nav} className="admin__container staff-nav" aria-label="Páginas do painel">
      {PAGES.filter((page) => isOwner || !page.ownersOnly).map((page) => (
        <Link
          key={page.path}
          to={page.path}
          className="staff-nav__link"
          aria-current={isCurrent(page.path, path) ? "page" : undefined}
        >
          {page.label}
        </Link>
      ))}
    </nav>
  );
}

/** A lead's own page belongs to the leads. */
function isCurrent(pagePath: string, path: string): boolean {
  return path === pagePath || (pagePath === "/admin" && path.startsWith("/admin/leads/"));
}
