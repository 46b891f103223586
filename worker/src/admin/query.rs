//! What the panel asks for: a delivery filter, a search term and a page. Parsed
//! from the query string once; the SQL is assembled from fixed fragments, so
//! nothing the user types ever becomes SQL text.

use std::borrow::Cow;

use crate::attribution::{attribution_columns, attribution_json_members};
use wasm_bindgen::JsValue;
use worker::Url;

use crate::agency::{QUESTIONS, Question};
use crate::formats::characters::{APOSTROPHES, plain_text};
use crate::formats::dates::Day;
use crate::formats::whatsapp::WhatsApp;
use crate::platform::db::Param;

/// Leads per page in the panel.
pub const PAGE_SIZE: i64 = 50;
/// Longest search term considered.
const MAX_TERM_CHARS: usize = 100;

/// The panel's filter (`status=` in the URL, in Portuguese as staff see it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StatusFilter {
    #[default]
    All,
    /// On its way to the CRM: the site still sends it by itself (not one
    /// given up, which is 'Falharam': each lead under one of the two).
    Pending,
    Sent,
    /// Needs a person: the retry window of the lead, or of its correction, is over.
    Failed,
    /// 'Possível duplicado': a submission tied the lead to another.
    Duplicates,
    /// 'Alteração pendente': new details wait for staff.
    PendingChanges,
}

impl StatusFilter {
    pub fn parse(raw: &str) -> Self {
        match raw {
            "pendentes" => Self::Pending,
            "enviados" => Self::Sent,
            "falhas" => Self::Failed,
            "duplicados" => Self::Duplicates,
            "alteracoes" => Self::PendingChanges,
            _ => Self::All,
        }
    }

    /// A condition each index (`leads_newest`, `leads_sent_newest`, the
    /// partial `leads_attention_newest`, whose condition this states word for
    /// word) serves in `created_at DESC, id DESC` order (the possible
    /// duplicates are few: their ids come from `lead_links`).
    fn condition(self) -> &'static str {
        match self {
            Self::All => "1",
            Self::Pending => "delivery_status = 'pending'",
            Self::Sent => "jetimob_enviado = 1",
            Self::Failed => "(delivery_status = 'failed' OR update_status = 'failed')",
            Self::Duplicates => "id IN (SELECT lead_id FROM lead_links)",
            Self::PendingChanges => {
                "id IN (SELECT lead_id FROM lead_submissions WHERE kind = 'pending')"
            }
        }
    }
}

/// Who spoke to the lead (`contato=` in the URL): every lead, the leads
/// nobody contacted yet ('Não contatados': those since the panel records
/// contacts, 0023), or those the person asking contacted first ('Contatados
/// por mim'). Each has its index in `created_at DESC, id DESC` order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ContactFilter {
    #[default]
    Any,
    Uncontacted,
    /// The staff member's id.
    Mine(String),
}

impl ContactFilter {
    fn parse(raw: &str, staff_id: &str) -> Self {
        match raw {
            "nao" => Self::Uncontacted,
            "meus" => Self::Mine(staff_id.to_string()),
            _ => Self::Any,
        }
    }

    /// The condition, the staff member's id bound as `?{param}` ('Contatados por mim').
    fn condition(&self, param: usize) -> String {
        match self {
            Self::Any => String::new(),
            Self::Uncontacted => format!(" AND {UNCONTACTED}"),
            Self::Mine(_) => format!(" AND first_contact_by = ?{param}"),
        }
    }

    /// What [`ContactFilter::condition`] binds: the staff member's id, for 'Contatados por mim'.
    fn value(&self) -> Option<Bound> {
        match self {
            Self::Mine(id) => Some(Bound::Text(Some(id.clone()))),
            _ => None,
        }
    }
}

/// A lead nobody contacted yet, as `leads_uncontacted_newest` states it.
pub const UNCONTACTED: &str = "first_contact_at IS NULL AND contact_tracked = 1";

/// How a search term is matched against the trigram index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Search {
    None,
    /// An FTS5 query answered by the trigram index: each word a quoted string,
    /// all required, when every word has three characters or more; else the
    /// whole term as one quoted string. A string with an apostrophe is any of
    /// its forms (see [`Search::quoted`]).
    Indexed(String),
    /// A term of one or two characters: a GLOB pattern, which scans the
    /// search table; each letter a class of its cases and accents, so 'ze'
    /// finds 'Zé' as the index's searches do.
    Scan(String),
}

/// The letters Portuguese writes with accents, each with every form of it.
const ACCENTED: [(char, &str); 7] = [
    ('a', "aAáÁàÀâÂãÃäÄ"),
    ('e', "eEéÉèÈêÊëË"),
    ('i', "iIíÍìÌîÎïÏ"),
    ('o', "oOóÓòÒôÔõÕöÖ"),
    ('u', "uUúÚùÙûÛüÜ"),
    ('c', "cCçÇ"),
    ('n', "nNñÑ"),
];

/// One character of a short term as GLOB reads it: a letter, any of its
/// cases and accents (`[eEéÉ…]`); GLOB's own `*`, `?` and `[` as themselves;
/// anything else as it is.
fn glob_class(c: char) -> String {
    let (lower, upper) = crate::platform::cases(c);
    if let Some((_, forms)) = ACCENTED
        .iter()
        .find(|(base, forms)| *base == lower || forms.contains(lower))
    {
        return format!("[{forms}]");
    }
    if lower != upper {
        return format!("[{lower}{upper}]");
    }
    match c {
        '*' | '?' | '[' => format!("[{c}]"),
        _ => c.to_string(),
    }
}

impl Search {
    /// Terms read as names are stored ([`plain_text`]: invisible characters
    /// dropped, apostrophes `'`). Phone-like terms become digits (stored
    /// numbers are searched without punctuation): a whole number the lead form
    /// would take, as it is stored (`049 99999-8888` is `5549999998888`);
    /// others are matched as typed, ignoring case and accents.
    pub fn parse(raw: &str) -> Self {
        // Control characters (a NUL among them) are nothing anyone searches
        // for, and the full-text index refuses them; nor are format
        // characters, which a number copied from WhatsApp comes wrapped in
        // (U+202A … U+202C).
        let term: String = plain_text(raw)
            .chars()
            .filter(|c| !c.is_control())
            .collect::<String>()
            .trim()
            .chars()
            .take(MAX_TERM_CHARS)
            .collect();
        if term.is_empty() {
            return Self::None;
        }
        let term = Self::phone_digits(&term).unwrap_or(term);
        let words: Vec<&str> = term.split_whitespace().collect();
        let phrase = words.join(" ");
        if words.iter().all(|w| w.chars().count() >= 3) {
            let quoted: Vec<String> = words.iter().map(|w| Self::quoted(w)).collect();
            Self::Indexed(quoted.join(" AND "))
        } else if phrase.chars().count() >= 3 {
            // A word under three characters matches nothing by itself in the
            // trigram index, but the whole term, spaces and all, is a string of
            // trigrams: 'Maria da Silva' or 'Aline Co', found where it stands in
            // a lead's details (as the scan below would, but through the index).
            Self::Indexed(Self::quoted(&phrase))
        } else {
            Self::Scan(format!(
                "*{}*",
                term.chars().map(glob_class).collect::<String>()
            ))
        }
    }

    /// The digits to search for a term of digits and phone punctuation (a
    /// non-breaking space or hyphen among it, as WhatsApp copies numbers):
    /// the stored E.164 digits of a number `WhatsApp::parse` takes, unless the
    /// digits typed are part of them already (`(49) 99999-8888`, or `55 49
    /// 3333-44` on its way to a whole number, which would read as a DDD 55
    /// landline); else the digits typed, found wherever they stand.
    fn phone_digits(term: &str) -> Option<String> {
        let phone_like = term.chars().all(|c| {
            c.is_ascii_digit()
                || matches!(c, ' ' | '(' | ')' | '-' | '.' | '+' | '\u{a0}' | '\u{2011}')
        });
        let digits: String = term.chars().filter(char::is_ascii_digit).collect();
        if !phone_like || digits.is_empty() {
            return None;
        }
        let number = WhatsApp::parse(&term.replace('\u{2011}', "-"))
            .ok()
            .and_then(|w| w.as_str().strip_prefix('+').map(str::to_string));
        Some(match number {
            Some(e164) if !e164.contains(&digits) => e164,
            _ => digits,
        })
    }

    /// `text` as an FTS5 string. With an apostrophe in it, any of its forms
    /// (`'` and [`APOSTROPHES`]): names stored before `’` was made `'` keep
    /// it in the search index, which is filled from them by triggers
    /// (changing what they index would take a migration and a rebuild of
    /// the index).
    fn quoted(text: &str) -> String {
        let quoted = |text: &str| format!("\"{}\"", text.replace('"', "\"\""));
        if !text.contains('\'') {
            return quoted(text);
        }
        let forms: Vec<String> = std::iter::once('\'')
            .chain(APOSTROPHES)
            .map(|a| quoted(&text.replace('\'', &a.to_string())))
            .collect();
        format!("({})", forms.join(" OR "))
    }

    /// What a row of the search table must meet; the term is bound as `?1`.
    fn matching(&self) -> Option<&'static str> {
        match self {
            Self::None => None,
            Self::Indexed(_) => Some("leads_search MATCH ?1"),
            Self::Scan(_) => Some("body GLOB ?1"),
        }
    }

    /// The condition on `leads.id`.
    fn condition(&self) -> String {
        self.matching().map_or(String::new(), |m| {
            format!(" AND id IN (SELECT lead_id FROM leads_search WHERE {m})")
        })
    }

    pub fn bound(&self) -> Option<&str> {
        match self {
            Self::None => None,
            Self::Indexed(t) | Self::Scan(t) => Some(t),
        }
    }
}

/// The columns the panel and the export read: the lead (its newest details,
/// its first touch), its correction's delivery, the lead a submission tied it
/// to ('Possível duplicado'), its last touch (the newest submission it took,
/// as one JSON object: one index look-up a row), its changes waiting for
/// staff ('Alteração pendente'), and for a lead staff marked sent, who did:
/// the e-mail of the 'Marcar Enviado' that sent it (the newest up to its
/// `sent_at`; one look-up by `audit_log_lead`).
pub const LEAD_COLUMNS: &str = concat!(
    "id, name, email, whatsapp, origem, jetimob_enviado, \
     delivery_status, delivery_attempts, next_attempt_at, last_error, sent_at, sent_by, \
     created_at, submission_count, last_submitted_at, source, referrer_host, update_status, \
     update_last_error, ",
    attribution_columns!(),
    ", (SELECT other_id FROM lead_links WHERE lead_id = leads.id LIMIT 1) AS duplicate_of, \
     (SELECT json_object('at', submitted_at, 'origem', origem, ",
    attribution_json_members!(""),
    ") FROM lead_submissions WHERE lead_id = leads.id AND kind NOT IN ('pending', 'refused') \
      ORDER BY submitted_at DESC, id DESC LIMIT 1) AS last_touch, \
     (SELECT count(*) FROM lead_submissions WHERE lead_id = leads.id AND kind = 'pending') \
       AS pending_changes, \
     CASE WHEN sent_by = 'staff' THEN (SELECT staff_email FROM audit_log \
       WHERE lead_id = leads.id AND action = ",
    crate::audit::action_sql!(MarkSent),
    " AND at <= leads.sent_at ORDER BY at DESC, id DESC LIMIT 1) END AS marked_by, \
     landline, answers, answers_at, jetimob_lead_id, first_contact_at, contact_tracked, \
     first_contact_by AS contacted_by_id, \
     (SELECT email FROM staff_users WHERE id = leads.first_contact_by) AS contacted_by"
);

/// Where a page starts, from the page the panel shows: the page after its
/// last lead ('Próxima') or before its first ('Anterior'). Read as
/// `after=`/`before=` `{created_at}:{id}`, it lets a page be read by an
/// index seek instead of skipping every lead before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cursor {
    After(i64, String),
    Before(i64, String),
}

impl Cursor {
    fn parse_key(raw: &str) -> Option<(i64, String)> {
        let (at, id) = raw.split_once(':')?;
        let at = at.parse::<i64>().ok().filter(|at| *at >= 0)?;
        let id = id.trim();
        (!id.is_empty() && id.len() <= 64 && !id.chars().any(char::is_control))
            .then(|| (at, id.to_string()))
    }

    /// `{created_at}:{id}`, the key the panel sends back.
    pub fn key(created_at: i64, id: &str) -> String {
        format!("{created_at}:{id}")
    }
}

/// The leads of a period (Brasília days, both included) and of a source,
/// campaign and ad: what a line of 'Campanhas' links to (`de=`, `ate=`,
/// `fonte=`, `campanha=`, `anuncio=`). An empty `campanha` or `anuncio` is
/// the leads without one; an absent one, any. And the visitor's answers
/// (`resposta=finalidade:Para investir`, one per question of agency.json,
/// the option word for word; anything else is no narrowing).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Narrowing {
    pub from: Option<Day>,
    pub to: Option<Day>,
    pub source: Option<String>,
    pub campaign: Option<Option<String>>,
    pub content: Option<Option<String>>,
    /// (question id, option), in agency.json's order.
    pub answers: Vec<(&'static str, &'static str)>,
}

/// A value a narrowing binds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bound {
    Integer(i64),
    Text(Option<String>),
}

impl Param for Bound {
    fn value(&self) -> JsValue {
        match self {
            Bound::Integer(n) => n.value(),
            Bound::Text(t) => t.value(),
        }
    }
}

/// Longest source, campaign or ad a narrowing names (as stored: 200).
const MAX_NAME_CHARS: usize = 200;

impl Narrowing {
    fn is_empty(&self) -> bool {
        self == &Self::default()
    }

    /// Reads one of its parameters; `false` if `key` is none of them.
    fn read(&mut self, key: &str, value: &str) -> bool {
        let name = || {
            value
                .trim()
                .chars()
                .take(MAX_NAME_CHARS)
                .collect::<String>()
        };
        let optional = || Some(name()).filter(|n| !n.is_empty());
        match key {
            "de" => self.from = Day::parse(value.trim()),
            "ate" => self.to = Day::parse(value.trim()),
            // Any spelling of a source is its one name ('ig' is 'Instagram').
            "fonte" => self.source = optional().map(|s| crate::attribution::sources::canonical(&s)),
            "campanha" => self.campaign = Some(optional()),
            "anuncio" => self.content = Some(optional()),
            "resposta" => self.read_answer(value),
            _ => return false,
        }
        true
    }

    /// `{question id}:{option}`: kept when agency.json asks it (the last one
    /// of a question wins); ignored otherwise.
    fn read_answer(&mut self, value: &str) {
        let Some((id, option)) = value.split_once(':') else {
            return;
        };
        let Some(question) = Question::find(id.trim()) else {
            return;
        };
        let Some(option) = question.option(option.trim()) else {
            return;
        };
        self.answers.retain(|(q, _)| *q != question.id);
        self.answers.push((question.id, option));
        let order = |id: &str| QUESTIONS.iter().position(|q| q.id == id);
        self.answers.sort_by_key(|(q, _)| order(q));
    }

    /// Each condition on `leads`, with its value.
    fn parts(&self) -> Vec<Part> {
        let text = |t: &str| Bound::Text(Some(t.to_string()));
        let mut parts = Vec::new();
        if let Some(from) = self.from {
            parts.push(("created_at >=".into(), Bound::Integer(from.start_ms())));
        }
        if let Some(to) = self.to {
            parts.push(("created_at <".into(), Bound::Integer(to.plus(1).start_ms())));
        }
        if let Some(source) = &self.source {
            parts.push(("source =".into(), text(source)));
        }
        if let Some(campaign) = &self.campaign {
            parts.push(("utm_campaign IS".into(), Bound::Text(campaign.clone())));
        }
        if let Some(content) = &self.content {
            parts.push(("utm_content IS".into(), Bound::Text(content.clone())));
        }
        for (question, option) in &self.answers {
            // A question's id is lower-case letters and `_` (worker/build.rs): a JSON path member as it is.
            let test = format!("json_extract(answers, '$.{question}') =");
            parts.push((test.into(), text(option)));
        }
        parts
    }

    /// The conditions on `leads`, their values ([`Narrowing::values`])
    /// bound from `?{first}` on.
    fn condition(&self, first: usize) -> String {
        let parts = self.parts();
        numbered(parts.iter().map(|p| p.0.as_ref()), first)
    }

    /// What [`Narrowing::condition`] binds, in its order.
    pub fn values(&self) -> Vec<Bound> {
        self.parts().into_iter().map(|p| p.1).collect()
    }
}

/// A condition of a [`Narrowing`]: a column and its comparison, and the value.
type Part = (Cow<'static, str>, Bound);

/// ` AND {test} ?{n}` for each test, numbered from `first`.
fn numbered<'a>(tests: impl Iterator<Item = &'a str>, first: usize) -> String {
    tests
        .enumerate()
        .map(|(i, test)| format!(" AND {test} ?{}", first + i))
        .collect()
}

/// A request for a list of leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeadQuery {
    pub status: StatusFilter,
    pub contact: ContactFilter,
    pub search: Search,
    pub narrowing: Narrowing,
    /// 1-based.
    pub page: i64,
    /// Given by 'Próxima' and 'Anterior'; without one (a reload, a shared
    /// link) the page is found by its number.
    pub cursor: Option<Cursor>,
}

impl LeadQuery {
    /// From the request's address: its query's `name=value` pairs, decoded;
    /// `staff_id`, the person asking ('Contatados por mim').
    pub fn from_url(url: &Url, staff_id: &str) -> Self {
        let mut query = Self {
            status: StatusFilter::All,
            contact: ContactFilter::Any,
            search: Search::None,
            narrowing: Narrowing::default(),
            page: 1,
            cursor: None,
        };
        for (key, value) in url.query_pairs() {
            if query.narrowing.read(&key, &value) {
                continue;
            }
            match key.as_ref() {
                "status" => query.status = StatusFilter::parse(&value),
                "contato" => query.contact = ContactFilter::parse(&value, staff_id),
                "q" => query.search = Search::parse(&value),
                "page" => query.page = value.parse::<i64>().unwrap_or(1).clamp(1, 1_000_000),
                "after" => {
                    query.cursor = Cursor::parse_key(&value)
                        .map(|(at, id)| Cursor::After(at, id))
                        .or(query.cursor)
                }
                "before" => {
                    query.cursor = Cursor::parse_key(&value)
                        .map(|(at, id)| Cursor::Before(at, id))
                        .or(query.cursor)
                }
                _ => {}
            }
        }
        // The first page is always the newest leads.
        if query.page == 1 {
            query.cursor = None;
        }
        query
    }

    /// The WHERE clause; a narrowing's values are bound from `?{first}` on.
    fn filter(&self, first: usize) -> String {
        // With a full-text term the term's matches lead. D1 keeps no
        // statistics, so SQLite would otherwise walk every lead sent (or not
        // sent) through `leads_sent_newest` and look each one up among the
        // matches: 70,000 rows at 100,000 leads for one lead's e-mail. The
        // unary `+` makes the status a test of the rows found, not an index.
        let status = match (&self.search, self.status) {
            (Search::Indexed(_), StatusFilter::Pending) => "+delivery_status = 'pending'",
            (Search::Indexed(_), StatusFilter::Sent) => "+jetimob_enviado = 1",
            (_, status) => status.condition(),
        };
        format!(
            "{status}{}{}{}",
            self.search.condition(),
            self.narrowing.condition(first),
            self.contact.condition(first + self.narrowing.parts().len())
        )
    }

    /// What a statement of [`LeadQuery`] binds after its fixed values: the
    /// narrowing's, then the contact filter's.
    pub fn values(&self) -> Vec<Bound> {
        let mut values = self.narrowing.values();
        values.extend(self.contact.value());
        values
    }

    /// The counters and every chip's count over the period and campaign
    /// (and the contact filter for the counters and the status chips), when
    /// the list is narrowed or filtered by contact; `None` otherwise (the
    /// counters the triggers keep say it all). `?1` is the person asking,
    /// then the narrowing's values. Narrowed, it reads the period's and
    /// campaign's leads; filtered by contact alone, that filter's leads
    /// (the contact chips then come from [`CONTACT_COUNTS_SQL`]).
    pub fn tally_sql(&self) -> Option<String> {
        if !self.is_narrowed() && self.contact == ContactFilter::Any {
            return None;
        }
        let contact = match self.contact.condition(1).strip_prefix(" AND ") {
            Some(c) => c.to_string(),
            None => "1".to_string(),
        };
        let scanned = if self.is_narrowed() {
            self.narrowing.condition(2)
        } else {
            format!(" AND {contact}")
        };
        let c = |test: &str| format!("coalesce(sum(({contact}) AND ({test})), 0)");
        Some(format!(
            "SELECT {} AS total, {} AS pending, {} AS sent, {} AS failed, {} AS attention, \
               {} AS duplicates, {} AS pending_changes, {} AS sent_clean, \
               coalesce(sum({UNCONTACTED}), 0) AS uncontacted, \
               coalesce(sum(first_contact_by IS ?1), 0) AS mine \
             FROM leads WHERE 1{scanned}",
            c("1"),
            c("delivery_status = 'pending'"),
            c("delivery_status = 'sent'"),
            c("delivery_status = 'failed'"),
            c(StatusFilter::Failed.condition()),
            c(StatusFilter::Duplicates.condition()),
            c(StatusFilter::PendingChanges.condition()),
            c("delivery_status = 'sent' AND update_status IS NOT 'failed'"),
        ))
    }

    /// Whether the list is narrowed to a period or a campaign.
    pub fn is_narrowed(&self) -> bool {
        !self.narrowing.is_empty()
    }

    /// One page by its number, newest first. `?1` search term, `?2` limit,
    /// `?3` offset, then the narrowing's values.
    pub fn page_sql(&self) -> String {
        format!(
            "SELECT {LEAD_COLUMNS} FROM leads WHERE {} ORDER BY created_at DESC, id DESC LIMIT ?2 OFFSET ?3",
            self.filter(4)
        )
    }

    /// The page before the lead at (`?2` created_at, `?3` id), oldest first
    /// (the caller turns it round). `?4` limit, then the narrowing's values.
    pub fn before_sql(&self) -> String {
        format!(
            "SELECT {LEAD_COLUMNS} FROM leads WHERE {} AND (created_at, id) > (?2, ?3) \
             ORDER BY created_at ASC, id ASC LIMIT ?4",
            self.filter(5)
        )
    }

    /// How many leads match. Only needed with a search: without one the
    /// per-status counts already say it. With no status to test, the matches
    /// are counted in the search table alone: its rows are live leads' (the
    /// delete trigger removes a lead's), a lead's earlier details among them,
    /// so each lead once. Looking each match up among the leads read three
    /// times the rows ('silva': 8,202 for 2,734 leads, at 100,000).
    /// Then the narrowing's values.
    pub fn count_sql(&self) -> String {
        match (self.search.matching(), self.status) {
            (Some(m), StatusFilter::All)
                if !self.is_narrowed() && self.contact == ContactFilter::Any =>
            {
                format!("SELECT count(DISTINCT lead_id) AS n FROM leads_search WHERE {m}")
            }
            _ => format!("SELECT count(*) AS n FROM leads WHERE {}", self.filter(2)),
        }
    }

    /// The page after the lead at (`?2` created_at, `?3` id), for the export:
    /// keyset paging, so the last page costs what the first does. `?4`
    /// limit, then the narrowing's values.
    pub fn after_sql(&self) -> String {
        format!(
            "SELECT {LEAD_COLUMNS} FROM leads WHERE {} AND (created_at, id) < (?2, ?3) \
             ORDER BY created_at DESC, id DESC LIMIT ?4",
            self.filter(5)
        )
    }

    pub fn offset(&self) -> i64 {
        (self.page - 1) * PAGE_SIZE
    }
}

/// Leads per delivery status, the possible duplicates and the leads waiting
/// for a person: the counters the triggers keep (migrations 0005 and 0007),
/// five rows whatever the number of leads; and the leads with a change
/// waiting for staff, from the few submissions that wait (0016's index).
pub const COUNTS_SQL: &str = "SELECT name, n FROM lead_counters \
     UNION ALL SELECT 'pending_changes' AS name, count(DISTINCT lead_id) AS n \
     FROM lead_submissions WHERE kind = 'pending'";

/// The contact chips' counts over every lead: the leads nobody contacted yet
/// (0023's counter, one row) and those `?1` contacted first (its index).
pub const CONTACT_COUNTS_SQL: &str = "SELECT \
     (SELECT n FROM contact_counters WHERE name = 'uncontacted') AS uncontacted, \
     (SELECT count(*) FROM leads WHERE first_contact_by = ?1) AS mine";

/// The counter that moves whenever anything the list shows may have
/// changed (migration 0012): one row.
pub const CHANGES_SQL: &str = "SELECT n FROM lead_changes WHERE id = 1";

#[cfg(test)]
mod tests {
    use super::*;

    fn query(qs: &str) -> LeadQuery {
        LeadQuery::from_url(
            &Url::parse(&format!("https://x.example/api/leads?{qs}")).unwrap(),
            "staff-1",
        )
    }

    #[test]
    fn the_answers_narrow_the_list_by_agency_jsons_questions_and_options_only() {
        let q = query(
            "resposta=prazo%3AAinda+n%C3%A3o+sei&resposta=finalidade%3APara+morar\
             &resposta=finalidade%3APara+investir&resposta=finalidade%3APara+alugar\
             &resposta=outra%3Ax&resposta=semdois",
        );
        assert_eq!(
            q.narrowing.answers,
            vec![("finalidade", "Para investir"), ("prazo", "Ainda não sei")]
        );
        assert!(q.is_narrowed());
        assert_eq!(
            q.narrowing.condition(4),
            " AND json_extract(answers, '$.finalidade') = ?4 \
             AND json_extract(answers, '$.prazo') = ?5"
        );
        assert!(!query("resposta=finalidade%3AOutra").is_narrowed());
    }

    #[test]
    fn the_filter_page_and_term_come_from_the_address() {
        let q = query("status=pendentes&q=Jo%C3%A3o+Silva&page=3");
        assert_eq!(q.status, StatusFilter::Pending);
        assert_eq!(q.search, Search::Indexed("\"João\" AND \"Silva\"".into()));
        assert_eq!(q.page, 3);
        assert_eq!(q.offset(), 100);
    }

    #[test]
    fn anything_unexpected_falls_back_to_the_first_page_of_everything() {
        let q = query("status=hack&page=-4&q=%20%20");
        assert_eq!(
            q,
            LeadQuery {
                status: StatusFilter::All,
                contact: ContactFilter::Any,
                search: Search::None,
                narrowing: Narrowing::default(),
                page: 1,
                cursor: None,
            }
        );
        assert_eq!(query("page=abc").page, 1);
        assert_eq!(query("page=99999999999").page, 1_000_000);
    }

    #[test]
    fn next_and_previous_carry_where_the_page_starts() {
        let next = query("page=3&after=1790000000000:lead-9");
        assert_eq!(
            next.cursor,
            Some(Cursor::After(1_790_000_000_000, "lead-9".into()))
        );
        let previous = query("page=2&before=1790000000000:lead-1");
        assert_eq!(
            previous.cursor,
            Some(Cursor::Before(1_790_000_000_000, "lead-1".into()))
        );
        assert!(
            previous
                .before_sql()
                .contains("(created_at, id) > (?2, ?3)")
        );
        // The first page is the newest leads, whatever the cursor says.
        assert_eq!(query("page=1&before=1790000000000:lead-1").cursor, None);
        // A malformed cursor is no cursor: the page is found by its number.
        for bad in [
            "x:lead",
            "-5:lead",
            "1790000000000",
            "1790000000000:",
            "1:%00",
        ] {
            assert_eq!(query(&format!("page=2&after={bad}")).cursor, None, "{bad}");
        }
    }

    #[test]
    fn phone_like_terms_search_the_digits() {
        assert_eq!(
            Search::parse("(49) 99999-8888"),
            Search::Indexed("\"49999998888\"".into())
        );
        assert_eq!(Search::parse("+55 49"), Search::Indexed("\"5549\"".into()));
        assert_eq!(Search::parse("49"), Search::Scan("*49*".into()));
    }

    #[test]
    fn a_whole_number_is_searched_as_it_is_stored() {
        let stored = Search::Indexed("\"5549999998888\"".into());
        // Its digits typed are part of the stored ones: searched as typed.
        let typed = Search::Indexed("\"49999998888\"".into());
        for (pasted, search) in [
            // Copied from WhatsApp: wrapped in direction marks, non-breaking.
            ("\u{202a}+55 49 99999-8888\u{202c}", &stored),
            (
                "\u{200e}+55\u{a0}49\u{a0}99999\u{2011}8888\u{200f}",
                &stored,
            ),
            ("\u{2066}(49) 99999-8888\u{2069}", &typed),
            (
                "\u{feff}49\u{200b}99999\u{200c}8888\u{200d}\u{2060}",
                &typed,
            ),
            // With a trunk 0, and a carrier code.
            ("049 99999-8888", &stored),
            ("0 15 49 99999-8888", &stored),
            ("+55 0 49 99999-8888", &stored),
            ("55 (49) 99999-8888", &stored),
        ] {
            assert_eq!(&Search::parse(pasted), search, "{pasted:?}");
        }
        // A part of a number is still found wherever it stands.
        assert_eq!(
            Search::parse("99999\u{2011}8888"),
            Search::Indexed("\"999998888\"".into())
        );
        // A number on its way (+55 49 3333-4444) is not read as a DDD 55 one.
        assert_eq!(
            Search::parse("55 49 3333-44"),
            Search::Indexed("\"5549333344\"".into())
        );
    }

    #[test]
    fn a_term_reads_as_names_are_stored() {
        let any_apostrophe = "(\"D'Ávila\" OR \"D’Ávila\" OR \"D‘Ávila\" OR \"DʼÁvila\" \
                              OR \"D´Ávila\" OR \"D`Ávila\")";
        // From an iPhone or a computer, and finding names stored with either.
        for typed in ["D'Ávila", "D’Ávila", "\u{200b}D\u{2019}Ávila\u{202c}"] {
            assert_eq!(
                Search::parse(typed),
                Search::Indexed(any_apostrophe.into()),
                "{typed:?}"
            );
        }
        assert_eq!(
            Search::parse("Ana D’Ávila"),
            Search::Indexed(format!("\"Ana\" AND {any_apostrophe}"))
        );
        assert_eq!(
            Search::parse("Maria d’Ávila da"),
            Search::Indexed(
                "(\"Maria d'Ávila da\" OR \"Maria d’Ávila da\" OR \"Maria d‘Ávila da\" \
                 OR \"Maria dʼÁvila da\" OR \"Maria d´Ávila da\" OR \"Maria d`Ávila da\")"
                    .into()
            )
        );
        assert_eq!(
            Search::parse("\u{202e}Zé\u{feff}"),
            Search::Scan("*[zZ][eEéÉèÈêÊëË]*".into())
        );
        assert_eq!(Search::parse("\u{200b}\u{2066}"), Search::None);
    }

    #[test]
    fn short_terms_scan_any_case_and_accent_with_wildcards_as_themselves() {
        let ze = Search::Scan("*[zZ][eEéÉèÈêÊëË]*".into());
        for typed in ["Zé", "ze", "ZÉ", "zê"] {
            assert_eq!(Search::parse(typed), ze, "{typed}");
        }
        assert_eq!(
            Search::parse("Çá"),
            Search::Scan("*[cCçÇ][aAáÁàÀâÂãÃäÄ]*".into())
        );
        assert_eq!(
            Search::parse("a*"),
            Search::Scan("*[aAáÁàÀâÂãÃäÄ][*]*".into())
        );
        assert_eq!(Search::parse(" ? "), Search::Scan("*[?]*".into()));
        assert_eq!(Search::parse("[%"), Search::Scan("*[[]%*".into()));
        assert_eq!(Search::parse("_"), Search::Scan("*_*".into()));
    }

    #[test]
    fn a_term_with_a_short_word_is_one_indexed_phrase() {
        assert_eq!(
            Search::parse("Maria  da Silva"),
            Search::Indexed("\"Maria da Silva\"".into())
        );
        assert_eq!(
            Search::parse("Aline Co"),
            Search::Indexed("\"Aline Co\"".into())
        );
        assert_eq!(Search::parse("a_ b"), Search::Indexed("\"a_ b\"".into()));
        assert_eq!(
            Search::parse(r#"a" OR "b"#),
            Search::Indexed(r#""a"" OR ""b""#.into())
        );
    }

    #[test]
    fn quotes_in_a_term_cannot_break_out_of_the_fts_string() {
        assert_eq!(
            Search::parse(r#"ana" AND "xyz"#),
            Search::Indexed(r#""ana""" AND "AND" AND """xyz""#.into())
        );
        assert_eq!(
            Search::parse("maria@exemplo.com"),
            Search::Indexed("\"maria@exemplo.com\"".into())
        );
    }

    #[test]
    fn each_filter_uses_the_condition_its_index_serves() {
        assert!(
            query("")
                .page_sql()
                .contains("WHERE 1 ORDER BY created_at DESC, id DESC")
        );
        assert!(
            query("status=pendentes")
                .page_sql()
                .contains("WHERE delivery_status = 'pending' ORDER BY")
        );
        assert!(
            query("status=enviados")
                .page_sql()
                .contains("WHERE jetimob_enviado = 1 ORDER BY")
        );
        assert!(
            query("status=falhas")
                .count_sql()
                .ends_with("WHERE (delivery_status = 'failed' OR update_status = 'failed')")
        );
        assert!(
            query("q=silva")
                .page_sql()
                .contains("leads_search MATCH ?1")
        );
        assert!(query("q=si").after_sql().contains("body GLOB ?1"));
    }

    #[test]
    fn a_search_of_every_lead_is_counted_in_the_search_table_alone() {
        let counted = |qs: &str| query(qs).count_sql();
        assert_eq!(
            counted("q=silva"),
            "SELECT count(DISTINCT lead_id) AS n FROM leads_search WHERE leads_search MATCH ?1"
        );
        assert!(counted("q=si").ends_with("WHERE body GLOB ?1"));
        // A status is the lead's: its matches are looked up among the leads.
        assert!(
            counted("status=falhas&q=silva").starts_with("SELECT count(*) AS n FROM leads WHERE")
        );
        assert!(counted("status=duplicados&q=si").contains("lead_links"));
    }

    #[test]
    fn the_attention_filter_states_its_partial_index_condition() {
        // SQLite only reads a partial index for a query that states its
        // condition; otherwise 'Falharam' would read every lead.
        let migration = include_str!("../../../migrations/0007_attention.sql");
        let condition = StatusFilter::Failed.condition();
        let bare = condition.trim_start_matches('(').trim_end_matches(')');
        assert!(migration.contains(&format!("WHERE {bare};")));
        assert!(
            include_str!("../../../schema.sql").contains(&format!("WHERE {bare};")),
            "schema.sql"
        );
    }

    #[test]
    fn control_characters_are_dropped_from_a_term() {
        assert_eq!(Search::parse("\0"), Search::None);
        assert_eq!(
            Search::parse("sil\0va"),
            Search::Indexed("\"silva\"".into())
        );
        assert_eq!(query("q=%00").search, Search::None);
    }

    #[test]
    fn the_possible_duplicates_have_their_filter() {
        let q = query("status=duplicados");
        assert_eq!(q.status, StatusFilter::Duplicates);
        assert!(
            q.page_sql()
                .contains("id IN (SELECT lead_id FROM lead_links)")
        );
    }

    #[test]
    fn a_searched_status_tests_the_matches_instead_of_walking_its_index() {
        let searched = query("status=enviados&q=joana");
        assert!(
            searched
                .count_sql()
                .contains("WHERE +jetimob_enviado = 1 AND id IN")
        );
        assert!(
            query("status=pendentes&q=joana")
                .page_sql()
                .contains("+delivery_status = 'pending'")
        );
        // Without a term the status index is what reads a page; a short term scans anyway.
        assert!(
            query("status=enviados")
                .page_sql()
                .contains("WHERE jetimob_enviado = 1 ")
        );
        assert!(
            query("status=enviados&q=jo")
                .page_sql()
                .contains("WHERE jetimob_enviado = 1 ")
        );
    }

    #[test]
    fn no_typed_text_ever_reaches_the_sql() {
        let q = query("q=%27%3B+DROP+TABLE+leads%3B--&status=enviados");
        assert!(!q.page_sql().contains("DROP"));
        assert!(!q.count_sql().contains("DROP"));
        assert!(q.search.bound().unwrap().contains("DROP"));
    }
}
