import type { ReactNode } from "react";
import { GrapesIcon } from "../../components/icons";
import { VineyardArt } from "../../components/VineyardArt";
import { agency, development } from "../../config/agency";
import { useRouter } from "../../lib/router";

/** The card every view of /auth sits in, over the vineyard. */
export function AuthCard(props: { title: string; subtitle?: string; notice?: boolean; children: ReactNode }) {
  const { navigate } = useRouter();
  return (
    <main className="auth">
      <VineyardArt />
      <div className="auth__card">
        <div className="auth__brand">
          <GrapesIcon size={30} />
          <span>{development.name}</span>
        </div>
        <h1 className="auth__title" tabIndex={-1}>
          {props.title}
        </h1>
        {props.subtitle && <p className="auth__subtitle">{props.subtitle}</p>}
        {props.children}
        {props.notice && (
          <p className="auth__notice">
            Somente colaboradores da {agency.name} podem se cadastrar, com o e-mail corporativo @
            {agency.staffEmailDomain}.
          </p>
        )}
        <button type="button" className="button button--ghost auth__back" onClick={() => navigate("/")}>
          Voltar ao site
        </button>
      </div>
    </main>
  );
}
