// The prerendered landing's only script before the visitor does anything,
// inline in its HTML (scripts/prerender.mjs puts it there, the CSP allows it by
// its hash). When the browser is idle after load it fetches the page's real
// script without running it; it runs it, which hydrates the form, when the
// visitor starts using the form. Until then the form is a plain HTML form that
// posts and lands on /obrigado, and a visitor who only reads runs nothing else.
import { startOnIntent } from "./hydrate-on-intent";

const entry = document.querySelector<HTMLScriptElement>("script[data-entry]")?.dataset.entry;
if (entry) {
  startOnIntent(
    () => void import(/* @vite-ignore */ entry),
    () => {
      // Fetched and compiled, not run: import() then finds it ready.
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.href = entry;
      document.head.append(link);
    },
  );
}

// A link to the form ('Quero garantir minha vaga') puts the cursor in the
// form's first field once the page's script runs. Before that, this does it
// (focusing the field brings it into view), and the focus starts the script.
// A jump to the link's #target would not do: it takes the focus away.
document.addEventListener("click", (event) => {
  const link = (event.target as Partial<Element> | null)?.closest?.<HTMLAnchorElement>("a[href^='#']");
  const form = link && !event.defaultPrevented && document.getElementById(link.hash.slice(1));
  const field = form instanceof HTMLFormElement && form.querySelector<HTMLElement>("input, select, textarea");
  if (!field) return;
  event.preventDefault();
  field.focus();
});
