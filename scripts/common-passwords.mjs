// Writes pages/public/senhas-comuns.txt: the passwords staff may not choose,
// one per line, lower-case, sorted byte by byte (the worker binary-searches
// it, through the ASSETS binding, on sign-up, reset and change of password).
//
//   node scripts/common-passwords.mjs [--check]
//
// The list: the 10,000 most common passwords of at least 6 characters (the
// shortest a staff password may be) from the ranked list zxcvbn-ts ships
// (@zxcvbn-ts/language-common, built from leaked-password corpora), plus
// passwords common in Brazil and the names of this agency and development
// with the usual endings. With --check it only says whether the file is current.
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { dictionary } from "@zxcvbn-ts/language-common";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const LIST_FILE = join(root, "pages/public/senhas-comuns.txt");
const MIN_CHARS = 6;
const FROM_RANKED_LIST = 10_000;

/** Passwords people in Brazil choose often that an English-language corpus ranks low. */
const BRAZILIAN = [
  "senha",
  "senha1",
  "senha12",
  "senha123",
  "senha1234",
  "senha12345",
  "minhasenha",
  "mudar123",
  "mudar@123",
  "123mudar",
  "mudarsenha",
  "trocar123",
  "brasil",
  "brasil123",
  "brasil2026",
  "flamengo",
  "flamengo123",
  "corinthians",
  "palmeiras",
  "saopaulo",
  "gremio",
  "internacional",
  "cruzeiro",
  "atletico",
  "botafogo",
  "fluminense",
  "vasco",
  "vascodagama",
  "santos",
  "chapecoense",
  "avai",
  "figueirense",
  "criciuma",
  "jesus",
  "jesus123",
  "jesuscristo",
  "deusefiel",
  "deus123",
  "gloriaadeus",
  "amor123",
  "amorzinho",
  "meuamor",
  "teamo",
  "teamo123",
  "familia",
  "familia123",
  "felicidade",
  "saudade",
  "princesa",
  "gatinha",
  "docinho",
  "chocolate",
  "futebol",
  "cerveja",
  "vinho",
  "qwerty123",
  "abc12345",
  "a1b2c3d4",
  "102030",
  "10203040",
  "123123123",
  "112233",
  "11223344",
  "147258",
  "147258369",
  "159753",
  "159357",
  "789456",
  "741852",
  "963852",
  "santacatarina",
  "florianopolis",
  "joinville",
  "blumenau",
  "chapeco",
  "videira",
  "vinicola",
  "imobiliaria",
  "imoveis",
  "corretor",
  "corretora",
  "condominio",
  "lancamento",
  "prelancamento",
  "painel",
  "admin123",
  "administrador",
];

/** The agency's and the development's names, as staff would type them, with common endings. */
function localNames(agency) {
  const squash = (s) =>
    s
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "");
  const names = [agency.agency.name, agency.development.name, agency.development.winery, agency.agency.city];
  const stems = new Set(names.map(squash));
  stems.add(squash(agency.agency.staffEmailDomain.split(".")[0]));
  const endings = ["", "1", "12", "123", "1234", "@123", "!", "2025", "2026", "2027"];
  return [...stems].flatMap((stem) => endings.map((end) => stem + end));
}

export async function commonPasswords() {
  const agency = JSON.parse(await readFile(join(root, "agency.json"), "utf8"));
  const ranked = dictionary["passwords-common"].filter((p) => [...p].length >= MIN_CHARS).slice(0, FROM_RANKED_LIST);
  const all = [...ranked, ...BRAZILIAN, ...localNames(agency)]
    .map((p) => p.trim().toLowerCase())
    .filter((p) => [...p].length >= MIN_CHARS && !p.includes("\n"));
  return [...new Set(all)].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = `${(await commonPasswords()).join("\n")}\n`;
  if (process.argv.includes("--check")) {
    const current = await readFile(LIST_FILE, "utf8").catch(() => "");
    if (current !== text) {
      console.error(`${LIST_FILE} is not current: run node scripts/common-passwords.mjs`);
      process.exit(1);
    }
  } else {
    await writeFile(LIST_FILE, text);
    console.log(`${LIST_FILE}: ${text.split("\n").length - 1} passwords`);
  }
}
