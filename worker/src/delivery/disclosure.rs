//! What the public pages say of the ads (LGPD): whether a lead's hashed
//! details go to Meta (Conversions API) and Google Ads (the conversions
//! import), and whether the form asks for consent first.
//!
//! Settings: Meta is on when `META_PIXEL_ID` and `META_ACCESS_TOKEN` are both
//! set; Google when `GOOGLE_ADS_IMPORT_USER` and `GOOGLE_ADS_IMPORT_PASSWORD`
//! are; `ADS_CONSENT=checkbox` puts an unticked, optional box under the form
//! (the default: the notice alone). The senders read the same struct.
//!
//! The pages are prerendered at build time, once per combination
//! (scripts/prerender.mjs writes each under [`VARIANTS_DIR`]); the worker
//! serves the one the settings name in place of the plain page, at the same
//! address. No script runs to find out, nothing is asked of another server,
//! and the landing's inline code is the same in every variant, so its CSP
//! hashes hold (docs/decisions.md).

use crate::platform::config;

/// Where the build writes the pages of each variant: `/_anuncios/<name>/…`.
pub const VARIANTS_DIR: &str = "/_anuncios";

/// The public pages that say it (in the line under the form, the footer's
/// LGPD notice or the privacy page), by the address they are served at (the
/// 404 page has no footer), which is the variant's file's address too.
const PAGES: [&str; 4] = ["/", "/privacidade", "/obrigado", "/cadastro-nao-enviado"];

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AdsDisclosure {
    /// The Meta Conversions API is configured.
    pub meta: bool,
    /// Google Ads' conversions import is configured.
    pub google: bool,
    /// `ADS_CONSENT=checkbox`: only leads who ticked the box are sent.
    pub checkbox: bool,
}

impl AdsDisclosure {
    pub fn from_env(env: &worker::Env) -> Self {
        let read = Self::from_settings(|name| config::setting(env, name));
        if let Some(other) = config::setting(env, "ADS_CONSENT").filter(|_| !read.checkbox) {
            worker::console_warn!(
                "ADS_CONSENT={other:?} is not \"checkbox\": the notice alone is shown"
            );
        }
        read
    }

    /// Read through `setting` (unset and blank are `None`, as `config::setting` reads them).
    pub fn from_settings(setting: impl Fn(&str) -> Option<String>) -> Self {
        let both = |a: &str, b: &str| setting(a).is_some() && setting(b).is_some();
        let checkbox = setting("ADS_CONSENT").is_some_and(|c| c.eq_ignore_ascii_case("checkbox"));
        Self {
            meta: both("META_PIXEL_ID", "META_ACCESS_TOKEN"),
            google: both("GOOGLE_ADS_IMPORT_USER", "GOOGLE_ADS_IMPORT_PASSWORD"),
            checkbox,
        }
    }

    /// Some lead's details may go to an ad platform.
    pub fn any(&self) -> bool {
        self.meta || self.google
    }

    /// The form asks, and only leads who ticked the box may be sent.
    pub fn asks_consent(&self) -> bool {
        self.any() && self.checkbox
    }

    /// The name of the pages that say this (`meta-google-consentimento`);
    /// none when nothing is sent: the plain pages say so.
    pub fn variant(&self) -> Option<String> {
        if !self.any() {
            return None;
        }
        let parts = [
            self.meta.then_some("meta"),
            self.google.then_some("google"),
            self.asks_consent().then_some("consentimento"),
        ];
        Some(parts.into_iter().flatten().collect::<Vec<_>>().join("-"))
    }

    /// The file that serves `path` with these settings: the variant's own
    /// page for a public page when something is sent; none otherwise (the
    /// plain page, as the assets serve it).
    pub fn page_for(&self, path: &str) -> Option<String> {
        let variant = self.variant()?;
        let path = if path.len() > 1 {
            path.trim_end_matches('/')
        } else {
            path
        };
        let file = PAGES.iter().find(|served| **served == path)?;
        Some(format!("{VARIANTS_DIR}/{variant}{file}"))
    }
}

/// Whether `path` asks for a variant's file directly: those are served only
/// at the public pages' own addresses.
pub fn is_variant_file(path: &str) -> bool {
    path == VARIANTS_DIR || path.starts_with(&format!("{VARIANTS_DIR}/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(pairs: &[(&str, &str)]) -> AdsDisclosure {
        AdsDisclosure::from_settings(|name| {
            pairs
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        })
    }

    const META: [(&str, &str); 2] = [("META_PIXEL_ID", "123"), ("META_ACCESS_TOKEN", "t")];
    const GOOGLE: [(&str, &str); 2] = [
        ("GOOGLE_ADS_IMPORT_USER", "u"),
        ("GOOGLE_ADS_IMPORT_PASSWORD", "p"),
    ];

    #[test]
    fn a_destination_is_on_only_with_both_of_its_settings() {
        assert_eq!(with(&[]), AdsDisclosure::default());
        assert!(!with(&META[..1]).meta);
        assert!(!with(&GOOGLE[1..]).google);
        assert!(with(&META).meta && !with(&META).google);
        assert!(with(&GOOGLE).google && !with(&GOOGLE).meta);
    }

    #[test]
    fn the_consent_box_is_asked_only_when_something_is_sent() {
        let checkbox = ("ADS_CONSENT", "checkbox");
        assert!(!with(&[checkbox]).asks_consent());
        assert!(with(&[META[0], META[1], checkbox]).asks_consent());
        assert!(!with(&[META[0], META[1], ("ADS_CONSENT", "sim")]).asks_consent());
        assert!(!with(&META).asks_consent());
    }

    #[test]
    fn each_combination_names_its_pages() {
        let all = [META[0], META[1], GOOGLE[0], GOOGLE[1]];
        let checkbox = ("ADS_CONSENT", "checkbox");
        assert_eq!(with(&[]).variant(), None);
        assert_eq!(with(&[checkbox]).variant(), None);
        assert_eq!(with(&META).variant().as_deref(), Some("meta"));
        assert_eq!(with(&GOOGLE).variant().as_deref(), Some("google"));
        assert_eq!(with(&all).variant().as_deref(), Some("meta-google"));
        let mut all_asked = all.to_vec();
        all_asked.push(checkbox);
        assert_eq!(
            with(&all_asked).variant().as_deref(),
            Some("meta-google-consentimento")
        );
    }

    #[test]
    fn a_public_page_is_served_from_its_variant_and_nothing_else_is() {
        let meta = with(&META);
        assert_eq!(meta.page_for("/").as_deref(), Some("/_anuncios/meta/"));
        assert_eq!(
            meta.page_for("/privacidade/").as_deref(),
            Some("/_anuncios/meta/privacidade")
        );
        assert_eq!(
            meta.page_for("/obrigado").as_deref(),
            Some("/_anuncios/meta/obrigado")
        );
        assert_eq!(meta.page_for("/auth"), None);
        assert_eq!(meta.page_for("/assets/x.js"), None);
        assert_eq!(with(&[]).page_for("/"), None);
        assert!(is_variant_file("/_anuncios/meta/"));
        assert!(!is_variant_file("/_anunciosx"));
    }
}
