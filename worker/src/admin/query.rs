//! What the panel asks for: a delivery filter, a search term and a page. Parsed
//! from the query string once; the SQL is assembled from fixed fragments, so
//! nothing the user types ever becomes SQL text.

/// Leads per page in the panel.
pub const PAGE_SIZE: i64 = 50;
/// Longest search term considered.
const MAX_TERM_CHARS: usize = 100;

/// The panel's filter (`status=` in the URL, in Portuguese as staff see it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StatusFilter {
    #[default]
    All,
    /// Not in the CRM yet: pending or failed.
    Pending,
    Sent,
    /// The retry window is over: needs a person.
    Failed,
}

impl StatusFilter {
    pub fn parse(raw: &str) -> Self {
        match raw {
            "pendentes" => Self::Pending,
            "enviados" => Self::Sent,
            "falhas" => Self::Failed,
            _ => Self::All,
        }
    }

    /// A condition each index (`leads_newest`, `leads_sent_newest`,
    /// `leads_status_newest`) serves in `created_at DESC, id DESC` order.
    fn condition(self) -> &'static str {
        match self {
            Self::All => "1",
            Self::Pending => "jetimob_enviado = 0",
            Self::Sent => "jetimob_enviado = 1",
            Self::Failed => "delivery_status = 'failed'",
        }
    }
}

/// How a search term is matched against the trigram index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Search {
    None,
    /// Every word has three characters or more: an FTS5 query answered by the
    /// trigram index (each word a quoted string, all required).
    Indexed(String),
    /// A shorter term: a LIKE pattern, which scans the search table.
    Scan(String),
}

impl Search {
    /// Phone-like terms become their digits (stored numbers are searched
    /// without punctuation); others are matched as typed, ignoring case and accents.
    pub fn parse(raw: &str) -> Self {
        let term: String = raw.trim().chars().take(MAX_TERM_CHARS).collect();
        if term.is_empty() {
            return Self::None;
        }
        let phone_like = term
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, ' ' | '(' | ')' | '-' | '.' | '+'));
        let digits: String = term.chars().filter(char::is_ascii_digit).collect();
        let term = if phone_like && !digits.is_empty() {
            digits
        } else {
            term
        };
        let words: Vec<&str> = term.split_whitespace().collect();
        if words.iter().all(|w| w.chars().count() >= 3) {
            let quoted: Vec<String> = words
                .iter()
                .map(|w| format!("\"{}\"", w.replace('"', "\"\"")))
                .collect();
            Self::Indexed(quoted.join(" "))
        } else {
            let escaped = term
                .replace('\\', "\\\\")
                .replace('%', "\\%")
                .replace('_', "\\_");
            Self::Scan(format!("%{escaped}%"))
        }
    }

    /// The condition on `leads.id`; the term is bound as `?1`.
    fn condition(&self) -> &'static str {
        match self {
            Self::None => "",
            Self::Indexed(_) => {
                " AND id IN (SELECT lead_id FROM leads_search WHERE leads_search MATCH ?1)"
            }
            Self::Scan(_) => {
                " AND id IN (SELECT lead_id FROM leads_search WHERE body LIKE ?1 ESCAPE '\\')"
            }
        }
    }

    pub fn bound(&self) -> Option<&str> {
        match self {
            Self::None => None,
            Self::Indexed(t) | Self::Scan(t) => Some(t),
        }
    }
}

/// The columns the panel and the export read.
pub const LEAD_COLUMNS: &str = "id, name, email, whatsapp, origem, jetimob_enviado, \
     delivery_status, delivery_attempts, next_attempt_at, last_error, sent_at, sent_by, \
     created_at, submission_count, last_submitted_at, utm_source, utm_medium, utm_campaign, \
     utm_term, utm_content, gclid, fbclid, referrer, page_url";

/// A request for a list of leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeadQuery {
    pub status: StatusFilter,
    pub search: Search,
    /// 1-based.
    pub page: i64,
}

impl LeadQuery {
    pub fn from_url(url: &crate::http::RequestUrl) -> Self {
        let mut query = Self {
            status: StatusFilter::All,
            search: Search::None,
            page: 1,
        };
        for (key, value) in url.query_pairs() {
            match key.as_ref() {
                "status" => query.status = StatusFilter::parse(&value),
                "q" => query.search = Search::parse(&value),
                "page" => query.page = value.parse::<i64>().unwrap_or(1).clamp(1, 1_000_000),
                _ => {}
            }
        }
        query
    }

    fn filter(&self) -> String {
        format!("{}{}", self.status.condition(), self.search.condition())
    }

    /// One page, newest first. `?1` search term, `?2` limit, `?3` offset.
    pub fn page_sql(&self) -> String {
        format!(
            "SELECT {LEAD_COLUMNS} FROM leads WHERE {} ORDER BY created_at DESC, id DESC LIMIT ?2 OFFSET ?3",
            self.filter()
        )
    }

    /// How many leads match. Only needed with a search: without one the
    /// per-status counts already say it.
    pub fn count_sql(&self) -> String {
        format!("SELECT count(*) AS n FROM leads WHERE {}", self.filter())
    }

    /// The page after the lead at (`?2` created_at, `?3` id), for the export:
    /// keyset paging, so the last page costs what the first does. `?4` limit.
    pub fn after_sql(&self) -> String {
        format!(
            "SELECT {LEAD_COLUMNS} FROM leads WHERE {} AND (created_at, id) < (?2, ?3) \
             ORDER BY created_at DESC, id DESC LIMIT ?4",
            self.filter()
        )
    }

    pub fn offset(&self) -> i64 {
        (self.page - 1) * PAGE_SIZE
    }
}

/// Leads per delivery status, read from the `leads_status_newest` index.
pub const COUNTS_SQL: &str =
    "SELECT delivery_status AS status, count(*) AS n FROM leads GROUP BY delivery_status";

#[cfg(test)]
mod tests {
    use super::*;

    fn query(qs: &str) -> LeadQuery {
        LeadQuery::from_url(
            &crate::http::RequestUrl::from_serialized(&format!("https://x.example/api/leads?{qs}"))
                .unwrap(),
        )
    }

    #[test]
    fn the_filter_page_and_term_come_from_the_address() {
        let q = query("status=pendentes&q=Jo%C3%A3o+Silva&page=3");
        assert_eq!(q.status, StatusFilter::Pending);
        assert_eq!(q.search, Search::Indexed("\"João\" \"Silva\"".into()));
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
                search: Search::None,
                page: 1
            }
        );
        assert_eq!(query("page=abc").page, 1);
        assert_eq!(query("page=99999999999").page, 1_000_000);
    }

    #[test]
    fn phone_like_terms_search_the_digits() {
        assert_eq!(
            Search::parse("(49) 99999-8888"),
            Search::Indexed("\"49999998888\"".into())
        );
        assert_eq!(Search::parse("+55 49"), Search::Indexed("\"5549\"".into()));
        assert_eq!(Search::parse("49"), Search::Scan("%49%".into()));
    }

    #[test]
    fn short_terms_scan_with_wildcards_escaped() {
        assert_eq!(Search::parse("Zé"), Search::Scan("%Zé%".into()));
        assert_eq!(Search::parse("a%"), Search::Scan("%a\\%%".into()));
        assert_eq!(Search::parse("a_ b"), Search::Scan("%a\\_ b%".into()));
    }

    #[test]
    fn quotes_in_a_term_cannot_break_out_of_the_fts_string() {
        assert_eq!(
            Search::parse(r#"ana" AND "xyz"#),
            Search::Indexed(r#""ana""" "AND" """xyz""#.into())
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
                .contains("WHERE jetimob_enviado = 0 ORDER BY")
        );
        assert!(
            query("status=enviados")
                .page_sql()
                .contains("WHERE jetimob_enviado = 1 ORDER BY")
        );
        assert!(
            query("status=falhas")
                .count_sql()
                .ends_with("WHERE delivery_status = 'failed'")
        );
        assert!(
            query("q=silva")
                .page_sql()
                .contains("leads_search MATCH ?1")
        );
        assert!(query("q=si").after_sql().contains("body LIKE ?1 ESCAPE"));
    }

    #[test]
    fn no_typed_text_ever_reaches_the_sql() {
        let q = query("q=%27%3B+DROP+TABLE+leads%3B--&status=enviados");
        assert!(!q.page_sql().contains("DROP"));
        assert!(!q.count_sql().contains("DROP"));
        assert!(q.search.bound().unwrap().contains("DROP"));
    }
}
