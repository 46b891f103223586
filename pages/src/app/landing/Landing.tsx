import { type MouseEvent, useEffect, useRef, useState } from "react";
import { AdsNotice } from "../../components/ads-disclosure/AdsNotice";
import { ArrowUpIcon, GrapesIcon, KeyIcon, MapPinIcon } from "../../components/icons";
import { AdminLink, SiteFooter, SiteHeader } from "../../components/SiteChrome";
import { VineyardArt } from "../../components/VineyardArt";
import { agency, development } from "../../config/agency";
import { FIRST_FIELD_ID, LEAD_FORM_ID, LeadForm } from "../../features/lead-form/LeadForm";
import { LeadSent } from "../../features/lead-sent/LeadSent";
import { useRouter } from "../../lib/router";
import { Gallery } from "./Gallery";
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

/** Where 'Sucesso!' takes the form's place: the same page, at an address of its own. */
export const SENT_PATH = "/obrigado";

/**
 * Who sent the lead 'Sucesso!' is showing, for the chat's greeting: kept
 * while the visitor moves around the site, gone with a reload (a reloaded
 * or plain-posted /obrigado greets without a name).
 */
let sentBy: string | null = null;

/**
 * The landing (`/`) and, in the form's place once a lead went, 'Sucesso!'
 * (`/obrigado`: the same page, prerendered at that address too, so a reload,
 * a plain form post and anyone counting conversions by address find it).
 */
export default function Landing() {
  const { path, navigate } = useRouter();
  const sent = path === SENT_PATH;
  /** The success state took the form's place on this page just now (not on arrival): its heading takes the focus. */
  const [justSent, setJustSent] = useState(false);
  const focusForm = useRef(false);

  const onSent = (name: string) => {
    sentBy = name;
    setJustSent(true);
    navigate(SENT_PATH, { inPlace: true });
  };

  // 'Enviar outro cadastro': the empty form again, the cursor in it.
  const another = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    sentBy = null;
    setJustSent(false);
    focusForm.current = true;
    navigate("/", { inPlace: true });
  };
  useEffect(() => {
    if (sent || !focusForm.current) return;
    focusForm.current = false;
    document.getElementById(FIRST_FIELD_ID)?.focus();
  }, [sent]);

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
              <p className="hero__line">Entre no grupo de pré-cadastro e conheça tudo antes do lançamento.</p>
            </div>
            <div className="hero__card" id={sent ? LEAD_FORM_ID : undefined}>
              {sent ? (
                <LeadSent name={sentBy} arrived={justSent} onAnother={another} />
              ) : (
                <>
                  <h2 className="hero__card-title">Garanta seu acesso antecipado</h2>
                  <LeadForm onSent={onSent} />
                  <AdsNotice />
                </>
              )}
            </div>
            <AdminLink className="hero__admin" />
          </div>
        </section>

        <Gallery />

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
