//! The agency's details from `agency.json` (the same file the pages read),
//! read at build time by `build.rs`: the staff e-mail domain, the
//! development's name and the site's public address (e.g.
//! `https://recantodasvideiras.com.br`); the agency's, the winery's and the
//! city's names, which no staff password may be; the optional questions
//! asked after 'Sucesso!' (`QUESTIONS`), and the origins of gallery images
//! given as an address (`IMAGE_ORIGINS`).
//!
//! And what the site says in the agency's name: every text the worker
//! answers with, in Portuguese (`messages`), and the first WhatsApp message
//! a broker sends a lead (`greeting`). And who is who on its team (`roles`):
//! owners and staff, as stored, answered and written in SQL.

pub mod greeting;
pub mod messages;
pub mod roles;

/// A question of agency.json's `questions`: one tap among its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Question {
    /// The key its answer is kept under (`leads.answers`).
    pub id: &'static str,
    /// As the visitor reads it, and the panel's column.
    pub label: &'static str,
    pub options: &'static [&'static str],
}

impl Question {
    /// The question `id`, if agency.json asks it.
    pub fn find(id: &str) -> Option<&'static Question> {
        QUESTIONS.iter().find(|q| q.id == id)
    }

    /// `answer` as one of this question's options, the option's own text.
    pub fn option(&self, answer: &str) -> Option<&'static str> {
        self.options.iter().copied().find(|o| *o == answer)
    }
}

include!(concat!(env!("OUT_DIR"), "/agency.rs"));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agency_json_has_what_the_worker_needs() {
        assert!(!DEVELOPMENT_NAME.is_empty());
        assert!(STAFF_EMAIL_DOMAIN.contains('.'));
        assert!(!STAFF_EMAIL_DOMAIN.contains('@'));
        assert!(SITE_URL.starts_with("https://"));
    }

    #[test]
    fn the_constants_are_what_agency_json_says() {
        let file: serde_json::Value =
            serde_json::from_str(include_str!("../../../agency.json")).unwrap();
        assert_eq!(file["agency"]["staffEmailDomain"], STAFF_EMAIL_DOMAIN);
        assert_eq!(file["development"]["name"], DEVELOPMENT_NAME);
        assert_eq!(file["site"]["url"], SITE_URL);
        assert_eq!(file["agency"]["name"], AGENCY_NAME);
        assert_eq!(file["development"]["winery"], WINERY_NAME);
        assert_eq!(file["agency"]["city"], CITY);
        let questions = file["questions"].as_array().unwrap();
        assert_eq!(QUESTIONS.len(), questions.len());
        for (q, json) in QUESTIONS.iter().zip(questions) {
            assert_eq!(json["id"], q.id);
            assert_eq!(json["label"], q.label);
            assert_eq!(json["options"].as_array().unwrap().len(), q.options.len());
        }
    }

    #[test]
    fn an_answer_is_one_of_its_questions_options_word_for_word() {
        let q = Question::find("finalidade").unwrap();
        assert_eq!(q.option("Para morar"), Some("Para morar"));
        assert_eq!(q.option("para morar"), None);
        assert_eq!(q.option(""), None);
        assert!(Question::find("outra").is_none());
    }

    #[test]
    fn the_gallery_is_of_the_sites_own_files() {
        assert!(IMAGE_ORIGINS.is_empty());
    }
}
