import { LEAD_PATH } from "../support/leads";
import { expect, type Page, test } from "./fixtures";
import {
  asNewVisitor,
  fillLeadForm,
  holdRequests,
  openLanding,
  LEAD_SUBMIT as SUBMIT,
  screenshot,
  sql,
  uniquePerson,
} from "./support";

/** A browser that is never idle: only the visitor's use of the form makes the landing fetch its script. */
async function neverIdle(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.requestIdleCallback = () => 0;
  });
}

/** Holds every script on its way to the page until `release()`; `requested` lists the paths asked for. */
function holdScripts(page: Page) {
  return holdRequests(page, /\/assets\/[\w-]+\.js$/);
}

/** Clicks the closing call where it sits, below the form's view, and expects the cursor in the form's first field, in view. */
async function followClosingCall(page: Page): Promise<void> {
  const closing = page.getByRole("link", { name: "Quero garantir minha vaga" });
  await closing.scrollIntoViewIfNeeded();
  await expect(page.getByLabel("Nome completo")).not.toBeInViewport();
  await closing.click();
  await expect(page.getByLabel("Nome completo")).toBeFocused();
  await expect(page.getByLabel("Nome completo")).toBeInViewport();
}

/** 'Sucesso!', in the form's place once a lead went. */
const sentState = (page: Page) => page.getByRole("heading", { name: "Sucesso!" });

/** `49999998888` as the form shows it once its script runs: `(49) 99999-8888`. */
const formatted = (digits: string) => `(${digits.slice(0, 2)}) ${digits.slice(2, 7)}-${digits.slice(7)}`;

test.describe("landing page", () => {
  test.beforeEach(async ({ page }) => {
    await asNewVisitor(page);
  });

  test("shows the hero, the form, the benefits, the closing call and the footer", async ({ page }, testInfo) => {
    const consoleErrors: string[] = [];
    page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
    await openLanding(page);
    await expect(page.locator("html")).toHaveAttribute("lang", "pt-BR");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByLabel("Nome completo")).toBeVisible();
    await expect(page.getByLabel("E-mail")).toHaveAttribute("type", "email");
    await expect(page.getByLabel("WhatsApp com DDD")).toHaveAttribute("inputmode", "tel");
    await expect(page.getByRole("button", { name: SUBMIT })).toBeVisible();
    await expect(page.getByRole("link", { name: "Acesso Administrativo" })).toHaveAttribute("href", "/auth");
    await expect(page.getByText(/vagas do pré-cadastro são limitadas/i).first()).toBeVisible();
    await expect(page.locator(".benefit")).toHaveCount(3);
    await expect(page.getByText(/10 anos/).first()).toBeVisible();
    await expect(page.getByText(/vinícola/i).first()).toBeVisible();
    const footer = page.locator("footer");
    await expect(footer.getByText(/CRECI/).first()).toBeVisible();
    await expect(footer.getByText(/LGPD/)).toBeVisible();
    await expect(footer.getByRole("link", { name: "Instagram" })).toBeVisible();
    await expect(footer.getByRole("link", { name: /Política de Privacidade/ })).toHaveAttribute("href", "/privacidade");
    expect(consoleErrors).toEqual([]);
    await screenshot(page, testInfo, "landing");
  });

  test("formats the WhatsApp number as it is typed", { tag: "@one-screen" }, async ({ page }) => {
    await openLanding(page);
    const field = page.getByLabel("WhatsApp com DDD");
    await field.pressSequentially("49999998888");
    await expect(field).toHaveValue("(49) 99999-8888");
  });

  test(
    "keeps a number typed with its country code whole, and sends it as typed",
    { tag: "@one-screen" },
    async ({ page }, testInfo) => {
      const person = uniquePerson(testInfo);
      await openLanding(page);
      await page.getByLabel("Nome completo").fill(person.name);
      await page.getByLabel("E-mail").fill(person.email);
      const field = page.getByLabel("WhatsApp com DDD");
      await field.pressSequentially(`55 ${person.whatsappDigits}`);
      await expect(field).toHaveValue(`+55 ${formatted(person.whatsappDigits)}`);
      await page.getByRole("button", { name: SUBMIT }).click();
      await expect(sentState(page)).toBeVisible();
      const rows = await sql("SELECT whatsapp FROM leads WHERE email = ?1", person.email);
      expect(rows).toEqual([{ whatsapp: `+55${person.whatsappDigits}` }]);
    },
  );

  test(
    "says an error the form cannot pin on a field through a live region that arrives empty, so screen readers announce it",
    { tag: "@one-screen" },
    async ({ page }, testInfo) => {
      // A live region that enters the page already holding its words may go
      // unannounced; one whose words change is announced. Each toast's region
      // is recorded with the text it had when it was added.
      await openLanding(page);
      await page.evaluate(() => {
        const arrivals: { role: string | null; text: string }[] = [];
        Object.assign(window, { toastArrivals: arrivals });
        new MutationObserver((records) => {
          for (const record of records) {
            for (const node of record.addedNodes) {
              if (!(node instanceof HTMLElement)) continue;
              for (const region of node.querySelectorAll(".toast [aria-live], .toast[aria-live]")) {
                arrivals.push({ role: region.getAttribute("role"), text: region.textContent ?? "" });
              }
              if (node.matches(".toast[aria-live], .toast [aria-live]")) {
                arrivals.push({ role: node.getAttribute("role"), text: node.textContent ?? "" });
              }
            }
          }
        }).observe(document.body, { childList: true, subtree: true });
      });
      await page.route(`**${LEAD_PATH}`, (route) => route.abort("connectionrefused"));
      await fillLeadForm(page, uniquePerson(testInfo));
      await page.getByRole("button", { name: SUBMIT }).click();
      await expect(page.getByRole("alert").filter({ hasText: "Erro" })).toBeVisible();
      const arrivals = await page.evaluate(() => (window as unknown as { toastArrivals: unknown[] }).toastArrivals);
      expect(arrivals).toEqual([{ role: "alert", text: "" }]);
    },
  );

  test("keeps what was typed while the visitor reads the privacy notice and comes back", async ({ page }, testInfo) => {
    const person = uniquePerson(testInfo);
    await openLanding(page);
    await fillLeadForm(page, person);
    await page.getByRole("link", { name: "Política de Privacidade" }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: "Política de Privacidade" })).toBeVisible();
    await page.goBack();
    await expect(page.getByLabel("Nome completo")).toHaveValue(person.name);
    await expect(page.getByLabel("E-mail")).toHaveValue(person.email);
    await expect(page.getByLabel("WhatsApp com DDD")).toHaveValue(formatted(person.whatsappDigits));
    // And once sent, the form that comes back after the notice is empty.
    await page.getByRole("button", { name: SUBMIT }).click();
    await expect(sentState(page)).toBeVisible();
    await page.getByRole("link", { name: "Política de Privacidade" }).first().click();
    await page.getByRole("link", { name: /página inicial/ }).click();
    await expect(page.getByLabel("Nome completo")).toHaveValue("");
  });

  test("lets the visitor fix one digit in the middle of the number", { tag: "@one-screen" }, async ({ page }) => {
    await openLanding(page);
    const field = page.getByLabel("WhatsApp com DDD");
    await field.pressSequentially("49999998888");
    // The caret just after the dash: Backspace takes the digit before it, and the caret stays there.
    for (let i = 0; i < 4; i++) await field.press("ArrowLeft");
    await field.press("Backspace");
    await expect(field).toHaveValue("(49) 9999-8888");
    await field.press("7");
    await expect(field).toHaveValue("(49) 99997-8888");
    expect(await field.evaluate((input: HTMLInputElement) => input.selectionStart)).toBe("(49) 99997".length);

    // The new digit typed first, into the whole number: refused, since it
    // would push the last digit out unseen. The caret stays where it was.
    await field.press("1");
    await expect(field).toHaveValue("(49) 99997-8888");
    expect(await field.evaluate((input: HTMLInputElement) => input.selectionStart)).toBe("(49) 99997".length);
    await field.press("Backspace");
    await field.press("1");
    await expect(field).toHaveValue("(49) 99991-8888");
  });

  test(
    "keeps a fix typed while the lead was on its way, and sends it as the lead's correction",
    { tag: "@one-screen" },
    async ({ page }, testInfo) => {
      const person = uniquePerson(testInfo);
      const typo = person.email.replace("@", "@gmial.");
      await openLanding(page);
      await fillLeadForm(page, { ...person, email: typo });
      const { release } = await holdRequests(page, `**${LEAD_PATH}`);
      await page.getByRole("button", { name: SUBMIT }).click();
      await expect(page.getByRole("button", { name: "Enviando..." })).toBeVisible();
      await page.getByLabel("E-mail").fill(person.email);
      release();
      await expect(page.getByRole("status").filter({ hasText: "Sucesso!" })).toBeVisible();
      await expect(page.getByLabel("E-mail")).toHaveValue(person.email);
      await expect(page.getByLabel("Nome completo")).toHaveValue(person.name);
      await expect(page.getByRole("alert")).toHaveText(
        "Você alterou seus dados durante o envio. Envie de novo para atualizá-los.",
      );
      await screenshot(page, testInfo, "landing-changed-while-sending");

      await page.unroute(`**${LEAD_PATH}`);
      const corrected = page.waitForResponse((r) => r.url().endsWith(LEAD_PATH) && r.status() === 200);
      await page.getByRole("button", { name: SUBMIT }).click();
      await corrected;
      await expect(sentState(page)).toBeVisible();
      expect(await sql("SELECT email FROM leads WHERE whatsapp = ?1", `+55${person.whatsappDigits}`)).toEqual([
        { email: person.email },
      ]);
    },
  );

  test("sends a lead: 'Sucesso!' in the form's place, the lead in D1 with its campaign", async ({ page }, testInfo) => {
    const person = uniquePerson(testInfo);
    await openLanding(page, "/?utm_source=instagram&utm_campaign=pre-lancamento&gclid=abc123");
    await fillLeadForm(page, person);
    await page.getByRole("button", { name: SUBMIT }).click();

    await expect(sentState(page)).toBeVisible();
    await expect(page.getByText("Seus dados foram enviados. Em breve entraremos em contato.")).toBeVisible();
    await expect(page.getByLabel("Nome completo")).toHaveCount(0);
    await expect(page.getByRole("button", { name: SUBMIT })).toHaveCount(0);
    await screenshot(page, testInfo, "landing-success");

    const rows = await sql(
      "SELECT name, whatsapp, origem, utm_campaign, gclid, jetimob_enviado FROM leads WHERE email = ?1",
      person.email,
    );
    expect(rows).toEqual([
      {
        name: person.name,
        whatsapp: `+55${person.whatsappDigits}`,
        origem: "instagram",
        utm_campaign: "pre-lancamento",
        gclid: "abc123",
        jetimob_enviado: 0,
      },
    ]);
  });

  test("asks about a typo in the e-mail, sends the address accepted, and then offers a chat with the team", async ({
    page,
  }, testInfo) => {
    const person = uniquePerson(testInfo);
    // Each test's own address (the phone's and the desktop's leads may share a site), at a typo of gmail.com.
    const local = person.email.split("@")[0];
    await openLanding(page);
    await fillLeadForm(page, { ...person, email: `${local}@gmial.com` });
    const suggestion = page.getByRole("status").filter({ hasText: "Você quis dizer" });
    await expect(suggestion).toContainText(`Você quis dizer ${local}@gmail.com?`);
    await expect(page.getByLabel("WhatsApp com DDD")).toBeFocused();
    await screenshot(page, testInfo, "landing-email-suggestion");
    await page.getByRole("button", { name: "Sim, corrigir" }).click();
    await expect(page.getByLabel("E-mail")).toHaveValue(`${local}@gmail.com`);
    await expect(suggestion).toHaveCount(0);

    await page.getByRole("button", { name: SUBMIT }).click();
    await expect(sentState(page)).toBeVisible();
    const chat = page.getByRole("link", { name: "Falar com a equipe no WhatsApp" });
    await expect(chat).toHaveAttribute(
      "href",
      `https://wa.me/5549999990000?text=${encodeURIComponent(`Olá! Sou ${person.name}, acabei de me cadastrar no pré-lançamento do Recanto das Videiras e gostaria de saber mais.`)}`,
    );
    await expect(chat).toHaveAttribute("target", "_blank");
    await screenshot(page, testInfo, "landing-sent-chat");
    expect(await sql("SELECT email FROM leads WHERE whatsapp = ?1", `+55${person.whatsappDigits}`)).toEqual([
      { email: `${local}@gmail.com` },
    ]);
  });

  test(
    "asks for every field when one is empty, beside the field alone, even without the browser's own checks",
    { tag: "@one-screen" },
    async ({ page }, testInfo) => {
      let posted = false;
      page.on("request", (r) => {
        if (r.url().includes(LEAD_PATH)) posted = true;
      });
      await openLanding(page);
      await page.locator("form input[required]").evaluateAll((inputs) => {
        for (const input of inputs) input.removeAttribute("required");
      });
      await page.getByLabel("Nome completo").fill("Ana");
      await page.getByRole("button", { name: SUBMIT }).click();
      await expect(page.getByLabel("E-mail")).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByLabel("E-mail")).toBeFocused();
      await expect(page.getByLabel("E-mail")).toHaveAccessibleDescription("Campo obrigatório.");
      await expect(page.getByLabel("WhatsApp com DDD")).toHaveAccessibleDescription("Campo obrigatório.");
      // What no field explains is for the toast; here every field explains itself.
      await expect(page.locator(".toast")).toHaveCount(0);
      expect(posted).toBe(false);
      await screenshot(page, testInfo, "landing-required");
    },
  );

  test(
    "shows the server's reason beside the field it rejected, and no generic toast",
    { tag: "@one-screen" },
    async ({ page }, testInfo) => {
      const person = uniquePerson(testInfo);
      await openLanding(page);
      await fillLeadForm(page, { ...person, whatsappDigits: "23999998888" });
      // Each time the WhatsApp field takes focus from here on, what describes it then.
      await page.evaluate(() => {
        const seen: string[] = [];
        Object.assign(window, { describedAtFocus: seen });
        document.addEventListener("focusin", (event) => {
          const field = event.target as HTMLElement;
          if (field.id === "lead-whatsapp") seen.push(field.getAttribute("aria-describedby") ?? "none");
        });
      });
      const answered = page.waitForResponse((r) => r.url().endsWith(LEAD_PATH));
      await page.getByRole("button", { name: SUBMIT }).click();
      expect((await answered).status()).toBe(422);
      const whatsapp = page.getByLabel("WhatsApp com DDD");
      await expect(whatsapp).toHaveAttribute("aria-invalid", "true");
      await expect(whatsapp).toHaveAccessibleDescription(/DDD inválido/);
      await expect(whatsapp).toBeFocused();
      // A screen reader reads a field as focus lands on it: its reason must be there by then.
      expect(await page.evaluate(() => (window as unknown as { describedAtFocus: string[] }).describedAtFocus)).toEqual(
        ["lead-whatsapp-error"],
      );
      await expect(page.locator(".toast")).toHaveCount(0);
      await screenshot(page, testInfo, "landing-field-error");
      expect(await sql("SELECT id FROM leads WHERE email = ?1", person.email)).toEqual([]);
    },
  );

  test(
    "says under the button what failed, after the toast has gone, and gives the button the focus to try again",
    { tag: "@one-screen" },
    async ({ page }, testInfo) => {
      await page.clock.install();
      await openLanding(page);
      await page.route(`**${LEAD_PATH}`, (route) =>
        route.fulfill({ status: 500, contentType: "application/json", body: '{"success":false}' }),
      );
      await fillLeadForm(page, uniquePerson(testInfo));
      await page.getByRole("button", { name: SUBMIT }).click();
      const failed = page
        .getByRole("alert")
        .filter({ hasText: "Seus dados não foram enviados. Tente novamente em instantes." });
      await expect(failed).toBeVisible();
      await page.clock.runFor(7_000);
      await expect(page.locator(".toast")).toHaveCount(0);
      await expect(failed).toBeVisible();
      await expect(page.getByRole("button", { name: SUBMIT })).toBeFocused();
    },
  );

  test(
    "gives up waiting for an answer after 20 seconds, says the lead did not go, and lets the visitor try again",
    { tag: "@one-screen" },
    async ({ page }, testInfo) => {
      await page.clock.install();
      await openLanding(page);
      const person = uniquePerson(testInfo);
      await fillLeadForm(page, person);
      // A weak phone network: the request is on its way and nothing comes back.
      const { release } = await holdRequests(page, `**${LEAD_PATH}`);
      // From here the page's time moves only by runFor: a slow machine's real
      // seconds between the press and the checks do not count toward the 20.
      await page.clock.pauseAt(Date.now() + 1_000);
      await page.getByRole("button", { name: SUBMIT }).focus();
      await page.keyboard.press("Enter");
      // On its way, the button is off and says so, and keeps the keyboard's place
      // once the page is drawn again (its frames, in the page's paused time).
      const sending = page.getByRole("button", { name: "Enviando..." });
      await expect(sending).toBeDisabled();
      await page.clock.runFor(100);
      await expect(sending).toBeFocused();
      await page.clock.runFor(18_900);
      await expect(sending).toBeDisabled();
      await page.clock.runFor(2_000);
      await expect(
        page.getByRole("alert").filter({ hasText: "Seus dados não foram enviados: sem conexão com o servidor." }),
      ).toBeVisible();
      const button = page.getByRole("button", { name: SUBMIT });
      await expect(button).toBeEnabled();
      await expect(button).toBeFocused();
      await expect(page.getByLabel("E-mail")).toHaveValue(person.email);
      await screenshot(page, testInfo, "landing-timed-out");
      release();
      await page.unroute(`**${LEAD_PATH}`);
    },
  );

  for (const [what, failure] of [
    ["is down", "abort"],
    ["answers with an error", "500"],
  ] as const) {
    test(`shows the destructive toast when the server ${what}, and keeps what was typed`, async ({
      page,
    }, testInfo) => {
      const person = uniquePerson(testInfo);
      await page.route(`**${LEAD_PATH}`, (route) =>
        failure === "abort"
          ? route.abort("connectionrefused")
          : route.fulfill({ status: 500, contentType: "application/json", body: '{"success":false}' }),
      );
      await openLanding(page);
      await fillLeadForm(page, person);
      await page.getByRole("button", { name: SUBMIT }).click();
      const toast = page.getByRole("alert").filter({ hasText: "Erro" });
      await expect(toast).toContainText("Houve um erro ao enviar seus dados. Tente novamente.");
      await expect(page.getByLabel("Nome completo")).toHaveValue(person.name);
      await expect(page.getByRole("button", { name: SUBMIT })).toBeEnabled();
      if (failure === "500") await screenshot(page, testInfo, "landing-error");
    });
  }

  test("disables the button with a busy label while sending", { tag: "@one-screen" }, async ({ page }, testInfo) => {
    const person = uniquePerson(testInfo);
    const { release } = await holdRequests(page, `**${LEAD_PATH}`);
    await openLanding(page);
    await fillLeadForm(page, person);
    await page.getByRole("button", { name: SUBMIT }).click();
    await expect(page.getByRole("button", { name: "Enviando..." })).toBeDisabled();
    release();
    await expect(sentState(page)).toBeVisible();
  });

  test("the closing call scrolls smoothly to the form and focuses its first field", async ({ page }) => {
    await openLanding(page);
    await followClosingCall(page);
  });

  test("paints the hero and the form before any script runs", async ({ browser, baseURL }, testInfo) => {
    const context = await browser.newContext({ ...testInfo.project.use, baseURL, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByLabel("Nome completo")).toBeVisible();
    await expect(page.getByLabel("E-mail")).toBeVisible();
    await expect(page.getByLabel("WhatsApp com DDD")).toBeVisible();
    await expect(page.getByRole("button", { name: SUBMIT })).toBeVisible();
    // The closing call is a link to the form: it leads there without a script too.
    await page.getByRole("link", { name: "Quero garantir minha vaga" }).click();
    await expect(page).toHaveURL(/#cadastro$/);
    await expect(page.getByLabel("Nome completo")).toBeInViewport();
    await context.close();
  });
});

test.describe("before the page's script arrives", () => {
  test.beforeEach(async ({ page }) => {
    await asNewVisitor(page);
  });

  test("nothing but the HTML, its font and the icon load until the visitor focuses the form, which hydrates it", async ({
    page,
  }) => {
    await neverIdle(page);
    const fetched: string[] = [];
    page.on("request", (r) => fetched.push(new URL(r.url()).pathname));
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    expect(fetched.filter((p) => p.endsWith(".js") || p.endsWith(".css"))).toEqual([]);
    // The display font cut to the landing's characters, never the whole file.
    expect(fetched.filter((p) => p.endsWith(".woff2"))).toEqual([
      expect.stringMatching(/^\/assets\/fraunces-landing-600-[\da-f]+\.woff2$/),
    ]);
    await expect(page.locator("html")).not.toHaveAttribute("data-hydrated", "true");

    await page.getByLabel("Nome completo").focus();
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    expect(fetched.filter((p) => p.endsWith(".js"))).toEqual([expect.stringMatching(/^\/assets\/index-[\w-]+\.js$/)]);
  });

  test("when the browser is idle the script is fetched, and it runs only when the visitor touches the form", async ({
    page,
  }) => {
    const scripts: string[] = [];
    page.on("requestfinished", (r) => {
      const path = new URL(r.url()).pathname;
      if (path.endsWith(".js")) scripts.push(path);
    });
    await page.goto("/");
    await expect.poll(() => scripts).toEqual([expect.stringMatching(/^\/assets\/index-[\w-]+\.js$/)]);
    // Fetched, not run: a reader's phone does no more work than that. Once the page holds the
    // whole script and the browser is idle again, a script that ran would have hydrated the form:
    // its render and effects are tasks the browser runs before it calls an idle callback.
    await page.evaluate(async (path) => {
      await new Promise<void>((held) =>
        new PerformanceObserver((list, observer) => {
          if (!list.getEntries().some((e) => new URL(e.name).pathname === path)) return;
          observer.disconnect();
          held();
        }).observe({ type: "resource", buffered: true }),
      );
      await new Promise((idle) => requestIdleCallback(idle));
    }, scripts[0] ?? "");
    await expect(page.locator("html")).not.toHaveAttribute("data-hydrated", "true");

    await page.getByLabel("E-mail").focus();
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
    expect(scripts).toHaveLength(1);
  });

  test("the closing call leads to the form and puts the cursor in it before the script runs, which starts it", async ({
    page,
  }) => {
    await neverIdle(page);
    await page.goto("/");
    await followClosingCall(page);
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  });

  test(
    "keeps what the visitor typed while the script was on its way, and sends it once hydrated",
    { tag: "@one-screen" },
    async ({ page }, testInfo) => {
      const person = uniquePerson(testInfo);
      const scripts = await holdScripts(page);
      await page.goto("/");
      await page.getByLabel("Nome completo").fill(person.name);
      await page.getByLabel("E-mail").fill(person.email);
      await page.getByLabel("WhatsApp com DDD").fill(person.whatsappDigits);
      // The first focus asked for the script, which is still held.
      await expect.poll(() => scripts.requested.length).toBe(1);
      await expect(page.locator("html")).not.toHaveAttribute("data-hydrated", "true");

      scripts.release();
      await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
      await expect(page.getByLabel("Nome completo")).toHaveValue(person.name);
      await expect(page.getByLabel("E-mail")).toHaveValue(person.email);
      await expect(page.getByLabel("WhatsApp com DDD")).toHaveValue(formatted(person.whatsappDigits));

      await page.getByRole("button", { name: SUBMIT }).click();
      await expect(sentState(page)).toBeVisible();
      await expect(page.getByText("Seus dados foram enviados. Em breve entraremos em contato.")).toBeVisible();
      expect(await sql("SELECT name, whatsapp FROM leads WHERE email = ?1", person.email)).toEqual([
        { name: person.name, whatsapp: `+55${person.whatsappDigits}` },
      ]);
    },
  );

  test(
    "a visitor whose clock is in another year than the build's keeps the field being typed in when the script arrives",
    { tag: "@one-screen" },
    async ({ page }, testInfo) => {
      // The page was written at build time; a phone in January of the next
      // year must not make React throw it away and build it again, which
      // drops the field being typed in (and with it the phone's keyboard).
      await page.clock.setFixedTime(new Date(new Date().getFullYear() + 1, 0, 2, 10));
      const person = uniquePerson(testInfo);
      const scripts = await holdScripts(page);
      await page.goto("/");
      const name = page.getByLabel("Nome completo");
      await name.fill(person.name);
      await name.evaluate((field) => field.setAttribute("data-typed-before-script", ""));
      await expect.poll(() => scripts.requested.length).toBe(1);

      scripts.release();
      await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
      await expect(page.locator("[data-typed-before-script]")).toHaveCount(1);
      await expect(name).toBeFocused();
      await expect(name).toHaveValue(person.name);
      await page.keyboard.type(" Jr");
      await expect(name).toHaveValue(`${person.name} Jr`);
    },
  );

  test(
    "a submit before the script arrives is the plain form post: 303 to /obrigado, with the page's campaign",
    { tag: "@one-screen" },
    async ({ page }, testInfo) => {
      const person = uniquePerson(testInfo);
      const scripts = await holdScripts(page);
      try {
        await page.goto("/?utm_source=instagram&utm_campaign=pre-lancamento&gclid=abc123");
        await fillLeadForm(page, person, { script: false });
        await expect.poll(() => scripts.requested.length).toBe(1);
        const [answer] = await Promise.all([
          page.waitForResponse((r) => new URL(r.url()).pathname === LEAD_PATH),
          page.getByRole("button", { name: SUBMIT }).click(),
        ]);
        expect(answer.request().method()).toBe("POST");
        expect(answer.status()).toBe(303);
        expect(new URL(answer.headers().location ?? "", answer.url()).pathname).toBe("/obrigado");
        await expect(page).toHaveURL(/\/obrigado$/);
        await expect(sentState(page)).toBeVisible();
        expect(
          await sql("SELECT whatsapp, origem, utm_campaign, gclid, page_url FROM leads WHERE email = ?1", person.email),
        ).toEqual([
          {
            whatsapp: `+55${person.whatsappDigits}`,
            origem: "instagram",
            utm_campaign: "pre-lancamento",
            gclid: "abc123",
            page_url: new URL("/?utm_source=instagram&utm_campaign=pre-lancamento&gclid=abc123", page.url()).href,
          },
        ]);
      } finally {
        scripts.release();
      }
    },
  );

  test(
    "a refused plain post says which field, and 'Tentar novamente' brings back the form as typed",
    { tag: "@one-screen" },
    async ({ page }, testInfo) => {
      const person = uniquePerson(testInfo);
      const scripts = await holdScripts(page);
      try {
        await page.goto("/");
        await fillLeadForm(page, { ...person, whatsappDigits: "23999998888" }, { script: false });
        await page.getByRole("button", { name: SUBMIT }).click();
        await expect(page).toHaveURL(/\/cadastro-nao-enviado\?motivo=whatsapp$/);
      } finally {
        scripts.release();
      }
      await expect(page.getByRole("heading", { level: 1, name: "Seu cadastro não foi enviado" })).toBeVisible();
      await expect(page.getByText("Informe o WhatsApp com DDD, como (49) 99999-9999.")).toBeVisible();
      await screenshot(page, testInfo, "form-failed-reason");
      await page.getByRole("link", { name: "Tentar novamente" }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByLabel("Nome completo")).toHaveValue(person.name);
      await expect(page.getByLabel("E-mail")).toHaveValue(person.email);
      expect(await sql("SELECT id FROM leads WHERE email = ?1", person.email)).toEqual([]);
    },
  );

  test(
    "keeps the ad's campaign when the visitor reads the privacy notice first and comes back by the logo",
    { tag: "@one-screen" },
    async ({ page }, testInfo) => {
      const person = uniquePerson(testInfo);
      await page.goto("/?utm_source=instagram&utm_campaign=pre-lancamento");
      // Before touching the form, so the landing's script has not run.
      await page.getByRole("link", { name: "Política de Privacidade" }).first().click();
      await expect(page).toHaveURL(/\/privacidade$/);
      await page.getByRole("link", { name: /página inicial/ }).click();
      await expect(page).toHaveURL(/\/$/);
      await fillLeadForm(page, person);
      await page.getByRole("button", { name: SUBMIT }).click();
      await expect(sentState(page)).toBeVisible();
      expect(await sql("SELECT origem, utm_campaign FROM leads WHERE email = ?1", person.email)).toEqual([
        { origem: "instagram", utm_campaign: "pre-lancamento" },
      ]);
    },
  );
});

test.describe("without JavaScript", () => {
  test(
    "the form still sends the lead and lands on a thank-you page",
    { tag: "@one-screen" },
    async ({ browser, baseURL }, testInfo) => {
      const context = await browser.newContext({ ...testInfo.project.use, baseURL, javaScriptEnabled: false });
      const page = await context.newPage();
      const person = uniquePerson(testInfo);
      await asNewVisitor(page);
      await page.goto("/");
      await fillLeadForm(page, person, { script: false });
      await page.getByRole("button", { name: SUBMIT }).click();
      await expect(page).toHaveURL(/\/obrigado$/);
      await expect(sentState(page)).toBeVisible();
      await expect(page.getByRole("link", { name: "Falar com a equipe no WhatsApp" })).toHaveAttribute(
        "href",
        /^https:\/\/wa\.me\/5549999990000\?text=Ol%C3%A1!%20Acabei%20de%20me%20cadastrar/,
      );
      await screenshot(page, testInfo, "form-sent-without-javascript");
      expect(await sql("SELECT whatsapp FROM leads WHERE email = ?1", person.email)).toEqual([
        { whatsapp: `+55${person.whatsappDigits}` },
      ]);
      await context.close();
    },
  );
});

const PUBLIC_PAGES = ["/", "/privacidade", "/obrigado", "/cadastro-nao-enviado"];

/**
 * The visible runs of text that end past `width`. A phone widens its layout
 * to fit a line that does not, and shrinks the whole page to match: every
 * visible run of text must end inside the width the page was laid out for.
 */
function textPastEdge(page: Page, width: number): Promise<string[]> {
  return page.evaluate((edge) => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      if (!text || !node.parentElement?.checkVisibility()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const { right, width } = range.getBoundingClientRect();
      if (width > 1 && right > edge + 0.5) out.push(text);
    }
    return out;
  }, width);
}

test("every public page reads at 320 px without scrolling sideways", async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== "phone", "a phone's width");
  await page.setViewportSize({ width: 320, height: 640 });
  for (const path of PUBLIC_PAGES) {
    await page.goto(path);
    expect(await textPastEdge(page, 320), path).toEqual([]);
  }
  await screenshot(page, testInfo, "not-sent-320");
});

test("with the browser's text at 200%, every public page still reads at 360 px without scrolling sideways", async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name !== "phone", "a phone's width");
  await page.setViewportSize({ width: 360, height: 740 });
  for (const path of PUBLIC_PAGES) {
    await page.goto(path);
    await page.evaluate(() => {
      document.documentElement.style.fontSize = "200%";
    });
    expect(await textPastEdge(page, 360), path).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(360);
    if (path === "/obrigado") await screenshot(page, testInfo, "form-sent-large-text");
  }
  await screenshot(page, testInfo, "not-sent-large-text");
});

test.describe("privacy page", () => {
  test("explains the use of the data with the agency's details", async ({ page }, testInfo) => {
    await page.goto("/privacidade");
    await expect(page.getByRole("heading", { level: 1, name: "Política de Privacidade" })).toBeVisible();
    await expect(page.getByText(/13\.709\/2018/).first()).toBeVisible();
    await expect(page.getByText(/CRECI/).first()).toBeVisible();
    // Every service the data passes through, and what the site itself keeps of a visit.
    const main = page.getByRole("main");
    for (const told of [/Cloudflare, que hospeda o site/, /Jetimob/, /serviço de e-mail/, /canal de mensagens/]) {
      await expect(main.getByRole("listitem").filter({ hasText: told })).toHaveCount(1);
    }
    // Every click id the lead keeps, and the optional answers, which go to the CRM too.
    for (const id of ["gclid, gbraid e wbraid", "fbclid", "msclkid", "ttclid"]) await expect(main).toContainText(id);
    await expect(main).toContainText("as respostas ficam junto do seu cadastro e vão também para o nosso CRM");
    await expect(main).toContainText("essa contagem é apagada em cerca de um dia");
    await expect(main).toContainText("basta enviar o formulário de novo com o mesmo e-mail ou o mesmo WhatsApp");
    await screenshot(page, testInfo, "privacy");
  });
});

test.describe("unknown route", () => {
  test("shows the 404 page, logs the path and leads home", async ({ page }, testInfo) => {
    const logged: string[] = [];
    page.on("console", (m) => logged.push(m.text()));
    const response = await page.goto("/pagina-que-nao-existe");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "404" })).toBeVisible();
    await expect(page.getByText("Oops! Page not found")).toBeVisible();
    await expect.poll(() => logged.some((l) => l.includes("/pagina-que-nao-existe"))).toBe(true);
    await screenshot(page, testInfo, "not-found");
    await page.getByRole("link", { name: "Return to Home" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("button", { name: SUBMIT })).toBeVisible();
  });
});
