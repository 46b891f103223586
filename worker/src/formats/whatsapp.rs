//! A WhatsApp number: read from what people type into E.164, and shown back
//! as people read it. The lead form, the CRM, the panel and the notices all
//! use it.

use crate::agency::messages;

/// Brazilian area codes (DDD) in service.
pub(crate) const BRAZIL_DDDS: &[u8] = &[
    11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 24, 27, 28, 31, 32, 33, 34, 35, 37, 38, 41, 42, 43,
    44, 45, 46, 47, 48, 49, 51, 53, 54, 55, 61, 62, 63, 64, 65, 66, 67, 68, 69, 71, 73, 74, 75, 77,
    79, 81, 82, 83, 84, 85, 86, 87, 88, 89, 91, 92, 93, 94, 95, 96, 97, 98, 99,
];

/// A WhatsApp number in E.164 form (`+5549999998888`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WhatsApp(pub(crate) String);

impl WhatsApp {
    /// Accepts what people type: spaces, dots, dashes, parentheses, a `+55`
    /// or `55` country code, a leading trunk `0` (with or without a carrier
    /// code). A `+` followed by another country
    /// code is accepted when it is a plausible E.164 number.
    pub fn parse(raw: &str) -> Result<Self, &'static str> {
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            return Err(messages::FIELD_REQUIRED);
        }
        let (plus, rest) = match trimmed.strip_prefix('+') {
            Some(rest) => (true, rest),
            None => (false, trimmed),
        };
        if !rest.chars().all(|c| {
            c.is_ascii_digit() || matches!(c, ' ' | '.' | '-' | '(' | ')' | '/' | '\u{a0}')
        }) {
            return Err(messages::WHATSAPP_INVALID);
        }
        let digits: String = rest.chars().filter(char::is_ascii_digit).collect();
        if plus {
            return Self::international(&digits);
        }
        let national = match digits.strip_prefix('0') {
            // 0 + carrier code (2 digits) + DDD + number
            Some(after) if after.len() == 12 || after.len() == 13 => &after[2..],
            Some(after) => after,
            None if (digits.len() == 12 || digits.len() == 13) && digits.starts_with("55") => {
                &digits[2..]
            }
            None => &digits,
        };
        Self::brazilian(national)
    }

    fn international(digits: &str) -> Result<Self, &'static str> {
        if let Some(national) = digits.strip_prefix("55") {
            // "+55 0 49 …": a trunk 0 kept out of habit.
            let national = match national.strip_prefix('0') {
                Some(n) if n.len() == 10 || n.len() == 11 => n,
                _ => national,
            };
            return Self::brazilian(national);
        }
        if (8..=15).contains(&digits.len()) && !digits.starts_with('0') {
            Ok(Self(format!("+{digits}")))
        } else {
            Err(messages::WHATSAPP_INVALID)
        }
    }

    fn brazilian(national: &str) -> Result<Self, &'static str> {
        if national.len() != 10 && national.len() != 11 {
            return Err(messages::WHATSAPP_INVALID);
        }
        let ddd: u8 = national[..2]
            .parse()
            .map_err(|_| messages::WHATSAPP_INVALID)?;
        if !BRAZIL_DDDS.contains(&ddd) {
            return Err(messages::WHATSAPP_BAD_DDD);
        }
        let subscriber = &national[2..];
        let first = subscriber.as_bytes()[0];
        let ok = match subscriber.len() {
            9 => first == b'9',
            // Landlines start with 2 to 5; an eight-digit 6-9 is a mobile
            // number missing its ninth digit.
            _ => (b'2'..=b'5').contains(&first),
        };
        if !ok {
            return Err(messages::WHATSAPP_MOBILE_NINE);
        }
        Ok(Self(format!("+55{national}")))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// How people read a stored E.164 number: `(49) 99999-9999` for Brazil,
/// `+CC…` unchanged otherwise.
pub fn format_whatsapp(e164: &str) -> String {
    let Some(national) = e164.strip_prefix("+55") else {
        return e164.to_string();
    };
    if !national.bytes().all(|b| b.is_ascii_digit()) {
        return e164.to_string();
    }
    match national.len() {
        11 => format!(
            "({}) {}-{}",
            &national[..2],
            &national[2..7],
            &national[7..]
        ),
        10 => format!(
            "({}) {}-{}",
            &national[..2],
            &national[2..6],
            &national[6..]
        ),
        _ => e164.to_string(),
    }
}

/// A Brazilian landline ('fixo'): a DDD and eight digits starting 2 to 5 (a
/// mobile has nine, starting with 9). The team calls it rather than writing.
pub fn is_landline(e164: &str) -> bool {
    e164.strip_prefix("+55").is_some_and(|n| {
        n.len() == 10
            && n.bytes().all(|b| b.is_ascii_digit())
            && (b'2'..=b'5').contains(&n.as_bytes()[2])
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const MIGRATION: &str = include_str!("../../../migrations/0022_visitor_answers.sql");

    /// Migration 0022's `leads.landline`: the stored number `GLOB` this,
    /// and nothing but digits after its `+`.
    fn landline_glob() -> &'static str {
        let from = MIGRATION
            .find("whatsapp GLOB '")
            .expect("0022 reads the number")
            + 15;
        let len = MIGRATION[from..].find('\'').unwrap();
        &MIGRATION[from..from + len]
    }

    /// What 0022 marks: its pattern, and digits alone after the `+`.
    fn marked(e164: &str) -> bool {
        assert!(MIGRATION.contains("AND NOT substr(whatsapp, 2) GLOB '*[^0-9]*'"));
        glob(landline_glob(), e164) && e164[1..].bytes().all(|b| b.is_ascii_digit())
    }

    /// SQLite's GLOB for what 0022's pattern uses: literal characters, `?` and `[a-b]` ranges.
    fn glob(pattern: &str, text: &str) -> bool {
        let mut chars = text.chars();
        let mut p = pattern.chars();
        while let Some(c) = p.next() {
            let Some(t) = chars.next() else {
                return false;
            };
            let ok = if c == '?' {
                true
            } else if c == '[' {
                let (from, _, to, _) = (p.next(), p.next(), p.next(), p.next());
                (from.unwrap()..=to.unwrap()).contains(&t)
            } else {
                c == t
            };
            if !ok {
                return false;
            }
        }
        chars.next().is_none()
    }

    /// A Brazilian landline ('fixo') as the issue defines it: a DDD and
    /// eight digits starting 2 to 5 (a mobile has nine, starting with 9).
    fn landline(number: &WhatsApp) -> bool {
        is_landline(number.as_str())
    }

    #[test]
    fn the_database_marks_a_landline_and_nothing_else() {
        for (raw, fixo) in [
            ("(48) 3333-4444", true),
            ("(11) 2345-6789", true),
            ("(49) 5123-4567", true),
            ("(49) 99999-8888", false),
            ("+1 (415) 555-2671", false),
            ("+351 212 345 678", false),
        ] {
            let number = WhatsApp::parse(raw).unwrap();
            assert_eq!(landline(&number), fixo, "{raw}");
            assert_eq!(marked(number.as_str()), fixo, "{raw}");
        }
    }

    proptest! {
        #[test]
        fn the_databases_mark_agrees_with_the_parse_for_any_brazilian_number(
            ddd in prop::sample::select(BRAZIL_DDDS),
            first in 0u8..10,
            rest in "[0-9]{7,8}",
        ) {
            if let Ok(number) = WhatsApp::parse(&format!("({ddd}) {first}{rest}")) {
                prop_assert_eq!(marked(number.as_str()), landline(&number));
            }
        }
    }
}
