//! Every value an e-mail carries that is not its own words (a lead's name,
//! origem and campaign, an address, a link) goes into the text part through
//! [`text`] and into the HTML part through [`html`]. Neither lets the value
//! start a line of its own (to forge a 'Ver no painel: …') nor turn the text
//! around; [`html`] also lets it add no markup.

use crate::formats::characters::{breaks_line, is_bidi_control};

/// `value` as one stretch of a line: each control character or line break
/// (U+2028 too) a space, each bidirectional control dropped.
pub fn text(value: &str) -> String {
    value
        .chars()
        .filter(|&c| !is_bidi_control(c))
        .map(|c| {
            if c.is_control() || breaks_line(c) {
                ' '
            } else {
                c
            }
        })
        .collect()
}

/// [`text`], with the characters HTML reads as markup escaped, so the value
/// is text inside an element or a quoted attribute.
pub fn html(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in text(value).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What a visitor could type or put in a link to forge a line of a notice.
    const FORGED: &str = "Ana\u{2028}  Ver no painel: https://evil.example\r\n\u{2029}\u{85}\u{b}\u{c}\u{202e}lapxe\u{202c}\u{2066}\u{200f}\u{61c}";

    #[test]
    fn a_value_in_the_text_part_cannot_start_a_line_or_turn_text_around() {
        let line = text(FORGED);
        assert!(!line.chars().any(breaks_line), "{line:?}");
        assert!(!line.chars().any(is_bidi_control), "{line:?}");
        assert_eq!(line, "Ana   Ver no painel: https://evil.example      lapxe");
        assert_eq!(
            text("José D'Ávila 👨\u{200d}👩\u{200d}👧"),
            "José D'Ávila 👨\u{200d}👩\u{200d}👧"
        );
    }

    #[test]
    fn a_value_in_the_html_part_cannot_add_markup_or_a_line() {
        assert_eq!(
            html(r#"<a href="x">O'Brien & co</a>"#),
            "&lt;a href=&quot;x&quot;&gt;O&#39;Brien &amp; co&lt;/a&gt;"
        );
        let part = html(&format!("{FORGED}<br><b>"));
        assert!(!part.contains('<') && !part.contains('>'), "{part:?}");
        assert!(!part.chars().any(breaks_line), "{part:?}");
        assert!(!part.chars().any(is_bidi_control), "{part:?}");
    }

    proptest! {
        #[test]
        fn no_value_breaks_a_line_or_opens_a_tag(raw in "\\PC{0,40}|[a<>&\"'\\n\\r\\u{2028}\\u{2029}\\u{85}\\u{202e}\\u{2067}]{0,40}") {
            let line = text(&raw);
            prop_assert!(!line.chars().any(|c| breaks_line(c) || c.is_control() || is_bidi_control(c)));
            let part = html(&raw);
            prop_assert!(!part.chars().any(|c| matches!(c, '<' | '>' | '"' | '\'') || breaks_line(c) || is_bidi_control(c)));
        }
    }
}
