//! A lead as the visitor typed it becomes a [`NewLead`] only through
//! [`NewLead::parse`]: past that point no code can hold an invalid name,
//! e-mail or WhatsApp number.

use crate::agency::messages;
use crate::attribution::{
    Arrival, Attribution, LONG_FIELD_MAX, SHORT_FIELD_MAX, Source, clean as optional_text,
    host_name,
};
use crate::formats::characters::{breaks_line, is_visible, looks_blank, plain_text};
use crate::formats::email;
use crate::formats::whatsapp::WhatsApp;
use crate::http::{Field, FieldErrors, Fields};

pub const NAME_MAX_CHARS: usize = 120;
pub const EMAIL_MAX_CHARS: usize = 254;

/// A full name: invisible characters dropped and apostrophes made `'`
/// ([`plain_text`]), trimmed, inner whitespace collapsed, 1 to 120 characters.
/// Bidirectional controls are invisible, so they are dropped like the rest; a
/// line break inside the name (U+2028 too) or a letter that shows as blank
/// (U+3164 …) is refused, and a name with nothing visible is missing: the
/// name heads a line of the staff's e-mails and lists.
/// Names stored before this keep their form: a `D’Ávila` stays so until its
/// person sends the form again (once in the CRM, that first plain submission
/// is a correction, once); search finds them either way (see
/// `admin::query::Search`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeadName(String);

impl LeadName {
    pub fn parse(raw: &str) -> Result<Self, &'static str> {
        let plain = plain_text(raw);
        if !plain.chars().any(is_visible) {
            return Err(messages::FIELD_REQUIRED);
        }
        if plain.trim().chars().any(breaks_line) {
            return Err(messages::NAME_INVALID);
        }
        let collapsed = plain.split_whitespace().collect::<Vec<_>>().join(" ");
        if collapsed.chars().any(|c| c.is_control() || looks_blank(c)) {
            return Err(messages::NAME_INVALID);
        }
        if collapsed.chars().count() > NAME_MAX_CHARS {
            return Err(messages::NAME_TOO_LONG);
        }
        Ok(Self(collapsed))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An e-mail address: trimmed, lower-cased, at most 254 characters, with a
/// local part and a dotted domain of the shapes mail servers accept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeadEmail(String);

impl LeadEmail {
    pub fn parse(raw: &str) -> Result<Self, &'static str> {
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            return Err(messages::FIELD_REQUIRED);
        }
        if trimmed.chars().count() > EMAIL_MAX_CHARS {
            return Err(messages::EMAIL_TOO_LONG);
        }
        email::normalise(trimmed)
            .map(Self)
            .ok_or(messages::EMAIL_INVALID)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A lead ready to be stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewLead {
    pub name: LeadName,
    pub email: LeadEmail,
    pub whatsapp: WhatsApp,
    pub origem: String,
    pub attribution: Attribution,
    /// Where the visit came from, as the campaign report groups it.
    pub source: Source,
    /// Whether the visitor ticked the ads' consent box (`ADS_CONSENT=checkbox`).
    pub ads_consent: bool,
}

/// Why a submission was refused: a message for the toast and one per field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    pub message: &'static str,
    pub fields: FieldErrors,
}

/// The landing form's submission, before validation.
#[derive(Debug, Default)]
pub struct Submission {
    pub name: Option<String>,
    pub email: Option<String>,
    pub whatsapp: Option<String>,
    pub origem: Option<String>,
    pub attribution: Attribution,
    /// The hidden fields only bots fill: the form's, and the one older pages had.
    pub honeypot: Option<String>,
    pub old_honeypot: Option<String>,
    /// The sending browser's `User-Agent`, read for its source and never kept.
    pub user_agent: Option<String>,
    /// The ads' consent box was ticked: `true` in JSON, `on` from a plain form post.
    pub ads_consent: bool,
}

/// The body field of the ads' consent box.
pub const ADS_CONSENT_FIELD: &str = "ads_consent";

/// Whether a box's field says ticked: JSON's `true`, a form's `on` (a
/// checkbox's value when it has none of its own), `true` or `1`.
fn ticked(field: Option<&Field>) -> bool {
    match field {
        Some(Field::Bool(flag)) => *flag,
        Some(Field::Text(text)) => matches!(text.trim(), "on" | "true" | "1"),
        _ => false,
    }
}

/// Name of the hidden honeypot field of the landing form: a name no
/// browser's autofill recognises, so it never fills it for a real visitor.
pub const HONEYPOT_FIELD: &str = "hp_nao_preencher";
/// The honeypot of earlier pages ("website", which autofill could fill):
/// still a bot's sign when filled by a script, no longer on the form.
pub const OLD_HONEYPOT_FIELD: &str = "website";

impl Submission {
    /// Reads the JSON object's known fields; any of them that is not a string
    /// is refused.
    pub fn from_fields(body: &Fields) -> Result<Self, Rejection> {
        let mut fields = FieldErrors::new();
        let mut take = |key: &'static str| match body.text(key) {
            Ok(v) => v,
            Err(()) => {
                fields.push((key, messages::FIELD_INVALID.to_string()));
                None
            }
        };
        let submission = Submission {
            name: take("name"),
            email: take("email"),
            whatsapp: take("whatsapp"),
            origem: take("origem"),
            attribution: Attribution::from_each(|field| take(field.name)),
            honeypot: take(HONEYPOT_FIELD),
            old_honeypot: take(OLD_HONEYPOT_FIELD),
            user_agent: None,
            ads_consent: ticked(body.get(ADS_CONSENT_FIELD)),
        };
        if fields.is_empty() {
            Ok(submission)
        } else {
            Err(Rejection {
                message: messages::CHECK_FIELDS,
                fields,
            })
        }
    }

    /// The honeypot field that was filled, if one was: then a bot sent it.
    pub fn honeypot_filled(&self) -> Option<&'static str> {
        let filled = |v: &Option<String>| v.as_deref().is_some_and(|v| !v.trim().is_empty());
        if filled(&self.honeypot) {
            Some(HONEYPOT_FIELD)
        } else if filled(&self.old_honeypot) {
            Some(OLD_HONEYPOT_FIELD)
        } else {
            None
        }
    }
}

impl NewLead {
    /// Validates and normalises every field; `site_host` is our own host, so a
    /// referrer from our own pages does not count as an origin.
    pub fn parse(submission: Submission, site_host: &str) -> Result<Self, Rejection> {
        let name = LeadName::parse(submission.name.as_deref().unwrap_or(""));
        let email = LeadEmail::parse(submission.email.as_deref().unwrap_or(""));
        let whatsapp = WhatsApp::parse(submission.whatsapp.as_deref().unwrap_or(""));

        let mut fields = FieldErrors::new();
        let mut missing = false;
        for (key, error) in [
            ("name", name.as_ref().err()),
            ("email", email.as_ref().err()),
            ("whatsapp", whatsapp.as_ref().err()),
        ] {
            if let Some(&message) = error {
                missing |= message == messages::FIELD_REQUIRED;
                fields.push((key, message.to_string()));
            }
        }
        let (Ok(name), Ok(email), Ok(whatsapp)) = (name, email, whatsapp) else {
            let message = if missing {
                messages::FILL_ALL_FIELDS
            } else {
                messages::CHECK_FIELDS
            };
            return Err(Rejection { message, fields });
        };

        let a = submission.attribution;
        // Where the visit came from is read from the referrer as sent (an
        // Android app sends `android-app://com.whatsapp/`); only a web
        // address is kept, so no other scheme reaches the panel or the CRM.
        let referrer = optional_text(a.referrer.clone(), LONG_FIELD_MAX);
        let attribution = a.kept();
        let origem = derive_origem(
            optional_text(submission.origem, SHORT_FIELD_MAX),
            attribution.utm_source.as_deref(),
            referrer.as_deref(),
            site_host,
        );
        let source = Source::of(
            &Arrival {
                utm_source: attribution.utm_source.as_deref(),
                gclid: attribution.google_click(),
                fbclid: attribution.fbclid.as_deref(),
                referrer: referrer.as_deref(),
                user_agent: submission.user_agent.as_deref(),
            },
            site_host,
        );
        Ok(NewLead {
            name,
            email,
            whatsapp,
            origem,
            attribution,
            source,
            ads_consent: submission.ads_consent,
        })
    }
}

/// The request's `origem` if given, else `utm_source`, else the referrer's
/// host (other than our own), else `site`.
fn derive_origem(
    origem: Option<String>,
    utm_source: Option<&str>,
    referrer: Option<&str>,
    site_host: &str,
) -> String {
    origem
        .or_else(|| utm_source.map(str::to_string))
        .or_else(|| {
            let host = host_name(referrer?)?;
            let host = host.strip_prefix("www.").unwrap_or(&host).to_string();
            let own = site_host.strip_prefix("www.").unwrap_or(site_host);
            (!host.is_empty() && !host.eq_ignore_ascii_case(own)).then_some(host)
        })
        .unwrap_or_else(|| "site".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::whatsapp::{BRAZIL_DDDS, format_whatsapp};
    use proptest::prelude::*;

    fn whatsapp(raw: &str) -> Result<String, &'static str> {
        WhatsApp::parse(raw).map(|w| w.0)
    }

    #[test]
    fn a_brazilian_mobile_is_normalised_to_e164_whatever_the_punctuation() {
        for raw in [
            "(49) 99999-8888",
            "49 99999 8888",
            "49.99999.8888",
            "49999998888",
            " 49-9-9999-8888 ",
            "+55 (49) 99999-8888",
            "+5549999998888",
            "55 49 99999-8888",
            "5549999998888",
            "049 99999-8888",
            "0 49 99999 8888",
            "0 15 49 99999-8888",
            "(49)\u{a0}99999-8888",
        ] {
            assert_eq!(whatsapp(raw), Ok("+5549999998888".into()), "{raw:?}");
        }
    }

    #[test]
    fn a_ten_digit_landline_is_accepted() {
        assert_eq!(whatsapp("(48) 3333-4444"), Ok("+554833334444".into()));
        assert_eq!(whatsapp("+55 11 2345-6789"), Ok("+551123456789".into()));
    }

    #[test]
    fn ddd_55_is_not_mistaken_for_the_country_code() {
        assert_eq!(whatsapp("(55) 99999-8888"), Ok("+5555999998888".into()));
        assert_eq!(whatsapp("55 3222-1111"), Ok("+555532221111".into()));
    }

    #[test]
    fn area_codes_that_do_not_exist_are_refused() {
        for raw in [
            "(20) 99999-8888",
            "(23) 99999-8888",
            "(10) 99999-8888",
            "(00) 99999-8888",
        ] {
            assert_eq!(whatsapp(raw), Err(messages::WHATSAPP_BAD_DDD), "{raw:?}");
        }
    }

    #[test]
    fn a_nine_digit_number_must_be_a_mobile_starting_with_9() {
        assert_eq!(
            whatsapp("(49) 89999-8888"),
            Err(messages::WHATSAPP_MOBILE_NINE)
        );
        assert_eq!(
            whatsapp("(49) 9999-8888"),
            Err(messages::WHATSAPP_MOBILE_NINE)
        );
    }

    #[test]
    fn numbers_of_the_wrong_length_or_with_letters_are_refused() {
        for raw in [
            "49 9999-888",
            "49 99999-88888",
            "123",
            "abc",
            "(49) 9999a-8888",
            "+",
            "++55 49 99999 8888",
        ] {
            assert_eq!(whatsapp(raw), Err(messages::WHATSAPP_INVALID), "{raw:?}");
        }
        assert_eq!(whatsapp("   "), Err(messages::FIELD_REQUIRED));
    }

    #[test]
    fn a_plausible_foreign_number_typed_with_plus_is_kept() {
        assert_eq!(whatsapp("+1 (415) 555-2671"), Ok("+14155552671".into()));
        assert_eq!(whatsapp("+351 912 345 678"), Ok("+351912345678".into()));
        assert_eq!(whatsapp("+1 234"), Err(messages::WHATSAPP_INVALID));
        assert_eq!(whatsapp("+0 123 456 789"), Err(messages::WHATSAPP_INVALID));
        assert_eq!(
            whatsapp("+1234567890123456"),
            Err(messages::WHATSAPP_INVALID)
        );
    }

    #[test]
    fn stored_numbers_read_back_in_the_brazilian_format() {
        assert_eq!(format_whatsapp("+5549999998888"), "(49) 99999-8888");
        assert_eq!(format_whatsapp("+554833334444"), "(48) 3333-4444");
        assert_eq!(format_whatsapp("+14155552671"), "+14155552671");
    }

    #[test]
    fn names_are_trimmed_collapsed_and_bounded_in_characters_not_bytes() {
        assert_eq!(
            LeadName::parse("  Ana   Maria\tda Silva ")
                .unwrap()
                .as_str(),
            "Ana Maria da Silva"
        );
        assert_eq!(
            LeadName::parse("José Ñandú Çağrı 李小龍 🍇")
                .unwrap()
                .as_str(),
            "José Ñandú Çağrı 李小龍 🍇"
        );
        assert_eq!(LeadName::parse(" \n "), Err(messages::FIELD_REQUIRED));
        let max = "é".repeat(120);
        assert!(LeadName::parse(&max).is_ok());
        assert_eq!(
            LeadName::parse(&format!("{max}a")),
            Err(messages::NAME_TOO_LONG)
        );
        assert_eq!(
            LeadName::parse("Ana\u{0}Maria"),
            Err(messages::NAME_INVALID)
        );
    }

    #[test]
    fn names_lose_invisible_characters_but_keep_emoji_sequences() {
        for (raw, name) in [
            ("\u{feff}Ana\u{200b} Maria", "Ana Maria"),
            // U+202E would turn the notice's line around in the staff e-mail:
            // a bidirectional control is invisible, so it is dropped, not refused.
            ("Ana \u{202e}ocsiD\u{202c}", "Ana ocsiD"),
            (
                "\u{200e}João\u{200f} \u{2066}Silva\u{2069}\u{2060}",
                "João Silva",
            ),
            ("Ana\u{200d}Maria \u{200c}Sá\u{ad}", "AnaMaria Sá"),
            ("\u{200b} \u{200d}", ""),
            // The family and the rainbow flag are one emoji each through their joiners.
            ("Ana 👨\u{200d}👩\u{200d}👧", "Ana 👨\u{200d}👩\u{200d}👧"),
            ("Bia 🏳\u{fe0f}\u{200d}🌈", "Bia 🏳\u{fe0f}\u{200d}🌈"),
            ("Bia 🍇\u{200d} Sá", "Bia 🍇 Sá"),
            // Between letters it joins nothing: a name's letters are not an emoji.
            ("José\u{200d}\u{200d}Ñandú", "JoséÑandú"),
            // Default-ignorable and private-use characters show nothing a
            // name means: dropped, and a name of only them is missing.
            ("\u{180b}", ""),
            ("\u{180b}\u{180c}\u{180d}\u{180f}", ""),
            ("\u{e000}\u{f8ff}", ""),
            ("\u{f0001} \u{10fffd}", ""),
            ("Ana\u{e001} Sá\u{180b}", "Ana Sá"),
        ] {
            let parsed = LeadName::parse(raw).map(|n| n.as_str().to_string());
            if name.is_empty() {
                assert_eq!(parsed, Err(messages::FIELD_REQUIRED), "{raw:?}");
            } else {
                assert_eq!(parsed.as_deref(), Ok(name), "{raw:?}");
            }
        }
    }

    #[test]
    fn a_line_break_inside_a_name_is_refused_with_a_message_that_says_so() {
        for raw in [
            "Ana\u{2028}Ver no painel: https://evil.example",
            "Ana\u{2029}Maria",
            "Ana\nMaria",
            "Ana\r\nMaria",
            "Ana\u{85}Maria",
            "Ana\u{b}Maria",
        ] {
            assert_eq!(LeadName::parse(raw), Err(messages::NAME_INVALID), "{raw:?}");
        }
        assert!(messages::NAME_INVALID.contains("quebras de linha"));
        // Around the name it is only space, trimmed as the rest.
        assert_eq!(
            LeadName::parse("\u{2028}Ana Maria\n").map(|n| n.0),
            Ok("Ana Maria".into())
        );
    }

    #[test]
    fn a_letter_that_shows_as_blank_is_refused_and_a_name_of_only_them_is_missing() {
        for blank in [
            "\u{3164}",
            "\u{3164}\u{3164} \u{3164}",
            "\u{2800}\u{2800}",
            "\u{115f}\u{1160}",
            "\u{ffa0}",
            "\u{17b4}\u{17b5}",
            "\u{180e}",
            "\u{3000}\u{a0}\u{2003}\u{3164}",
            "\u{fe0f}\u{34f}",
        ] {
            assert_eq!(
                LeadName::parse(blank),
                Err(messages::FIELD_REQUIRED),
                "{blank:?}"
            );
        }
        for raw in ["Ana\u{3164}", "Ana \u{2800}", "\u{115f}Bia", "Zé\u{ffa0}Sá"] {
            assert_eq!(LeadName::parse(raw), Err(messages::NAME_INVALID), "{raw:?}");
        }
    }

    #[test]
    fn apostrophes_from_phones_and_word_processors_are_the_plain_one() {
        for raw in [
            "D’Ávila",
            "D‘Ávila",
            "DʼÁvila",
            "D´Ávila",
            "D`Ávila",
            "D'Ávila",
        ] {
            assert_eq!(LeadName::parse(raw).unwrap().as_str(), "D'Ávila", "{raw}");
        }
        // The iPhone's name and the computer's are one name: no correction.
        assert_eq!(LeadName::parse("Sant’Anna"), LeadName::parse("Sant'Anna"));
    }

    #[test]
    fn names_keep_quotes_html_and_sql_as_plain_text() {
        for raw in [
            "O'Brien \"Zé\"",
            "<img src=x onerror=alert(1)>",
            "Robert'); DROP TABLE leads;--",
        ] {
            assert_eq!(LeadName::parse(raw).unwrap().as_str(), raw);
        }
    }

    #[test]
    fn emails_are_trimmed_and_lower_cased() {
        assert_eq!(
            LeadEmail::parse("  Maria.Silva+Vinho@Example.COM.br ")
                .unwrap()
                .as_str(),
            "maria.silva+vinho@example.com.br"
        );
    }

    #[test]
    fn malformed_emails_are_refused_with_a_message_to_fix_them() {
        assert_eq!(
            LeadEmail::parse("maria@example"),
            Err(messages::EMAIL_INVALID)
        );
        assert_eq!(LeadEmail::parse(""), Err(messages::FIELD_REQUIRED));
    }

    #[test]
    fn emails_longer_than_254_characters_are_refused() {
        let long = format!("{}@{}.com", "a".repeat(64), "b".repeat(200));
        assert!(long.len() > 254);
        assert_eq!(LeadEmail::parse(&long), Err(messages::EMAIL_TOO_LONG));
    }

    fn submission(name: &str, email: &str, whatsapp: &str) -> Submission {
        Submission {
            name: Some(name.into()),
            email: Some(email.into()),
            whatsapp: Some(whatsapp.into()),
            ..Default::default()
        }
    }

    #[test]
    fn any_empty_field_asks_to_fill_them_all() {
        let rejection = NewLead::parse(submission(" ", "a@b.com", ""), "example.com").unwrap_err();
        assert_eq!(rejection.message, messages::FILL_ALL_FIELDS);
        assert_eq!(
            rejection.fields.iter().map(|(k, _)| *k).collect::<Vec<_>>(),
            ["name", "whatsapp"]
        );
    }

    #[test]
    fn an_invalid_field_is_named_with_its_own_message() {
        let rejection = NewLead::parse(
            submission("Ana", "ana@b.com", "(23) 99999-8888"),
            "example.com",
        )
        .unwrap_err();
        assert_eq!(rejection.message, messages::CHECK_FIELDS);
        assert_eq!(
            rejection
                .fields
                .iter()
                .find(|(k, _)| *k == "whatsapp")
                .map(|(_, m)| m.as_str()),
            Some(messages::WHATSAPP_BAD_DDD)
        );
    }

    #[test]
    fn non_string_fields_are_refused() {
        use crate::http::Field;
        let body: Fields = [
            ("name", Field::Other),
            ("email", Field::Text("a@b.com".into())),
            ("whatsapp", Field::Other),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        let rejection = Submission::from_fields(&body).unwrap_err();
        assert_eq!(
            rejection.fields.iter().map(|(k, _)| *k).collect::<Vec<_>>(),
            ["name", "whatsapp"]
        );
    }

    #[test]
    fn the_honeypot_marks_a_bot_only_when_filled() {
        let mut s = submission("Ana", "a@b.com", "49999998888");
        assert_eq!(s.honeypot_filled(), None);
        s.honeypot = Some("  ".into());
        assert_eq!(s.honeypot_filled(), None);
        s.honeypot = Some("http://spam.example".into());
        assert_eq!(s.honeypot_filled(), Some(HONEYPOT_FIELD));
        s.honeypot = None;
        s.old_honeypot = Some("http://spam.example".into());
        assert_eq!(s.honeypot_filled(), Some(OLD_HONEYPOT_FIELD));
    }

    fn origem_of(origem: Option<&str>, utm: Option<&str>, referrer: Option<&str>) -> String {
        let mut s = submission("Ana", "ana@b.com", "49999998888");
        s.origem = origem.map(Into::into);
        s.attribution.utm_source = utm.map(Into::into);
        s.attribution.referrer = referrer.map(Into::into);
        NewLead::parse(s, "vinhedo.example.com").unwrap().origem
    }

    #[test]
    fn origem_prefers_the_request_then_utm_source_then_referrer_host_then_site() {
        assert_eq!(
            origem_of(
                Some("evento"),
                Some("instagram"),
                Some("https://google.com/")
            ),
            "evento"
        );
        assert_eq!(
            origem_of(Some("  "), Some("instagram"), Some("https://google.com/")),
            "instagram"
        );
        assert_eq!(
            origem_of(None, None, Some("https://www.Google.com.br/search?q=x")),
            "google.com.br"
        );
        assert_eq!(
            origem_of(None, None, Some("https://vinhedo.example.com/privacidade")),
            "site"
        );
        assert_eq!(origem_of(None, None, Some("not a url")), "site");
        assert_eq!(origem_of(None, None, None), "site");
    }

    #[test]
    fn only_web_addresses_are_kept_as_the_page_and_the_referrer_yet_an_apps_referrer_names_the_source()
     {
        let mut s = submission("Ana", "ana@b.com", "49999998888");
        s.attribution.page_url = Some("javascript:alert(1)".into());
        s.attribution.referrer = Some("android-app://com.whatsapp/".into());
        let lead = NewLead::parse(s, "x.example").unwrap();
        assert_eq!(lead.attribution.page_url, None);
        assert_eq!(lead.attribution.referrer, None);
        assert_eq!(lead.source.name, "WhatsApp");
        assert_eq!(lead.origem, "com.whatsapp");

        let mut s = submission("Ana", "ana@b.com", "49999998888");
        s.attribution.page_url = Some(" https://x.example/?utm_source=google ".into());
        s.attribution.referrer = Some("data:text/html,oi".into());
        let lead = NewLead::parse(s, "x.example").unwrap();
        assert_eq!(
            lead.attribution.page_url.as_deref(),
            Some("https://x.example/?utm_source=google")
        );
        assert_eq!(lead.attribution.referrer, None);
    }

    #[test]
    fn long_attribution_is_shortened_not_refused() {
        let mut s = submission("Ana", "ana@b.com", "49999998888");
        s.attribution.utm_campaign = Some("c".repeat(5000));
        s.attribution.page_url = Some(format!("https://x.example/?{}", "q".repeat(5000)));
        let lead = NewLead::parse(s, "x.example").unwrap();
        assert_eq!(
            lead.attribution.utm_campaign.unwrap().len(),
            SHORT_FIELD_MAX
        );
        assert_eq!(
            lead.attribution.page_url.unwrap().chars().count(),
            LONG_FIELD_MAX
        );
    }

    proptest! {
        #[test]
        fn every_valid_mobile_survives_any_punctuation(
            ddd in proptest::sample::select(BRAZIL_DDDS),
            rest in "[0-9]{8}",
            sep in proptest::sample::select(vec![" ", "-", ".", "", " - "]),
            prefix in proptest::sample::select(vec!["", "+55 ", "55", "0", "+55 0"]),
        ) {
            let typed = format!("{prefix}({ddd}){sep}9{}{sep}{}", &rest[..4], &rest[4..]);
            let expected = format!("+55{ddd}9{rest}");
            prop_assert_eq!(WhatsApp::parse(&typed).map(|w| w.0), Ok(expected));
        }

        #[test]
        fn a_parsed_number_is_always_e164(raw in "\\PC{0,30}") {
            if let Ok(w) = WhatsApp::parse(&raw) {
                let digits = &w.as_str()[1..];
                prop_assert!(w.as_str().starts_with('+'));
                prop_assert!(digits.bytes().all(|b| b.is_ascii_digit()));
                prop_assert!((8..=15).contains(&digits.len()));
            }
        }

        #[test]
        fn a_parsed_email_is_lower_case_and_reparses_to_itself(raw in "[A-Za-z0-9._%+-]{1,20}@[A-Za-z0-9-]{1,20}\\.[A-Za-z]{2,6}") {
            if let Ok(e) = LeadEmail::parse(&raw) {
                prop_assert_eq!(e.as_str(), raw.to_lowercase());
                prop_assert_eq!(LeadEmail::parse(e.as_str()), Ok(e.clone()));
            }
        }

        #[test]
        fn a_parsed_name_is_one_visible_line_in_reading_order(
            raw in "[a-zé 🍇\u{200d}\u{2028}\u{2029}\u{202a}-\u{202e}\u{2066}-\u{2069}\u{200e}\u{200f}\u{61c}\u{3164}\u{2800}\u{115f}\u{1160}\u{ffa0}\u{17b4}\u{17b5}\u{180e}\n\r\u{85}]{0,30}"
        ) {
            if let Ok(n) = LeadName::parse(&raw) {
                prop_assert!(n.as_str().chars().any(is_visible));
                prop_assert!(!n.as_str().chars().any(|c| c.is_control()
                    || breaks_line(c)
                    || crate::formats::characters::is_bidi_control(c)
                    || looks_blank(c)), "{:?}", n);
            }
        }

        #[test]
        fn accented_names_are_kept_as_typed(
            words in proptest::collection::vec("[A-ZÁÉÍÓÚÂÊÔÃÕÇ][a-záéíóúâêôãõçü']{1,12}", 1..5)
        ) {
            let name = words.join(" ");
            prop_assert_eq!(LeadName::parse(&name).map(|n| n.0), Ok(name));
        }

        #[test]
        fn a_parsed_name_never_exceeds_the_limit_nor_has_outer_space(raw in "\\PC{0,200}") {
            if let Ok(n) = LeadName::parse(&raw) {
                prop_assert!(n.as_str().chars().count() <= NAME_MAX_CHARS);
                prop_assert_eq!(n.as_str().trim(), n.as_str());
            }
        }
    }
}
