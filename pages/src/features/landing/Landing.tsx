import type { MouseEvent } from "react";
import { ArrowUpIcon, GrapesIcon, KeyIcon, MapPinIcon, ShieldIcon } from "../../components/icons";
import { agency, development } from "../../config/agency";
import { Link } from "../../lib/Link";
import { FIRST_FIELD_ID, LEAD_FORM_ID, LeadForm } from "../lead-form/LeadForm";
import { AdminLink, SiteFooter, SiteHeader } from "./SiteChrome";
import { VineyardArt } from "./VineyardArt";
import "./landing.css";

const years = agency.yearsOfExperience;
const place = `${agency.city} – ${agency.state}`;

const benefits = [
  {
    icon: GrapesIcon,
    title: "Vida entre vinhedos",
    text: `Casas cercadas por parreirais, com a paisagem e a calma da ${development.winery} logo ao lado.`,
  },
  {
    icon: KeyIcon,
    title: "Condições de pré-lançamento",
    text: "Quem está no grupo conhece plantas e valores antes de todos e escolhe primeiro, com condições exclusivas.",
  },
  {
    icon: MapPinIcon,
    title: `${years} anos de experiência`,
    text: `A ${agency.name} atua há ${years} anos em ${agency.city} e acompanha você da escolha à entrega das chaves.`,
  },
];

/**
 * Scrolls smoothly to the form and puts the cursor in its first field. Before
 * the page's script has run, the link's own `#cadastro` jumps to the form.
 */
function goToForm(event: MouseEvent<HTMLAnchorElement>) {
  event.preventDefault();
  const form = document.getElementById(LEAD_FORM_ID);
  const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  form?.scrollIntoView({ behavior: reduceMotion ? "auto" : "smooth", block: "center" });
  document.getElementById(FIRST_FIELD_ID)?.focus({ preventScroll: true });
}

export default function Landing() {
  return (
    <>
      <SiteHeader />
      <main id="conteudo">
        <section className="hero" aria-labelledby="hero-title">
          <VineyardArt />
          <div className="container hero__grid">
            <div className="hero__copy">
              <p className="eyebrow">Pré-lançamento exclusivo · {place}</p>
              <h1 id="hero-title" tabIndex={-1}>
                Sua casa ao lado de uma vinícola
              </h1>
              <p className="hero__lead">
                O {development.name} é um {development.kind.toLowerCase()} vizinho à {development.winery}, entre
                parreirais e o ar puro da serra catarinense. Entre para o grupo de pré-cadastro e conheça tudo antes do
                lançamento oficial.
              </p>
              <p className="hero__scarcity">
                <span className="pulse" aria-hidden="true" />
                Vagas limitadas no grupo de pré-cadastro
              </p>
            </div>
            <div className="hero__card">
              <h2 className="hero__card-title">Garanta seu acesso antecipado</h2>
              <p className="hero__card-text">Receba em primeira mão plantas, valores e condições de lançamento.</p>
              <LeadForm />
              <p className="privacy-note">
                <ShieldIcon size={16} />
                <span>
                  Usamos seus dados só para falar com você sobre o {development.name}.{" "}
                  <Link to="/privacidade">Política de Privacidade</Link>
                </span>
              </p>
            </div>
            <AdminLink className="hero__admin" />
          </div>
        </section>

        <section className="benefits" aria-labelledby="benefits-title">
          <div className="container">
            <p className="eyebrow eyebrow--dark">Por que entrar agora</p>
            <h2 id="benefits-title">Vantagens de quem está no pré-cadastro</h2>
            <ul className="benefits__list">
              {benefits.map(({ icon: Icon, title, text }) => (
                <li className="benefit" key={title}>
                  <span className="benefit__icon">
                    <Icon size={28} />
                  </span>
                  <h3>{title}</h3>
                  <p>{text}</p>
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section className="closing" aria-labelledby="closing-title">
          <div className="container closing__inner">
            <h2 id="closing-title">As vagas do pré-cadastro são limitadas</h2>
            <p>Deixe seu contato agora e seja avisado antes do lançamento oficial do {development.name}.</p>
            <a href={`#${LEAD_FORM_ID}`} className="button button--gold" onClick={goToForm}>
              <ArrowUpIcon size={20} />
              Quero garantir minha vaga
            </a>
          </div>
        </section>
      </main>
      <SiteFooter />
    </>
  );
}
