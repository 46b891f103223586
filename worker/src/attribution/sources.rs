//! One name per source, and the platform above it: the one table of the
//! aliases a link's `utm_source` (or a spend file's 'origem', or the lead
//! list's `fonte=`) may use for a source, read without case or surrounding
//! spaces. `ig`, `insta` and `Instagram` are one source, 'Instagram', under
//! the platform 'Meta'. A value the table does not know is kept as it was
//! typed, trimmed (another site's host, a partner's name), under 'Orgânico'.
//!
//! Migration 0024 folded the rows kept before with this same table; a test
//! below keeps the two equal.

use serde::Serialize;

/// Who a source belongs to: the report reads platform → source → campaign → ad.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Platform {
    Meta,
    Google,
    TikTok,
    LinkedIn,
    X,
    Microsoft,
    /// Visits and leads nobody paid a network for: shared links, e-mails,
    /// other sites, search engines without ads, names the table does not know.
    #[serde(rename = "Orgânico")]
    Organic,
    #[serde(rename = "Direto")]
    Direct,
    /// Visits past a day's limit of new lines (`visits::OVERFLOW`).
    #[serde(rename = "Outras origens")]
    Overflow,
}

impl Platform {
    /// As staff read it.
    pub fn name(self) -> &'static str {
        match self {
            Platform::Meta => "Meta",
            Platform::Google => "Google",
            Platform::TikTok => "TikTok",
            Platform::LinkedIn => "LinkedIn",
            Platform::X => "X",
            Platform::Microsoft => "Microsoft",
            Platform::Organic => "Orgânico",
            Platform::Direct => "Direto",
            Platform::Overflow => "Outras origens",
        }
    }
}

/// Each known source: its one name, its platform, and every alias (in lower
/// case) that names it. The name itself, in lower case, is always one.
pub const SOURCES: [(&str, Platform, &[&str]); 17] = [
    ("Instagram", Platform::Meta, &["ig", "insta"]),
    ("Facebook", Platform::Meta, &["fb", "face"]),
    ("Messenger", Platform::Meta, &["msg", "fb_messenger"]),
    (
        "Audience Network",
        Platform::Meta,
        &["an", "audience_network", "audiencenetwork"],
    ),
    ("Threads", Platform::Meta, &[]),
    // Spend a Meta file gives without its placement: the whole platform.
    ("Meta", Platform::Meta, &["meta ads", "meta_ads", "metaads"]),
    (
        "Google",
        Platform::Google,
        &[
            "adwords",
            "gads",
            "google ads",
            "google_ads",
            "google-ads",
            "googleads",
        ],
    ),
    ("YouTube", Platform::Google, &["yt"]),
    ("TikTok", Platform::TikTok, &["tt", "tik tok", "tiktok ads"]),
    ("LinkedIn", Platform::LinkedIn, &["lnkd"]),
    ("X", Platform::X, &["twitter"]),
    (
        "Bing",
        Platform::Microsoft,
        &["microsoft", "microsoft ads", "msads"],
    ),
    ("WhatsApp", Platform::Organic, &["wa", "whats", "zap"]),
    (
        "E-mail",
        Platform::Organic,
        &["email", "newsletter", "mail"],
    ),
    ("Yahoo", Platform::Organic, &[]),
    ("DuckDuckGo", Platform::Organic, &[]),
    ("Direto", Platform::Direct, &["direct", "(direct)"]),
];

/// The source spend is given for when a file names the whole platform
/// (Meta's files without a placement): it stands for each of its sources.
pub const WHOLE_PLATFORMS: [(&str, Platform); 1] = [("Meta", Platform::Meta)];

/// The overflow line's source (`visits::OVERFLOW`), kept as it is.
const OVERFLOW: &str = "(outras)";

fn known(value: &str) -> Option<&'static (&'static str, Platform, &'static [&'static str])> {
    let folded = value.trim().to_lowercase();
    SOURCES.iter().find(|(name, _, aliases)| {
        name.to_lowercase() == folded || aliases.contains(&folded.as_str())
    })
}

/// The one name of the source `value` names: 'Instagram' for `ig`,
/// ` INSTAGRAM ` or `insta`; anything the table does not know, trimmed.
pub fn canonical(value: &str) -> String {
    known(value).map_or_else(|| value.trim().to_string(), |(name, _, _)| name.to_string())
}

/// The platform of a source (as [`canonical`] names it).
pub fn platform(source: &str) -> Platform {
    if source == OVERFLOW {
        return Platform::Overflow;
    }
    known(source).map_or(Platform::Organic, |(_, platform, _)| *platform)
}

/// The platform a spend's source stands for whole ('Meta'), if it does.
pub fn whole_platform(source: &str) -> Option<Platform> {
    WHOLE_PLATFORMS
        .iter()
        .find_map(|(name, platform)| (*name == source).then_some(*platform))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_of_a_source_is_one_name() {
        for typed in ["Instagram", "instagram", "ig", " IG ", "insta", "INSTA"] {
            assert_eq!(canonical(typed), "Instagram", "{typed}");
        }
        for (typed, name) in [
            ("fb", "Facebook"),
            ("facebook", "Facebook"),
            ("an", "Audience Network"),
            ("msg", "Messenger"),
            ("google", "Google"),
            ("AdWords", "Google"),
            ("gads", "Google"),
            ("yt", "YouTube"),
            ("youtube", "YouTube"),
            ("tiktok", "TikTok"),
            ("whatsapp", "WhatsApp"),
            ("wa", "WhatsApp"),
            ("email", "E-mail"),
            ("newsletter", "E-mail"),
            ("direto", "Direto"),
            ("linkedin", "LinkedIn"),
            ("x", "X"),
            ("bing", "Bing"),
            ("duckduckgo", "DuckDuckGo"),
        ] {
            assert_eq!(canonical(typed), name, "{typed}");
        }
    }

    #[test]
    fn an_unknown_source_is_kept_as_typed_and_trimmed() {
        assert_eq!(canonical("  Blog do Vinho "), "Blog do Vinho");
        assert_eq!(canonical("blogdovinho.com.br"), "blogdovinho.com.br");
        assert_eq!(canonical("(outras)"), "(outras)");
        assert_eq!(platform("Blog do Vinho"), Platform::Organic);
    }

    #[test]
    fn each_source_has_its_platform() {
        assert_eq!(platform("Instagram"), Platform::Meta);
        assert_eq!(platform("Facebook"), Platform::Meta);
        assert_eq!(platform("Audience Network"), Platform::Meta);
        assert_eq!(platform("Google"), Platform::Google);
        assert_eq!(platform("YouTube"), Platform::Google);
        assert_eq!(platform("WhatsApp"), Platform::Organic);
        assert_eq!(platform("Direto"), Platform::Direct);
        assert_eq!(platform("(outras)"), Platform::Overflow);
        assert_eq!(whole_platform("Meta"), Some(Platform::Meta));
        assert_eq!(whole_platform("Instagram"), None);
    }

    #[test]
    fn the_names_the_referrers_give_are_in_the_table() {
        // attribution.rs names a visit without utm_source by these.
        for family in [
            "instagram",
            "facebook",
            "whatsapp",
            "google",
            "youtube",
            "tiktok",
            "linkedin",
            "x",
            "bing",
            "yahoo",
            "duckduckgo",
            "direto",
        ] {
            assert!(known(family).is_some(), "{family}");
        }
    }

    #[test]
    fn no_alias_names_two_sources() {
        let mut seen = std::collections::HashSet::new();
        for (name, _, aliases) in SOURCES {
            for alias in
                std::iter::once(name.to_lowercase()).chain(aliases.iter().map(|a| a.to_string()))
            {
                assert_eq!(alias, alias.to_lowercase(), "{alias}");
                assert!(seen.insert(alias.clone()), "{alias} twice");
            }
        }
    }

    #[test]
    fn the_migration_folded_the_rows_kept_before_with_this_table() {
        let migration = include_str!("../../../migrations/0024_lead_costs.sql");
        for (name, _, aliases) in SOURCES {
            for alias in
                std::iter::once(name.to_lowercase()).chain(aliases.iter().map(|a| a.to_string()))
            {
                let row = format!("('{alias}', '{name}')");
                assert!(migration.contains(&row), "{row} missing from 0024");
            }
        }
    }
}
