//! Characters that make text read otherwise than it looks: those that break
//! a line, those that turn the text around them, the invisible ones and the
//! letters that show as blank space. A lead's name, the campaign fields of a
//! visit and every e-mail the worker writes are kept free of them.

/// A line break wherever text is shown: `\n`, `\r`, the vertical tab, the
/// form feed, NEL (U+0085) and the line and paragraph separators U+2028 and
/// U+2029, which a mail client or a log starts a new line at just the same.
pub fn breaks_line(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{b}' | '\u{c}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// A bidirectional control: the Arabic letter mark, the direction marks,
/// embeddings, overrides (U+202E turns the text after it around) and isolates.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c,
        '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// An invisible format character (Unicode 15's category Cf): zero-width spaces and
/// joiners, the bidirectional controls ([`is_bidi_control`]), the BOM, the
/// soft hyphen, tags.
pub fn is_format(c: char) -> bool {
    matches!(c,
        '\u{ad}' | '\u{600}'..='\u{605}' | '\u{61c}' | '\u{6dd}' | '\u{70f}'
        | '\u{890}'..='\u{891}' | '\u{8e2}' | '\u{180e}' | '\u{200b}'..='\u{200f}'
        | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{206f}'
        | '\u{feff}' | '\u{fff9}'..='\u{fffb}' | '\u{110bd}' | '\u{110cd}'
        | '\u{13430}'..='\u{1343f}' | '\u{1bca0}'..='\u{1bca3}' | '\u{1d173}'..='\u{1d17a}'
        | '\u{e0001}' | '\u{e0020}'..='\u{e007f}')
}

/// A character that is not whitespace yet shows as blank space: the Hangul
/// fillers (U+115F, U+1160, U+3164, U+FFA0), the blank Braille pattern
/// (U+2800), the Khmer inherent vowels (U+17B4, U+17B5), the Mongolian vowel
/// separator (U+180E), the combining grapheme joiner (U+034F) and the musical
/// null notehead (U+1D159). None is part of a name anyone writes.
pub fn looks_blank(c: char) -> bool {
    matches!(
        c,
        '\u{34f}'
            | '\u{115f}'
            | '\u{1160}'
            | '\u{17b4}'
            | '\u{17b5}'
            | '\u{180e}'
            | '\u{2800}'
            | '\u{3164}'
            | '\u{ffa0}'
            | '\u{1d159}'
    )
}

/// A variation selector: it picks how the character before it is drawn (the
/// emoji form of ❤, 🏳), and shows nothing of its own.
pub fn is_variation_selector(c: char) -> bool {
    matches!(c, '\u{fe00}'..='\u{fe0f}' | '\u{e0100}'..='\u{e01ef}')
}

/// A default-ignorable code point that [`is_format`], [`looks_blank`] and
/// [`is_variation_selector`] leave out: Unicode's Default_Ignorable_Code_Point
/// shows nothing wherever a font lacks it, and the Mongolian free variation
/// selectors (U+180B–U+180F), the unassigned U+2065, U+FFF0–U+FFF8 and the
/// tag block's unassigned rest (U+E0000–U+E0FFF) are such.
pub fn is_other_default_ignorable(c: char) -> bool {
    matches!(c,
        '\u{180b}'..='\u{180f}' | '\u{2065}' | '\u{fff0}'..='\u{fff8}' | '\u{e0000}'..='\u{e0fff}')
        && !is_format(c)
        && !is_variation_selector(c)
}

/// A private-use character (U+E000–U+F8FF and planes 15 and 16): it means
/// whatever one font or app makes it mean, and nothing in a name.
pub fn is_private_use(c: char) -> bool {
    matches!(c, '\u{e000}'..='\u{f8ff}' | '\u{f0000}'..='\u{ffffd}' | '\u{100000}'..='\u{10fffd}')
}

/// Whether `c` puts something on the screen: not whitespace, not a control,
/// not invisible, not blank-looking.
pub fn is_visible(c: char) -> bool {
    !c.is_whitespace()
        && !c.is_control()
        && !is_format(c)
        && !looks_blank(c)
        && !is_variation_selector(c)
}

/// Characters typed for the apostrophe `'`: iOS Smart Punctuation's `’` (and
/// `‘`), the modifier letter `ʼ`, the acute accent `´` and the backtick.
pub const APOSTROPHES: [char; 5] = ['\u{2019}', '\u{2018}', '\u{2bc}', '\u{b4}', '`'];

/// The zero-width joiner, which holds an emoji sequence together (👨‍👩‍👧).
const ZWJ: char = '\u{200d}';

/// Whether a zero-width joiner beside `c` joins an emoji sequence: an emoji,
/// or its variation selector, is not a letter, not ASCII, not a joiner.
fn joins(c: Option<char>) -> bool {
    c.is_some_and(|c| !c.is_ascii() && !c.is_alphanumeric() && !c.is_whitespace() && c != ZWJ)
}

/// Text in lower case with its accents taken off (`Lançamento` → `lancamento`,
/// `Peña` → `pena`), as names are compared: a spend file's columns, the
/// campaigns' order, the words a password must not be made of.
pub fn unaccented(text: &str) -> String {
    text.chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'á' | 'à' | 'â' | 'ã' | 'ä' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'í' | 'ì' | 'î' | 'ï' => 'i',
            'ó' | 'ò' | 'ô' | 'õ' | 'ö' => 'o',
            'ú' | 'ù' | 'û' | 'ü' => 'u',
            'ç' => 'c',
            'ñ' => 'n',
            c => c,
        })
        .collect()
}

/// Text as it reads: each apostrophe look-alike becomes `'`; the invisible
/// format characters, the other default-ignorable ones and private-use
/// characters are dropped, but for a zero-width joiner between two
/// visible non-ASCII characters that are not letters (an emoji sequence).
/// Names are stored so, and search terms read so, so that `D’Ávila` from an
/// iPhone and `D'Ávila` from a computer are one name.
pub fn plain_text(raw: &str) -> String {
    let mut plain = String::with_capacity(raw.len());
    // The visible character after a run of invisible ones, found once for
    // the run (up to byte `.0`): a name of thousands of joiners costs one
    // pass, not a pass per joiner.
    let mut after_run: Option<(usize, Option<char>)> = None;
    for (i, c) in raw.char_indices() {
        if c == ZWJ {
            let next = match after_run {
                Some((end, next)) if i < end => next,
                _ => {
                    let rest = &raw[i + c.len_utf8()..];
                    let found = rest.char_indices().find(|(_, c)| !is_format(*c));
                    let end = found.map_or(raw.len(), |(j, _)| i + c.len_utf8() + j);
                    let next = found.map(|(_, c)| c);
                    after_run = Some((end, next));
                    next
                }
            };
            if joins(plain.chars().next_back()) && joins(next) {
                plain.push(c);
            }
        } else if APOSTROPHES.contains(&c) {
            plain.push('\'');
        } else if !is_format(c) && !is_other_default_ignorable(c) && !is_private_use(c) {
            plain.push(c);
        }
    }
    plain
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The rule as first written: each joiner looks ahead on its own.
    fn plain_text_by_lookahead(raw: &str) -> String {
        let mut plain = String::new();
        for (i, c) in raw.char_indices() {
            if c == ZWJ {
                let next = raw[i + c.len_utf8()..].chars().find(|c| !is_format(*c));
                if joins(plain.chars().next_back()) && joins(next) {
                    plain.push(c);
                }
            } else if APOSTROPHES.contains(&c) {
                plain.push('\'');
            } else if !is_format(c) {
                plain.push(c);
            }
        }
        plain
    }

    #[test]
    fn thousands_of_joiners_between_two_emoji_keep_one_and_alone_keep_nothing() {
        // 5,400 joiners fill the 16 KiB a lead may be; looked ahead of one by
        // one, they cost 15 million steps, every request, before any limit.
        let joiners = "\u{200d}".repeat(5_400);
        assert_eq!(plain_text(&format!("🍇{joiners}🍷")), "🍇\u{200d}🍷");
        assert_eq!(plain_text(&joiners), "");
    }

    proptest::proptest! {
        #[test]
        fn joiners_are_kept_exactly_where_the_rule_keeps_them(
            raw in "[a-zé 🍇👩🌈\u{200d}\u{200b}\u{fe0f}\u{2019}\u{202e}]{0,40}"
        ) {
            prop_assert_eq!(plain_text(&raw), plain_text_by_lookahead(&raw));
        }
    }

    #[test]
    fn every_bidi_control_is_an_invisible_format_character() {
        for c in ('\0'..='\u{ffff}').filter(|c| is_bidi_control(*c)) {
            assert!(is_format(c), "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn default_ignorable_and_private_use_characters_are_dropped_from_text() {
        assert_eq!(plain_text("\u{180b}\u{180c}\u{180f}"), "");
        assert_eq!(plain_text("\u{e000}\u{f8ff}\u{f0000}\u{10fffd}"), "");
        assert_eq!(
            plain_text("Jo\u{180b}ão\u{e123} Silva\u{fff0}\u{e0100}"),
            "João Silva\u{e0100}"
        );
        // A variation selector stays with the emoji it draws.
        assert_eq!(plain_text("Ana ❤\u{fe0f}"), "Ana ❤\u{fe0f}");
    }

    #[test]
    fn line_breaks_are_the_ones_mail_clients_and_logs_start_a_line_at() {
        for c in [
            '\n', '\r', '\u{b}', '\u{c}', '\u{85}', '\u{2028}', '\u{2029}',
        ] {
            assert!(breaks_line(c), "U+{:04X}", c as u32);
            assert!(!is_visible(c));
        }
        assert!(!breaks_line('\t'));
        assert!(!breaks_line(' '));
    }

    #[test]
    fn blank_looking_letters_are_not_visible_and_letters_emoji_and_marks_are() {
        for c in [
            '\u{3164}', '\u{2800}', '\u{115f}', '\u{1160}', '\u{ffa0}', '\u{17b4}',
        ] {
            assert!(!is_visible(c), "U+{:04X}", c as u32);
        }
        for c in ['a', 'É', 'ç', '李', '🍇', '\'', '-'] {
            assert!(is_visible(c), "{c}");
        }
    }
}
