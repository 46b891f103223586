import { agency, development, formatPhone, whatsappLink } from "../config/agency";
import { useDisclosure } from "../lib/disclosure";
import { Link } from "../lib/Link";
import { footerNotice } from "./ads-disclosure/messages";
import { EmailAddress } from "./EmailAddress";
import { ChatIcon, FacebookIcon, GrapesIcon, InstagramIcon, MailIcon, MapPinIcon, PhoneIcon } from "./icons";
import "./site-chrome.css";

const place = `${agency.city} – ${agency.state}`;

/** The small way in for staff: in the top bar on wide screens, under the form on phones. */
export function AdminLink({ className }: { className: string }) {
  return (
    <Link to="/auth" className={className}>
      Acesso Administrativo
    </Link>
  );
}

/** The bar above every public page; `overlay` sits on the landing's dark hero. */
export function SiteHeader({ overlay = true }: { overlay?: boolean }) {
  return (
    <header className={overlay ? "topbar" : "topbar topbar--solid"}>
      <div className="container topbar__inner">
        <Link to="/" className="brand" aria-label={`${development.name}: página inicial`}>
          <GrapesIcon size={26} className="brand__icon" />
          <span className="brand__name">{development.name}</span>
        </Link>
        <AdminLink className="topbar__admin" />
      </div>
    </header>
  );
}

/** Contact details, social links, the broker licence and the LGPD notice. */
export function SiteFooter() {
  // The build's year (see vite.config.ts), never the visitor's clock.
  const year = import.meta.env.SITE_YEAR;
  const years = agency.yearsOfExperience;
  const disclosure = useDisclosure();
  return (
    <footer className="footer">
      <div className="container footer__grid">
        <div>
          <p className="footer__brand">{agency.name}</p>
          <p>
            Há {years} anos realizando bons negócios imobiliários em {place}.
          </p>
          <p className="footer__creci">{agency.creci}</p>
        </div>
        <div>
          <h2 className="footer__title">Contato</h2>
          <ul className="footer__list">
            <li>
              <PhoneIcon size={18} />
              <a href={`tel:${agency.phone}`}>{formatPhone(agency.phone)}</a>
            </li>
            <li>
              <ChatIcon size={18} />
              <a href={whatsappLink(agency.whatsapp)} rel="noopener" target="_blank">
                WhatsApp {formatPhone(agency.whatsapp)}
              </a>
            </li>
            <li>
              <MailIcon size={18} />
              <a href={`mailto:${agency.email}`}>
                <EmailAddress email={agency.email} />
              </a>
            </li>
            <li>
              <MapPinIcon size={18} />
              <span>{agency.address}</span>
            </li>
          </ul>
        </div>
        <div>
          <h2 className="footer__title">Redes sociais</h2>
          <ul className="footer__list">
            <li>
              <InstagramIcon size={18} />
              <a href={agency.social.instagram} rel="noopener" target="_blank">
                Instagram
              </a>
            </li>
            <li>
              <FacebookIcon size={18} />
              <a href={agency.social.facebook} rel="noopener" target="_blank">
                Facebook
              </a>
            </li>
          </ul>
        </div>
      </div>
      <div className="container footer__legal">
        <p>
          <strong>LGPD:</strong> {footerNotice(disclosure)} <Link to="/privacidade">Política de Privacidade</Link>
        </p>
        <p>
          Imagens ilustrativas. © {year} {agency.legalName} · {agency.creci}
        </p>
      </div>
    </footer>
  );
}
