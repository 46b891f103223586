//! The agency's details from `agency.json` (the same file the pages read),
//! read at build time by `build.rs`: the staff e-mail domain, the
//! development's name and the site's public address (e.g.
//! `https://recantodasvideiras.com.br`); the agency's, the winery's and the
//! city's names, which no staff password may be.

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
            serde_json::from_str(include_str!("../../agency.json")).unwrap();
        assert_eq!(file["agency"]["staffEmailDomain"], STAFF_EMAIL_DOMAIN);
        assert_eq!(file["development"]["name"], DEVELOPMENT_NAME);
        assert_eq!(file["site"]["url"], SITE_URL);
        assert_eq!(file["agency"]["name"], AGENCY_NAME);
        assert_eq!(file["development"]["winery"], WINERY_NAME);
        assert_eq!(file["agency"]["city"], CITY);
    }
}
