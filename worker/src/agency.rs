//! The agency's details from `agency.json` (the same file the pages read),
//! embedded at build time.

use std::sync::OnceLock;

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Agency {
    pub staff_email_domain: String,
}

#[derive(Debug, Deserialize)]
pub struct Development {
    pub name: String,
}

#[derive(Debug, Deserialize)]
pub struct Site {
    /// The public address of the site, e.g. `https://recantodasvideiras.com.br`.
    pub url: String,
}

#[derive(Debug, Deserialize)]
pub struct AgencyConfig {
    pub agency: Agency,
    pub development: Development,
    pub site: Site,
}

const AGENCY_JSON: &str = include_str!("../../agency.json");

pub fn config() -> &'static AgencyConfig {
    static CONFIG: OnceLock<AgencyConfig> = OnceLock::new();
    CONFIG.get_or_init(|| {
        serde_json::from_str(AGENCY_JSON).expect("agency.json is valid (checked by cargo test)")
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn agency_json_has_what_the_worker_needs() {
        let c = super::config();
        assert!(!c.development.name.is_empty());
        assert!(c.agency.staff_email_domain.contains('.'));
        assert!(!c.agency.staff_email_domain.contains('@'));
        assert!(c.site.url.starts_with("https://"));
    }
}
