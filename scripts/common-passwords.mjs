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
  // The first passwords of a new account, of a reset, of a shared office login.
  "senha@123",
  "senha@1234",
  "senha#123",
  "senha!123",
  "senha2025",
  "senha2026",
  "senha@2025",
  "senha@2026",
  "123senha",
  "minhasenha123",
  "novasenha",
  "novasenha123",
  "nova@123",
  "teste",
  "teste1",
  "teste12",
  "teste123",
  "teste1234",
  "teste@123",
  "testando",
  "testando123",
  "mudar",
  "mudar1234",
  "mudar@1234",
  "mudarsenha123",
  "trocar",
  "trocar@123",
  "trocar1234",
  "trocarsenha",
  "alterar",
  "alterar123",
  "alterar@123",
  "admin",
  "admin@123",
  "admin1234",
  "admin@1234",
  "administrador123",
  "adm123",
  "adm@123",
  "acesso",
  "acesso123",
  "acesso@123",
  "usuario",
  "usuario123",
  "usuario@123",
  "bemvindo",
  "bemvindo123",
  "bemvindo@123",
  "brasil@123",
  "brasil1234",
  "brasil2025",
  "123brasil",
  "empresa",
  "empresa123",
  "empresa@123",
  "escritorio",
  "escritorio123",
  "trabalho",
  "trabalho123",
  "comercial",
  "comercial123",
  "comercial@123",
  "vendas",
  "vendas123",
  "vendas@123",
  "atendimento",
  "atendimento123",
  "financeiro",
  "financeiro123",
  "gerente",
  "gerente123",
  "secretaria",
  "recepcao",
  "contato",
  "contato123",
  "imobiliaria123",
  "imoveis123",
  "corretor123",
  "corretora123",
  "flamengo@123",
  "corinthians123",
  "palmeiras123",
  "saopaulo123",
  "gremio123",
  "vasco123",
  "santos123",
  "botafogo123",
  "cruzeiro123",
  "fluminense123",
  "internacional123",
  "deusefiel123",
  "jesus@123",
  "amor@123",
  "teamo@123",
  "familia@123",
];

/** Words that never start or end a short form of a name: "Recanto das" is no name. */
const CONNECTORS = ["da", "das", "de", "do", "dos", "e"];

/**
 * The agency's, the development's, the winery's and the city's names, as
 * staff would type them, with common endings; each also without its first or
 * last word when that leaves two words or more ("Altos da Serra", "Serra
 * Alta"), as the worker's own rule (worker/src/auth/guessable.rs) reads them.
 */
function localNames(agency) {
  const squash = (s) =>
    s
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "");
  const names = [agency.agency.name, agency.development.name, agency.development.winery, agency.agency.city];
  const stems = new Set(names.map(squash));
  for (const name of names) {
    const words = name.split(/\s+/).filter(Boolean);
    if (words.length < 3) continue;
    for (const short of [words.slice(1), words.slice(0, -1)]) {
      const edge = (w) => CONNECTORS.includes(squash(w));
      if (!edge(short[0]) && !edge(short.at(-1))) stems.add(squash(short.join("")));
    }
  }
  stems.add(squash(agency.agency.staffEmailDomain.split(".")[0]));
  const endings = [
    "",
    "1",
    "12",
    "123",
    "1234",
    "@123",
    "@1234",
    "!",
    "#123",
    "2025",
    "2026",
    "2027",
    "@2025",
    "@2026",
  ];
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
