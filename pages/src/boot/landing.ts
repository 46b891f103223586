// The prerendered landing's only script before the visitor does anything,
// inline in its HTML (scripts/prerender.mjs puts it there, the CSP allows it by
// its hash). It fetches the page's real script, which hydrates the form, only
// when the visitor starts using the form or the browser is idle after load.
// Until then the form is a plain HTML form that posts and lands on /obrigado.
import { startOnIntentOrIdle } from "./hydrate-on-intent";

const entry = document.querySelector<HTMLScriptElement>("script[data-entry]")?.dataset.entry;
if (entry) startOnIntentOrIdle(() => void import(/* @vite-ignore */ entry));
