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

/// Whether `c` puts something on the screen: not whitespace, not a control,
/// not invisible, not blank-looking.
pub fn is_visible(c: char) -> bool {
    !c.is_whitespace()
        && !c.is_control()
        && !is_format(c)
        && !looks_blank(c)
        && !is_variation_selector(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bidi_control_is_an_invisible_format_character() {
        for c in ('\0'..='\u{ffff}').filter(|c| is_bidi_control(*c)) {
            assert!(is_format(c), "U+{:04X}", c as u32);
        }
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
