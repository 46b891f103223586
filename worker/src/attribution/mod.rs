//! Where a visit came from, told the same way for a counted visit and for a
//! lead, so the campaign report can set one beside the other: the campaign's
//! own `utm_source`, else the site or app that sent the visitor, else
//! 'direto'.

pub mod sources;

use serde::{Deserialize, Serialize};
use worker::Url;

use crate::formats::characters::{breaks_line, is_format};
use crate::http;

/// The longest a campaign's field (`utm_*`) is kept.
pub const SHORT_FIELD_MAX: usize = 200;
/// The longest a click id, a referrer or a page's address is kept.
pub const LONG_FIELD_MAX: usize = 2000;

/// Control characters, line breaks (U+2028 too) and invisible format
/// characters (bidirectional controls among them) dropped, trimmed, cut to
/// `max` characters; empty is `None`. These fields come from URLs, not from
/// typing: what a link carries can neither start a line nor turn text around
/// wherever the value is shown, and a long one is shortened, never a reason
/// to lose the lead or the visit.
pub fn clean(value: Option<String>, max: usize) -> Option<String> {
    let kept: String = value?
        .chars()
        .filter(|&c| !c.is_control() && !breaks_line(c) && !is_format(c))
        .collect();
    let cut: String = kept.trim().chars().take(max).collect();
    let cleaned = cut.trim_end();
    (!cleaned.is_empty()).then(|| cleaned.to_string())
}

/// The value, as the URL standard writes it, if it is an absolute `http://`
/// or `https://` address with a host; `javascript:`, `data:`, an app's
/// address or a relative one is `None`: the page's address and the referrer
/// are shown as links, written in CSVs and sent to the CRM. What is kept is
/// the parsed address written out again (quotes, `<`, `>` and spaces
/// percent-encoded, the host in lower case), never the text as a link wrote
/// it, so `"><svg onload=…>` reaches no CSV or CRM as markup. It must be
/// written with its host after `://`: the URL standard would also read
/// `https:x.example` or `https:///x.example` as that host, which no browser
/// sends.
pub fn web_address(value: Option<String>) -> Option<String> {
    let value = value?;
    let written_with_host = value.split_once("://").is_some_and(|(scheme, rest)| {
        (scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https"))
            && !rest.starts_with(['/', '\\'])
    });
    if !written_with_host {
        return None;
    }
    http::web_address(&value).map(String::from)
}

/// The host of an absolute address of any scheme, in lower case: a web page's,
/// or an Android app's package name (`android-app://com.whatsapp/`), which
/// says where a visit came from as well.
pub fn host_name(address: &str) -> Option<String> {
    Some(
        Url::parse(address.trim())
            .ok()?
            .host_str()?
            .to_ascii_lowercase(),
    )
}

/// A visit with no `utm_source`, no click id and no referrer from another site.
pub const DIRECT: &str = "direto";

/// A visit's source and, when no `utm_source` named it, the referrer's host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// What the report groups by: the `utm_source`, a family of sites
    /// ('instagram', 'google', 'whatsapp', …), another site's host, or
    /// [`DIRECT`].
    pub name: String,
    /// The referrer's host (without `www.`), for a visit without `utm_source`.
    pub referrer_host: Option<String>,
}

/// What a visit carries that says where it came from.
#[derive(Debug, Clone, Copy, Default)]
pub struct Arrival<'a> {
    pub utm_source: Option<&'a str>,
    pub gclid: Option<&'a str>,
    pub fbclid: Option<&'a str>,
    /// The page that sent the visitor (`Referer`, or the page's `document.referrer`).
    pub referrer: Option<&'a str>,
    /// The browser's `User-Agent`: read for an app's own browser, never kept.
    pub user_agent: Option<&'a str>,
}

/// Sites and apps that send visitors under many hosts, each read as one
/// source: a host is in a family when it is one of these or a subdomain of
/// one (`l.instagram.com`, `www.google.com.br`); Android apps send their
/// package name (`android-app://com.whatsapp/`).
const FAMILIES: [(&str, &[&str]); 11] = [
    (
        "instagram",
        &["instagram.com", "com.instagram.android", "ig.me"],
    ),
    (
        "facebook",
        &[
            "facebook.com",
            "fb.com",
            "fb.me",
            "m.me",
            "messenger.com",
            "com.facebook.katana",
            "com.facebook.orca",
            "com.facebook.lite",
        ],
    ),
    (
        "whatsapp",
        &[
            "whatsapp.com",
            "whatsapp.net",
            "wa.me",
            "com.whatsapp",
            "com.whatsapp.w4b",
        ],
    ),
    (
        "google",
        &[
            "google.com",
            "google.com.br",
            "googleadservices.com",
            "googlesyndication.com",
            "com.google.android.googlequicksearchbox",
            "com.google.android.gm",
        ],
    ),
    (
        "youtube",
        &["youtube.com", "youtu.be", "com.google.android.youtube"],
    ),
    (
        "tiktok",
        &[
            "tiktok.com",
            "com.zhiliaoapp.musically",
            "com.ss.android.ugc.trill",
        ],
    ),
    (
        "linkedin",
        &["linkedin.com", "lnkd.in", "com.linkedin.android"],
    ),
    (
        "x",
        &["x.com", "twitter.com", "t.co", "com.twitter.android"],
    ),
    ("bing", &["bing.com"]),
    ("yahoo", &["yahoo.com", "yahoo.com.br"]),
    ("duckduckgo", &["duckduckgo.com"]),
];

/// In-app browsers that open a link without a referrer but name their app
/// in the `User-Agent`.
const IN_APP_BROWSERS: [(&str, &str); 5] = [
    ("Instagram", "instagram"),
    ("FBAN/", "facebook"),
    ("FBAV/", "facebook"),
    ("LinkedInApp", "linkedin"),
    ("musical_ly", "tiktok"),
];

/// The family of `host`, if it has one.
fn family(host: &str) -> Option<&'static str> {
    FAMILIES.iter().find_map(|(name, hosts)| {
        hosts
            .iter()
            .any(|h| host == *h || host.strip_suffix(h).is_some_and(|rest| rest.ends_with('.')))
            .then_some(*name)
    })
}

/// The referrer's host in lower case without `www.` (and a final dot), if
/// it has one and it is not `own_host`.
pub fn referrer_host(referrer: &str, own_host: &str) -> Option<String> {
    let host = host_name(referrer)?;
    let host = host.trim_end_matches('.');
    let host = host.strip_prefix("www.").unwrap_or(host);
    let own = own_host.trim_end_matches('.').to_ascii_lowercase();
    let own = own.strip_prefix("www.").unwrap_or(&own);
    (!host.is_empty() && host != own).then(|| host.to_string())
}

/// The value, trimmed, unless it is blank.
fn present(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|v| !v.is_empty())
}

impl Source {
    /// Where `arrival` came from, for a site served at `own_host`: its
    /// `utm_source`; a Google Ads click (`gclid`) is 'google'; else the
    /// referrer's family or host, or the app whose browser opened the page;
    /// a Meta click id (`fbclid`) without those is 'facebook'; else
    /// [`DIRECT`].
    pub fn of(arrival: &Arrival, own_host: &str) -> Self {
        if let Some(utm_source) = present(arrival.utm_source) {
            return Self {
                name: sources::canonical(utm_source),
                referrer_host: None,
            };
        }
        let host = present(arrival.referrer).and_then(|r| referrer_host(r, own_host));
        let in_app = arrival.user_agent.and_then(|ua| {
            IN_APP_BROWSERS
                .iter()
                .find_map(|(mark, name)| ua.contains(mark).then_some(*name))
        });
        let name = if present(arrival.gclid).is_some() {
            "google".to_string()
        } else if let Some(host) = &host {
            family(host).map_or_else(|| host.clone(), str::to_string)
        } else if let Some(app) = in_app {
            app.to_string()
        } else if present(arrival.fbclid).is_some() {
            "facebook".to_string()
        } else {
            DIRECT.to_string()
        };
        Self {
            name: sources::canonical(&name),
            referrer_host: host,
        }
    }
}

/// The one list of a lead's attribution, in the order every list of it
/// follows: `name Kind "CSV header"`. Each field is a column of `leads` (the
/// first touch) and of `lead_submissions` (each time the form was sent), a
/// field of the form's body, of the panel's and the webhook's JSON and of the
/// CSV; a campaign field or a click id is also read from the page's address.
/// A new click id is a migration (its two columns) and one line here: the
/// struct, the SQL column lists ([`attribution_columns`]), the form's and the
/// address's parameters and the CSV follow from it.
///
/// Called with a macro to give the list to (`[path::to::macro] extra`): it
/// gets `[extra] name Kind "header", …`.
macro_rules! attribution_fields {
    ([$($callback:tt)+] $($extra:tt)*) => {
        $($callback)+ ! { [$($extra)*]
            utm_source Campaign "UTM Source",
            utm_medium Campaign "UTM Medium",
            utm_campaign Campaign "UTM Campaign",
            utm_term Campaign "UTM Term",
            utm_content Campaign "UTM Content",
            gclid ClickId "GCLID",
            gbraid ClickId "GBRAID",
            wbraid ClickId "WBRAID",
            fbclid ClickId "FBCLID",
            msclkid ClickId "MSCLKID",
            ttclid ClickId "TTCLID",
            referrer Address "Referência",
            page_url Address "Página",
        }
    };
}

/// The attribution's columns as SQL, each after `prefix` (a table's alias
/// and a dot, or nothing): `"utm_source, utm_medium, …"`, a literal for `concat!`.
macro_rules! attribution_columns {
    () => {
        $crate::attribution::attribution_columns!("")
    };
    ($prefix:literal) => {
        $crate::attribution::attribution_fields!([$crate::attribution::column_list] $prefix)
    };
}

/// The attribution's values read from the JSON object bound to `param` (the
/// [`Attribution`] serialized), as SQL: `"json_extract(?7, '$.utm_source'), …"`,
/// in the order of [`attribution_columns`].
macro_rules! attribution_from_json {
    ($param:literal) => {
        $crate::attribution::attribution_fields!([$crate::attribution::json_list] $param)
    };
}

/// The attribution's columns as the members of a SQL `json_object(…)`, each
/// read after `prefix`: `"'utm_source', utm_source, …"`.
macro_rules! attribution_json_members {
    ($prefix:literal) => {
        $crate::attribution::attribution_fields!([$crate::attribution::json_members] $prefix)
    };
}

macro_rules! column_list {
    ([$prefix:literal] $first:ident $fk:ident $fh:literal $(, $name:ident $kind:ident $h:literal)* $(,)?) => {
        concat!($prefix, stringify!($first) $(, ", ", $prefix, stringify!($name))*)
    };
}

macro_rules! json_list {
    ([$param:literal] $first:ident $fk:ident $fh:literal $(, $name:ident $kind:ident $h:literal)* $(,)?) => {
        concat!(
            "json_extract(", $param, ", '$.", stringify!($first), "')"
            $(, ", json_extract(", $param, ", '$.", stringify!($name), "')")*
        )
    };
}

macro_rules! json_members {
    ([$prefix:literal] $first:ident $fk:ident $fh:literal $(, $name:ident $kind:ident $h:literal)* $(,)?) => {
        concat!(
            "'", stringify!($first), "', ", $prefix, stringify!($first)
            $(, ", '", stringify!($name), "', ", $prefix, stringify!($name))*
        )
    };
}

pub(crate) use {
    attribution_columns, attribution_fields, attribution_from_json, attribution_json_members,
    column_list, json_list, json_members,
};

/// How a field of the attribution is read and kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A campaign's `utm_*`, from the page's address: [`clean`]ed, at most
    /// [`SHORT_FIELD_MAX`] characters.
    Campaign,
    /// A click id an ad platform adds to the page's address: [`clean`]ed, at
    /// most [`LONG_FIELD_MAX`].
    ClickId,
    /// An address (the referrer, the page): kept only as a web address
    /// ([`web_address`]), at most [`LONG_FIELD_MAX`] before it is parsed.
    Address,
}

impl Kind {
    /// Whether a field of this kind is a parameter of the page's address.
    pub fn in_page_address(self) -> bool {
        matches!(self, Kind::Campaign | Kind::ClickId)
    }

    /// The value as a field of this kind keeps it.
    pub fn keep(self, value: Option<String>) -> Option<String> {
        match self {
            Kind::Campaign => clean(value, SHORT_FIELD_MAX),
            Kind::ClickId => clean(value, LONG_FIELD_MAX),
            Kind::Address => web_address(clean(value, LONG_FIELD_MAX)),
        }
    }
}

/// One field of the attribution: its name (column, JSON and body field), its
/// kind and its CSV header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Field {
    pub name: &'static str,
    pub kind: Kind,
    pub header: &'static str,
}

macro_rules! define_attribution {
    ([] $($name:ident $kind:ident $header:literal),+ $(,)?) => {
        /// Where the visitor came from and which campaign brought them: as the
        /// `leads` table's columns name it, so a row reads into it and an
        /// answer writes it out with the same names (`#[serde(flatten)]`).
        #[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
        pub struct Attribution {
            $(pub $name: Option<String>,)+
        }

        impl Attribution {
            /// Every field, in the list's order.
            pub const FIELDS: &'static [Field] = &[
                $(Field { name: stringify!($name), kind: Kind::$kind, header: $header },)+
            ];

            /// The value of each field, in [`Self::FIELDS`]' order.
            pub fn values(&self) -> Vec<Option<&str>> {
                vec![$(self.$name.as_deref(),)+]
            }

            /// An attribution whose each field is `value(field)`.
            pub fn from_each(mut value: impl FnMut(&Field) -> Option<String>) -> Self {
                let mut fields = Self::FIELDS.iter();
                Self {
                    $($name: fields.next().and_then(&mut value),)+
                }
            }
        }
    };
}
attribution_fields!([define_attribution]);

impl Attribution {
    /// Each field as its kind keeps it (see [`Kind::keep`]).
    pub fn kept(&self) -> Self {
        let values = self.values();
        let mut at = 0;
        Self::from_each(|field| {
            let value = values[at].map(str::to_string);
            at += 1;
            field.kind.keep(value)
        })
    }

    /// The attribution as the JSON object its statements read
    /// ([`attribution_from_json`]).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{}".to_string())
    }

    /// A Google Ads click id of any kind (`gclid`, or `gbraid`/`wbraid` from
    /// apps on iPhone), the first it has.
    pub fn google_click(&self) -> Option<&str> {
        self.gclid
            .as_deref()
            .or(self.gbraid.as_deref())
            .or(self.wbraid.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::characters::is_bidi_control;
    use proptest::prelude::*;

    const OWN: &str = "recantodasvideiras.com.br";

    fn cleaned(value: &str) -> Option<String> {
        clean(Some(value.to_string()), SHORT_FIELD_MAX)
    }

    #[test]
    fn every_list_of_the_attribution_follows_the_one_definition() {
        let names: Vec<&str> = Attribution::FIELDS.iter().map(|f| f.name).collect();
        assert_eq!(attribution_columns!(), names.join(", "));
        assert_eq!(
            attribution_columns!("s."),
            names
                .iter()
                .map(|n| format!("s.{n}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        assert_eq!(
            attribution_from_json!("?7"),
            names
                .iter()
                .map(|n| format!("json_extract(?7, '$.{n}')"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        assert_eq!(
            attribution_json_members!("p."),
            names
                .iter()
                .map(|n| format!("'{n}', p.{n}"))
                .collect::<Vec<_>>()
                .join(", ")
        );
        // The struct's own names, as serde writes them, are the columns'.
        let every = Attribution::from_each(|f| Some(f.name.to_uppercase()));
        let json: serde_json::Value = serde_json::from_str(&every.to_json()).unwrap();
        for name in &names {
            assert_eq!(json[name], name.to_uppercase(), "{name}");
        }
        assert_eq!(
            every.values(),
            names
                .iter()
                .map(|n| Some(n.to_uppercase()))
                .collect::<Vec<_>>()
                .iter()
                .map(|v| v.as_deref())
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn each_field_is_kept_as_its_kind_says() {
        let raw = Attribution::from_each(|f| match f.kind {
            Kind::Campaign => Some(format!(" {}\u{2028}x ", "c".repeat(300))),
            Kind::ClickId => Some(" Cj0KCQ-abc ".into()),
            Kind::Address => Some("javascript:alert(1)".into()),
        });
        let kept = raw.kept();
        assert_eq!(
            kept.utm_campaign.as_deref().map(str::len),
            Some(SHORT_FIELD_MAX)
        );
        assert_eq!(kept.gbraid.as_deref(), Some("Cj0KCQ-abc"));
        assert_eq!(kept.page_url, None);
        assert_eq!(kept.referrer, None);
        assert!(
            Attribution::FIELDS
                .iter()
                .any(|f| f.name == "wbraid" && f.kind.in_page_address())
        );
        assert!(
            !Attribution::FIELDS
                .iter()
                .any(|f| f.name == "page_url" && f.kind.in_page_address())
        );
    }

    #[test]
    fn a_google_click_is_its_gclid_else_its_gbraid_or_wbraid() {
        let mut a = Attribution {
            wbraid: Some("w".into()),
            ..Attribution::default()
        };
        assert_eq!(a.google_click(), Some("w"));
        a.gbraid = Some("g".into());
        assert_eq!(a.google_click(), Some("g"));
        a.gclid = Some("c".into());
        assert_eq!(a.google_click(), Some("c"));
        assert_eq!(Attribution::default().google_click(), None);
    }

    #[test]
    fn a_links_value_cannot_start_a_line_or_turn_text_around() {
        assert_eq!(
            cleaned("verao\u{2028}Ver no painel: https://evil.example\u{2029}"),
            Some("veraoVer no painel: https://evil.example".into())
        );
        assert_eq!(
            cleaned("\u{202e}oirev\u{202c} \u{2066}x\u{2069}\u{200f}\u{61c}"),
            Some("oirev x".into())
        );
        assert_eq!(
            cleaned(" pre\r\n-lancamento\u{85}\t"),
            Some("pre-lancamento".into())
        );
        assert_eq!(cleaned("\u{2028}\u{200b}\u{feff} "), None);
    }

    #[test]
    fn only_an_absolute_web_address_is_kept() {
        for (kept, as_parsed) in [
            (
                "https://recantodasvideiras.com.br/?utm_source=google",
                "https://recantodasvideiras.com.br/?utm_source=google",
            ),
            ("http://x.example", "http://x.example/"),
            ("HTTPS://X.example/a#b", "https://x.example/a#b"),
            (
                "https://x.example/?q=\"><svg onload=alert(1)>",
                "https://x.example/?q=%22%3E%3Csvg%20onload=alert(1)%3E",
            ),
            (
                "https://x.example/a b/\"c\"<d>",
                "https://x.example/a%20b/%22c%22%3Cd%3E",
            ),
        ] {
            assert_eq!(
                web_address(Some(kept.into())).as_deref(),
                Some(as_parsed),
                "{kept}"
            );
        }
        for dropped in [
            "javascript:alert(1)",
            "JavaScript://x.example/%0aalert(1)",
            "data:text/html,<script>alert(1)</script>",
            "/privacidade",
            "//evil.example/",
            "android-app://com.whatsapp/",
            "ftp://x.example/",
            "https:///sem-host",
            "https://<b>/",
            "não é um endereço",
        ] {
            assert_eq!(web_address(Some(dropped.into())), None, "{dropped}");
        }
        assert_eq!(web_address(None), None);
    }

    proptest! {
        #[test]
        fn a_cleaned_value_is_one_line_in_reading_order_within_its_length(
            raw in "[a-z \u{2028}\u{2029}\u{202a}-\u{202e}\u{2066}-\u{2069}\u{200b}-\u{200f}\n\r\t\u{85}é🍇]{0,60}",
            max in 1usize..40,
        ) {
            if let Some(value) = clean(Some(raw), max) {
                prop_assert!(value.chars().count() <= max);
                prop_assert_eq!(value.trim(), value.as_str());
                prop_assert!(!value.chars().any(|c| c.is_control()
                    || crate::formats::characters::breaks_line(c)
                    || is_format(c)
                    || is_bidi_control(c)));
            }
        }

        #[test]
        fn a_kept_web_address_is_http_or_https(raw in "\\PC{0,40}") {
            if let Some(url) = web_address(Some(raw)) {
                let scheme = url.split_once("://").map(|(s, _)| s.to_ascii_lowercase());
                prop_assert!(matches!(scheme.as_deref(), Some("http" | "https")), "{}", url);
            }
        }
    }

    fn from_referrer(referrer: &str) -> Source {
        Source::of(
            &Arrival {
                referrer: Some(referrer),
                ..Arrival::default()
            },
            OWN,
        )
    }

    #[test]
    fn a_campaigns_utm_source_names_it_whatever_else_came_along() {
        let source = Source::of(
            &Arrival {
                utm_source: Some(" instagram "),
                gclid: Some("g"),
                referrer: Some("https://www.google.com/"),
                ..Arrival::default()
            },
            OWN,
        );
        assert_eq!(
            source,
            Source {
                name: "Instagram".into(),
                referrer_host: None
            }
        );
    }

    #[test]
    fn a_referrer_is_read_as_its_family_and_its_host_kept() {
        for (referrer, name, host) in [
            (
                "https://l.instagram.com/?u=x",
                "Instagram",
                "l.instagram.com",
            ),
            (
                "https://www.google.com.br/search?q=x",
                "Google",
                "google.com.br",
            ),
            ("https://wa.me/", "WhatsApp", "wa.me"),
            ("android-app://com.whatsapp/", "WhatsApp", "com.whatsapp"),
            (
                "https://lm.facebook.com/l.php",
                "Facebook",
                "lm.facebook.com",
            ),
            ("https://t.co/abc", "X", "t.co"),
            (
                "https://www.blogdovinho.com.br/post",
                "blogdovinho.com.br",
                "blogdovinho.com.br",
            ),
        ] {
            assert_eq!(
                from_referrer(referrer),
                Source {
                    name: name.into(),
                    referrer_host: Some(host.into())
                },
                "{referrer}"
            );
        }
    }

    #[test]
    fn a_host_that_only_ends_like_a_family_is_not_in_it() {
        assert_eq!(
            from_referrer("https://notgoogle.com/").name,
            "notgoogle.com"
        );
        assert_eq!(from_referrer("https://fakewa.me/").name, "fakewa.me");
    }

    #[test]
    fn no_referrer_our_own_pages_or_nonsense_is_direct() {
        for referrer in [
            "",
            "  ",
            "https://www.recantodasvideiras.com.br/privacidade",
            "not a url",
        ] {
            assert_eq!(
                from_referrer(referrer),
                Source {
                    name: "Direto".into(),
                    referrer_host: None
                },
                "{referrer:?}"
            );
        }
    }

    #[test]
    fn click_ids_and_in_app_browsers_name_a_visit_without_referrer() {
        let of = |arrival: Arrival| Source::of(&arrival, OWN).name;
        assert_eq!(
            of(Arrival {
                gclid: Some("abc"),
                ..Arrival::default()
            }),
            "Google"
        );
        assert_eq!(
            of(Arrival {
                fbclid: Some("abc"),
                ..Arrival::default()
            }),
            "Facebook"
        );
        let instagram = "Mozilla/5.0 (iPhone) Mobile/15E148 Instagram 312.0.0.21.109";
        assert_eq!(
            of(Arrival {
                user_agent: Some(instagram),
                fbclid: Some("x"),
                ..Arrival::default()
            }),
            "Instagram"
        );
        let facebook = "Mozilla/5.0 (iPhone) [FBAN/FBIOS;FBAV/450.0.0.38.108]";
        assert_eq!(
            of(Arrival {
                user_agent: Some(facebook),
                ..Arrival::default()
            }),
            "Facebook"
        );
        // A referrer says more than the browser it was opened in.
        assert_eq!(
            of(Arrival {
                user_agent: Some(instagram),
                referrer: Some("https://www.google.com/"),
                ..Arrival::default()
            }),
            "Google"
        );
    }
}
