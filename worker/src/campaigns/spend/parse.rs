//! A spend file, read: the spreadsheet a person types
//! (`data;origem;campanha;investimento[;anuncio]`), Meta Ads Manager's
//! export and Google Ads' report, told apart by their columns. Neither
//! platform documents its export's layout, so the reading is tolerant:
//! UTF-8 (with or without its mark), UTF-16 or Windows-1252; `;`, `,` or a
//! tab between cells; the header found among the first lines (Google puts a
//! title and the period above it); column names in Portuguese or English,
//! with or without accents; amounts as `R$ 1.234,56`, `1234,56`, `1,234.56`
//! or `8.97`; days as `dd/mm/aaaa`, `aaaa-mm-dd` or `Nov 24, 2026`; the
//! 'Total' lines skipped. Any line it cannot read refuses the whole file,
//! each such line named ('linha 4: valor inválido'): nothing is half
//! imported.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::attribution::SHORT_FIELD_MAX;
use crate::attribution::sources;
use crate::formats::characters::unaccented;
use crate::formats::dates::Day;

/// The most lines a file may have: a year of daily spend of 130 ads.
pub const MAX_LINES: usize = 50_000;
/// The most lines a refusal names; the rest are counted.
pub const ERRORS_NAMED: usize = 20;
/// How far down the header may be.
const HEADER_WITHIN: usize = 30;

/// Where a file came from, as it is told apart (and kept: `spend_imports.kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Kind {
    /// `data;origem;campanha;investimento`.
    #[serde(rename = "planilha")]
    Sheet,
    #[serde(rename = "meta")]
    Meta,
    #[serde(rename = "google")]
    Google,
    /// Read by the cron from Meta's Marketing API.
    #[serde(rename = "meta_api")]
    MetaApi,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Sheet => "planilha",
            Kind::Meta => "meta",
            Kind::Google => "google",
            Kind::MetaApi => "meta_api",
        }
    }
}

/// One day's spend of one line: a source (one name), a campaign and an ad
/// ('' for none) by name, their ids when the file gave them, in cents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpendLine {
    pub day: String,
    pub source: String,
    pub campaign: String,
    pub content: String,
    pub campaign_id: String,
    pub content_id: String,
    pub cents: i64,
}

impl SpendLine {
    fn key(&self) -> (String, String, String, String) {
        (
            self.day.clone(),
            self.source.clone(),
            self.campaign.clone(),
            self.content.clone(),
        )
    }
}

/// A file read whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpendFile {
    pub kind: Kind,
    /// One a day and line: an export's lines for ads of one name in several
    /// ad sets (or ad groups) are added into one.
    pub lines: Vec<SpendLine>,
}

/// Why a file was refused: the whole file, or the lines named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    Empty,
    /// No line reads as the header of a known format.
    NoHeader,
    TooManyLines,
    /// The amounts are in another currency than reais.
    Currency(String),
    /// Every line that could not be read ('linha 4: valor inválido'), the
    /// first [`ERRORS_NAMED`], and how many there are.
    Lines {
        named: Vec<String>,
        total: usize,
    },
}

/// The text of the file's bytes: UTF-16 with its mark, else UTF-8 (its mark
/// dropped), else Windows-1252 (Excel's 'CSV' in Portuguese Windows).
pub fn decode(bytes: &[u8]) -> String {
    let utf16 = |le: bool| {
        let units: Vec<u16> = bytes[2..]
            .chunks_exact(2)
            .map(|p| {
                if le {
                    u16::from_le_bytes([p[0], p[1]])
                } else {
                    u16::from_be_bytes([p[0], p[1]])
                }
            })
            .collect();
        String::from_utf16_lossy(&units)
    };
    match bytes {
        [0xFF, 0xFE, ..] => utf16(true),
        [0xFE, 0xFF, ..] => utf16(false),
        _ => match std::str::from_utf8(bytes) {
            Ok(text) => text.trim_start_matches('\u{feff}').to_string(),
            Err(_) => bytes.iter().map(|&b| windows_1252(b)).collect(),
        },
    }
}

fn windows_1252(b: u8) -> char {
    const HIGH: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž',
        '\u{8f}', '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}',
        'ž', 'Ÿ',
    ];
    match b {
        0x80..=0x9F => HIGH[(b - 0x80) as usize],
        _ => b as char,
    }
}

/// A record of the file and the line it starts on (1 the first).
struct Record {
    line: usize,
    cells: Vec<String>,
}

/// The records of `text` split at `delimiter`, quotes read as CSV writes
/// them (a quoted cell may hold the delimiter, quotes doubled, line breaks).
fn records(text: &str, delimiter: char) -> Vec<Record> {
    let mut out = Vec::new();
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut line = 1;
    let mut starts = 1;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    cell.push('"');
                }
                '"' => quoted = false,
                '\n' => {
                    line += 1;
                    cell.push(' ');
                }
                _ => cell.push(c),
            }
            continue;
        }
        match c {
            '"' if cell.trim().is_empty() => {
                cell.clear();
                quoted = true;
            }
            '\r' => {}
            '\n' => {
                cells.push(std::mem::take(&mut cell));
                out.push(Record {
                    line: starts,
                    cells: std::mem::take(&mut cells),
                });
                line += 1;
                starts = line;
            }
            c if c == delimiter => cells.push(std::mem::take(&mut cell)),
            _ => cell.push(c),
        }
    }
    if !cell.is_empty() || !cells.is_empty() {
        cells.push(cell);
        out.push(Record {
            line: starts,
            cells,
        });
    }
    out
}

/// A column name as compared: lower case, without accents, spaces single.
fn folded(name: &str) -> String {
    let plain = unaccented(name.trim().trim_matches('"'));
    plain.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What a column holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Day,
    /// Meta's 'Encerramento dos relatórios': a line must be one day.
    DayEnd,
    Source,
    Campaign,
    CampaignId,
    Ad,
    AdId,
    Amount,
    Currency,
}

/// Where each [`Field`] is among a header's cells, if it is.
#[derive(Debug, Clone, Copy, Default)]
struct Columns([Option<usize>; 9]);

impl Columns {
    fn get(&self, field: Field) -> Option<usize> {
        self.0[field as usize]
    }

    fn has(&self, field: Field) -> bool {
        self.get(field).is_some()
    }

    /// The first cell found for a field stays.
    fn set(&mut self, field: Field, at: usize) {
        self.0[field as usize].get_or_insert(at);
    }
}

/// The names each format gives its columns (folded), and which it needs.
struct Format {
    kind: Kind,
    columns: &'static [(Field, &'static [&'static str])],
    /// Money columns named with a prefix and the currency after it: 'Valor usado (BRL)'.
    amount_prefixes: &'static [&'static str],
    required: &'static [Field],
}

const FORMATS: [Format; 3] = [
    Format {
        kind: Kind::Sheet,
        columns: &[
            (Field::Day, &["data", "dia"]),
            (Field::Source, &["origem", "fonte"]),
            (Field::Campaign, &["campanha"]),
            (Field::Ad, &["anuncio"]),
            (Field::Amount, &["investimento", "valor", "gasto"]),
        ],
        amount_prefixes: &["investimento"],
        required: &[Field::Day, Field::Source, Field::Campaign, Field::Amount],
    },
    Format {
        kind: Kind::Meta,
        columns: &[
            (Field::Day, &["dia", "day"]),
            (Field::Day, &["inicio dos relatorios", "reporting starts"]),
            (
                Field::DayEnd,
                &["encerramento dos relatorios", "reporting ends"],
            ),
            (Field::Source, &["plataforma", "platform"]),
            (Field::Campaign, &["nome da campanha", "campaign name"]),
            (
                Field::CampaignId,
                &["identificacao da campanha", "id da campanha", "campaign id"],
            ),
            (Field::Ad, &["nome do anuncio", "ad name"]),
            (
                Field::AdId,
                &["identificacao do anuncio", "id do anuncio", "ad id"],
            ),
            (Field::Currency, &["moeda", "currency"]),
        ],
        amount_prefixes: &[
            "valor usado",
            "valor gasto",
            "valor investido",
            "amount spent",
        ],
        required: &[Field::Day, Field::Campaign, Field::Amount],
    },
    Format {
        kind: Kind::Google,
        columns: &[
            (Field::Day, &["dia", "day", "data", "date"]),
            (Field::Campaign, &["campanha", "campaign"]),
            (Field::CampaignId, &["id da campanha", "campaign id"]),
            (Field::Ad, &["grupo de anuncios", "ad group"]),
            (Field::AdId, &["id do grupo de anuncios", "ad group id"]),
            (Field::Amount, &["custo", "cost"]),
            (
                Field::Currency,
                &["codigo da moeda", "currency code", "moeda", "currency"],
            ),
        ],
        amount_prefixes: &["custo (", "cost ("],
        required: &[Field::Day, Field::Campaign, Field::Amount],
    },
];

/// The columns of a header line, if it is one of `format`'s, and the
/// currency its money column names ('BRL' in 'Valor usado (BRL)').
fn header_of(format: &Format, cells: &[String]) -> Option<(Columns, Option<String>)> {
    let mut found = Columns::default();
    let mut currency = None;
    let names: Vec<String> = cells.iter().map(|c| folded(c)).collect();
    for (i, name) in names.iter().enumerate() {
        if let Some((field, _)) = format
            .columns
            .iter()
            .find(|(_, known)| known.contains(&name.as_str()))
        {
            // The first of two names for one field wins ('Dia' before 'Início dos relatórios').
            found.set(*field, i);
        }
    }
    if !found.has(Field::Amount)
        && let Some((i, name)) = names
            .iter()
            .enumerate()
            .find(|(_, name)| format.amount_prefixes.iter().any(|p| name.starts_with(p)))
    {
        found.set(Field::Amount, i);
        // 'Valor usado (BRL)': the currency; '(Converted currency)' names none.
        currency = name
            .split_once('(')
            .and_then(|(_, rest)| rest.split_once(')'))
            .map(|(code, _)| code.trim().to_uppercase())
            .filter(|code| code.len() == 3 && code.chars().all(|c| c.is_ascii_alphabetic()));
    }
    format
        .required
        .iter()
        .all(|f| found.has(*f))
        .then_some((found, currency))
}

/// An amount in cents: `R$ 1.234,56`, `1234,56`, `1,234.56`, `8.97`, `--`
/// (Google's nothing: 0). The last `,` or `.` is the decimal mark unless
/// three digits follow it alone (a thousands mark: `1.234`); more than two
/// decimals are rounded .
pub fn cents(raw: &str) -> Option<i64> {
    let text: String = raw
        .trim()
        .trim_start_matches("R$")
        .trim_start_matches("BRL")
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '\u{a0}' && *c != '\u{202f}')
        .collect();
    if text == "--" || text == "-" {
        return Some(0);
    }
    if text.is_empty()
        || !text
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
    {
        return None;
    }
    let last_mark = text.rfind(['.', ',']);
    let (whole, decimals) = match last_mark {
        None => (text.as_str(), ""),
        Some(at) => {
            let mark = &text[at..=at];
            let after = &text[at + 1..];
            let marks_of_kind = text.matches(mark).count();
            let other = if mark == "." { ',' } else { '.' };
            let thousands = !text.contains(other) && (marks_of_kind > 1 || after.len() == 3);
            if thousands {
                (text.as_str(), "")
            } else {
                (&text[..at], after)
            }
        }
    };
    let whole_digits: String = whole.chars().filter(char::is_ascii_digit).collect();
    if whole_digits.is_empty() && decimals.is_empty() {
        return None;
    }
    // A thousands mark groups three digits: '1.23.4' is no amount.
    let groups: Vec<&str> = whole.split(['.', ',']).collect();
    if groups.len() > 1 && groups[1..].iter().any(|g| g.len() != 3) {
        return None;
    }
    if !decimals.chars().all(|c| c.is_ascii_digit()) || whole_digits.len() > 12 {
        return None;
    }
    let units: i64 = if whole_digits.is_empty() {
        0
    } else {
        whole_digits.parse().ok()?
    };
    let mut fraction = decimals.to_string();
    while fraction.len() < 3 {
        fraction.push('0');
    }
    let thousandths: i64 = fraction[..3].parse().ok()?;
    Some(units * 100 + (thousandths + 5) / 10)
}

const MONTHS: [(&str, i64); 19] = [
    ("jan", 1),
    ("fev", 2),
    ("feb", 2),
    ("mar", 3),
    ("abr", 4),
    ("apr", 4),
    ("mai", 5),
    ("may", 5),
    ("jun", 6),
    ("jul", 7),
    ("ago", 8),
    ("aug", 8),
    ("set", 9),
    ("sep", 9),
    ("out", 10),
    ("oct", 10),
    ("nov", 11),
    ("dez", 12),
    ("dec", 12),
];

/// A day as files write it: `dd/mm/aaaa` (and `d/m/aaaa`, `dd-mm-aaaa`,
/// `dd.mm.aaaa`), `aaaa-mm-dd` (a time after it ignored), `mm/dd/aaaa` when
/// only that reads as a date, or with the month's name (`Nov 24, 2026`, `24
/// de nov. de 2026`).
pub fn day(raw: &str) -> Option<Day> {
    let text = folded(raw);
    let text = text
        .split(['t', ' '])
        .next()
        .filter(|t| t.len() >= 8)
        .map_or(text.as_str(), |t| {
            // '2026-11-24T00:00:00' or '2026-11-24 00:00': the date alone.
            if t.chars().filter(|c| c.is_ascii_digit()).count() == 8 && t.contains('-') {
                t
            } else {
                text.as_str()
            }
        });
    let at = |y: i64, m: i64, d: i64| Day::parse(&format!("{y:04}-{m:02}-{d:02}"));
    let numbers: Vec<&str> = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|p| !p.is_empty())
        .collect();
    let words: Vec<&str> = numbers
        .iter()
        .copied()
        .filter(|p| p.chars().all(|c| c.is_ascii_alphabetic()))
        .collect();
    let digits: Vec<i64> = numbers
        .iter()
        .filter(|p| p.chars().all(|c| c.is_ascii_digit()))
        .filter_map(|p| p.parse().ok())
        .collect();
    let month_named = words.iter().find_map(|w| {
        MONTHS
            .iter()
            .find_map(|(name, m)| w.starts_with(name).then_some(*m))
    });
    match (month_named, digits.as_slice()) {
        (Some(m), [a, b]) if *b >= 2000 => at(*b, m, *a),
        (Some(m), [a, b]) if *a >= 2000 => at(*a, m, *b),
        (None, [y, m, d]) if *y >= 1000 => at(*y, *m, *d),
        (None, [d, m, y]) if *y >= 1000 => at(*y, *m, *d).or_else(|| at(*y, *d, *m)),
        _ => None,
    }
}

/// A cell as kept: one line, no invisible characters, trimmed, cut.
fn text(raw: &str) -> String {
    crate::attribution::clean(Some(raw.to_string()), SHORT_FIELD_MAX).unwrap_or_default()
}

/// A file's delimiter, format, header line (its index among the records),
/// columns, and the currency its money column names.
type Header = (char, &'static Format, usize, Columns, Option<String>);

/// The delimiter and the header of `text`: the first of the first
/// [`HEADER_WITHIN`] lines that reads as a known format's header.
fn find_header(text: &str) -> Option<Header> {
    let head: String = text
        .lines()
        .take(HEADER_WITHIN)
        .collect::<Vec<_>>()
        .join("\n");
    for delimiter in [';', '\t', ','] {
        for (index, record) in records(&head, delimiter).iter().enumerate() {
            for format in &FORMATS {
                if let Some((columns, currency)) = header_of(format, &record.cells) {
                    return Some((delimiter, format, index, columns, currency));
                }
            }
        }
    }
    None
}

/// Reads a spend file whole; `today` bounds its days (no spend tomorrow).
pub fn parse(bytes: &[u8], today: Day) -> Result<SpendFile, Refusal> {
    let decoded = decode(bytes);
    if decoded.trim().is_empty() {
        return Err(Refusal::Empty);
    }
    let (delimiter, format, header_at, columns, currency) =
        find_header(&decoded).ok_or(Refusal::NoHeader)?;
    if let Some(code) = currency.filter(|c| c != "BRL") {
        return Err(Refusal::Currency(code));
    }
    let all = records(&decoded, delimiter);
    let rows = &all[header_at + 1..];
    if rows.len() > MAX_LINES {
        return Err(Refusal::TooManyLines);
    }
    let cell = |record: &Record, field: Field| -> String {
        columns
            .get(field)
            .and_then(|i| record.cells.get(i))
            .map(|c| c.trim().to_string())
            .unwrap_or_default()
    };
    let mut errors: Vec<String> = Vec::new();
    let mut error_count = 0;
    let mut lines: Vec<SpendLine> = Vec::new();
    let mut seen: HashMap<(String, String, String, String), (usize, usize)> = HashMap::new();
    for record in rows {
        let mut fail = |message: String| {
            error_count += 1;
            if errors.len() < ERRORS_NAMED {
                errors.push(format!("linha {}: {message}", record.line));
            }
        };
        if record.cells.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        let first = record
            .cells
            .iter()
            .map(|c| c.trim())
            .find(|c| !c.is_empty())
            .unwrap_or_default();
        if folded(first).starts_with("total") {
            continue;
        }
        let campaign = text(&cell(record, Field::Campaign));
        // An export's summary line has no campaign.
        if format.kind != Kind::Sheet && campaign.is_empty() {
            continue;
        }
        let raw_day = cell(record, Field::Day);
        let Some(line_day) = day(&raw_day) else {
            fail(format!("data inválida ({})", shown(&raw_day)));
            continue;
        };
        if line_day > today {
            fail(format!("data no futuro ({})", shown(&raw_day)));
            continue;
        }
        if columns.has(Field::DayEnd) {
            let end = cell(record, Field::DayEnd);
            if !end.is_empty() && day(&end) != Some(line_day) {
                fail("a linha soma vários dias; exporte o relatório dividido por dia".into());
                continue;
            }
        }
        let line_currency = cell(record, Field::Currency).to_uppercase();
        if !line_currency.is_empty() && line_currency != "BRL" {
            fail(format!(
                "moeda {} (o relatório soma reais)",
                shown(&line_currency)
            ));
            continue;
        }
        let raw_amount = cell(record, Field::Amount);
        let amount = if raw_amount.is_empty() && format.kind != Kind::Sheet {
            Some(0)
        } else {
            cents(&raw_amount)
        };
        let Some(amount) = amount else {
            fail(format!("valor inválido ({})", shown(&raw_amount)));
            continue;
        };
        let source = match format.kind {
            Kind::Sheet => {
                let typed = text(&cell(record, Field::Source));
                if typed.is_empty() {
                    fail("origem em branco".into());
                    continue;
                }
                sources::canonical(&typed)
            }
            Kind::Meta => {
                let placement = text(&cell(record, Field::Source));
                if placement.is_empty() {
                    "Meta".to_string()
                } else {
                    sources::canonical(&placement)
                }
            }
            Kind::Google => "Google".to_string(),
            Kind::MetaApi => "Meta".to_string(),
        };
        let line = SpendLine {
            day: line_day.to_string(),
            source,
            campaign,
            content: text(&cell(record, Field::Ad)),
            campaign_id: text(&cell(record, Field::CampaignId)),
            content_id: text(&cell(record, Field::AdId)),
            cents: amount,
        };
        match seen.get(&line.key()) {
            Some(&(first_line, _)) if format.kind == Kind::Sheet => {
                fail(format!(
                    "repete a linha {first_line} (mesmo dia, origem, campanha e anúncio)"
                ));
            }
            Some(&(_, at)) => lines[at].cents += line.cents,
            None => {
                seen.insert(line.key(), (record.line, lines.len()));
                lines.push(line);
            }
        }
    }
    if error_count > 0 {
        return Err(Refusal::Lines {
            named: errors,
            total: error_count,
        });
    }
    if lines.is_empty() {
        return Err(Refusal::Empty);
    }
    Ok(SpendFile {
        kind: format.kind,
        lines,
    })
}

/// A cell's value as a refusal quotes it: in quotes, cut, or '(vazio)'.
fn shown(value: &str) -> String {
    if value.trim().is_empty() {
        return "vazio".into();
    }
    let cut: String = value.trim().chars().take(40).collect();
    format!("\"{cut}\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn today() -> Day {
        Day::parse("2026-11-26").unwrap()
    }

    fn read(text: &str) -> Result<SpendFile, Refusal> {
        parse(text.as_bytes(), today())
    }

    #[test]
    fn amounts_read_the_brazilian_way_and_the_exports_ways() {
        for (raw, expected) in [
            ("R$ 1.234,56", 123_456),
            ("1234,56", 123_456),
            ("1.234,56", 123_456),
            ("100", 10_000),
            ("R$100,00", 10_000),
            ("1,234.56", 123_456),
            ("8.97", 897),
            ("12.04", 1_204),
            ("1.234", 123_400),
            ("1.234.567", 123_456_700),
            ("0,5", 50),
            ("--", 0),
            ("R$\u{a0}2.000,00", 200_000),
        ] {
            assert_eq!(cents(raw), Some(expected), "{raw}");
        }
        for bad in ["", "abc", "-10", "1,2,3", "R$", "12,5x", "1.23.4"] {
            assert_eq!(cents(bad), None, "{bad}");
        }
    }

    #[test]
    fn days_read_as_files_write_them() {
        let d = |s: &str| day(s).map(|d| d.to_string());
        for raw in [
            "24/11/2026",
            "2026-11-24",
            "24-11-2026",
            "24.11.2026",
            "Nov 24, 2026",
            "24 de nov. de 2026",
            "2026-11-24T00:00:00",
            "11/24/2026",
        ] {
            assert_eq!(d(raw).as_deref(), Some("2026-11-24"), "{raw}");
        }
        assert_eq!(d("4/1/2026").as_deref(), Some("2026-01-04"));
        for bad in ["32/11/2026", "24/13/2026", "ontem", "", "24/11/26"] {
            assert_eq!(d(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_simplest_sheet_folds_its_sources_and_reads_its_amounts() {
        let file = read(
            "data;origem;campanha;investimento\n\
             24/11/2026;ig;lancamento;R$ 100,00\n\
             25/11/2026;Google;busca;1.234,56\n",
        )
        .unwrap();
        assert_eq!(file.kind, Kind::Sheet);
        assert_eq!(file.lines.len(), 2);
        assert_eq!(file.lines[0].source, "Instagram");
        assert_eq!(file.lines[0].day, "2026-11-24");
        assert_eq!(file.lines[0].cents, 10_000);
        assert_eq!(file.lines[1].cents, 123_456);
        // With its optional ad, commas and the mark Excel writes.
        let file = read(
            "\u{feff}Data,Origem,Campanha,Anúncio,Investimento\r\n\
             2026-11-24,instagram,lancamento,video-1,\"1.000,50\"\r\n",
        )
        .unwrap();
        assert_eq!(file.lines[0].content, "video-1");
        assert_eq!(file.lines[0].cents, 100_050);
    }

    #[test]
    fn a_bad_line_refuses_the_file_naming_each_line() {
        let refused = read(
            "data;origem;campanha;investimento\n\
             24/11/2026;ig;lancamento;100\n\
             25/11/2026;ig;lancamento;cem reais\n\
             31/02/2026;ig;lancamento;10\n\
             25/11/2026;;lancamento;10\n\
             27/11/2026;ig;lancamento;10\n\
             24/11/2026;instagram;lancamento;5\n",
        )
        .unwrap_err();
        assert_eq!(
            refused,
            Refusal::Lines {
                named: vec![
                    "linha 3: valor inválido (\"cem reais\")".into(),
                    "linha 4: data inválida (\"31/02/2026\")".into(),
                    "linha 5: origem em branco".into(),
                    "linha 6: data no futuro (\"27/11/2026\")".into(),
                    "linha 7: repete a linha 2 (mesmo dia, origem, campanha e anúncio)".into(),
                ],
                total: 5
            }
        );
    }

    #[test]
    fn meta_ads_managers_export_is_read_in_portuguese_and_english() {
        let pt = "\u{feff}Início dos relatórios,Encerramento dos relatórios,Nome da campanha,Nome do conjunto de anúncios,Nome do anúncio,Valor usado (BRL),Identificação da campanha\n\
                  2026-11-24,2026-11-24,lancamento,publico-a,video-1,8.97,120210000\n\
                  2026-11-24,2026-11-24,lancamento,publico-b,video-1,1.03,120210000\n\
                  2026-11-25,2026-11-25,lancamento,publico-a,video-1,\"1.234,50\",120210000\n";
        let file = read(pt).unwrap();
        assert_eq!(file.kind, Kind::Meta);
        // One ad in two ad sets is one line of its day.
        assert_eq!(file.lines.len(), 2);
        assert_eq!(file.lines[0].source, "Meta");
        assert_eq!(file.lines[0].content, "video-1");
        assert_eq!(file.lines[0].campaign_id, "120210000");
        assert_eq!(file.lines[0].cents, 1_000);
        assert_eq!(file.lines[1].cents, 123_450);
        let en = "Day;Campaign name;Ad name;Platform;Amount spent (BRL)\n\
                  2026-11-24;lancamento;video-1;instagram;10.00\n\
                  2026-11-24;lancamento;video-1;facebook;5.00\n\
                  ;;;;15.00\n";
        let file = read(en).unwrap();
        let sources: Vec<&str> = file.lines.iter().map(|l| l.source.as_str()).collect();
        assert_eq!(sources, ["Instagram", "Facebook"]);
        assert_eq!(
            read("Day,Campaign name,Amount spent (USD)\n2026-11-24,x,1.00\n"),
            Err(Refusal::Currency("USD".into()))
        );
        assert!(matches!(
            read(
                "Reporting starts,Reporting ends,Campaign name,Amount spent (BRL)\n2026-11-01,2026-11-24,x,1.00\n"
            ),
            Err(Refusal::Lines { .. })
        ));
    }

    #[test]
    fn google_ads_report_is_read_below_its_title_without_its_totals() {
        let en = "Campaign report\n\
                  \"November 1, 2026 - November 25, 2026\"\n\
                  Day,Campaign,Campaign ID,Ad group,Currency code,Cost,Clicks\n\
                  2026-11-24,busca-marca,987654321,marca,BRL,\"1,234.56\",40\n\
                  2026-11-25,busca-marca,987654321,marca,BRL,--,0\n\
                  Total: Account,,,,BRL,\"1,234.56\",40\n";
        let file = read(en).unwrap();
        assert_eq!(file.kind, Kind::Google);
        assert_eq!(file.lines.len(), 2);
        assert_eq!(file.lines[0].source, "Google");
        assert_eq!(file.lines[0].campaign_id, "987654321");
        assert_eq!(file.lines[0].content, "marca");
        assert_eq!(file.lines[0].cents, 123_456);
        assert_eq!(file.lines[1].cents, 0);
        // In Portuguese, tab-separated UTF-16 as Excel's export writes it.
        let pt =
            "Relatório de campanhas\nDia\tCampanha\tCusto\n24/11/2026\tbusca-marca\t\"R$ 10,00\"\n";
        let mut bytes = vec![0xFF, 0xFE];
        for unit in pt.encode_utf16() {
            bytes.extend(unit.to_le_bytes());
        }
        let file = parse(&bytes, today()).unwrap();
        assert_eq!(file.kind, Kind::Google);
        assert_eq!(file.lines[0].cents, 1_000);
    }

    #[test]
    fn a_file_of_no_known_format_or_nothing_is_refused_whole() {
        assert_eq!(read(""), Err(Refusal::Empty));
        assert_eq!(read("nome;email\nAna;a@x.com\n"), Err(Refusal::NoHeader));
        assert_eq!(
            read("data;origem;campanha;investimento\n"),
            Err(Refusal::Empty)
        );
    }

    #[test]
    fn a_windows_1252_file_reads_its_accents() {
        let bytes =
            b"data;origem;campanha;an\xfancio;investimento\n24/11/2026;ig;ver\xe3o;v\xeddeo;10\n";
        let file = parse(bytes, today()).unwrap();
        assert_eq!(file.lines[0].campaign, "verão");
        assert_eq!(file.lines[0].content, "vídeo");
    }
}
