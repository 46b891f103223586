import type { MouseEvent, ReactNode } from "react";
import { SiteFooter, SiteHeader } from "../../components/SiteChrome";
import { Link } from "../../lib/Link";
import "./result.css";

/**
 * Where the lead form lands when it was sent as a plain form post (the page's
 * script had not run yet): a page that reads without JavaScript.
 */
export function ResultPage({
  tone,
  title,
  children,
  action,
}: {
  tone: "sent" | "failed";
  title: string;
  children: ReactNode;
  action: { to: string; label: string; onClick?: (event: MouseEvent<HTMLAnchorElement>) => void };
}) {
  return (
    <>
      <SiteHeader overlay={false} />
      <main className="result container">
        <div className={`result__card result__card--${tone}`}>
          <span className="result__icon" aria-hidden="true">
            {tone === "sent" ? "✓" : "!"}
          </span>
          <h1 tabIndex={-1}>{title}</h1>
          {children}
          <Link to={action.to} onClick={action.onClick} className="button button--primary">
            {action.label}
          </Link>
        </div>
      </main>
      <SiteFooter />
    </>
  );
}
