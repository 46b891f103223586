//! CSV files as staff open them: UTF-8 with a BOM and `;` between cells, as
//! Excel set to Portuguese expects, and no cell a spreadsheet could run as a
//! formula.

/// Excel reads the file as UTF-8 only with this mark first.
pub const BOM: &str = "\u{feff}";

/// One line of `cells`, each made safe ([`cell`]), ended by CRLF.
pub fn line(cells: impl IntoIterator<Item = String>) -> String {
    let mut out = cells
        .into_iter()
        .map(|c| cell(&c))
        .collect::<Vec<_>>()
        .join(";");
    out.push_str("\r\n");
    out
}

/// What a spreadsheet runs as a formula when a cell starts with it: the
/// signs, their fullwidth forms (which an East Asian input method types and
/// spreadsheets read as the same sign), a tab and a carriage return.
const FORMULA_STARTS: [char; 10] = [
    '=', '+', '-', '@', '\t', '\r', '\u{ff1d}', '\u{ff0b}', '\u{ff0d}', '\u{ff20}',
];

/// One cell: a `=`, `+`, `-`, `@` (or its fullwidth form), tab or carriage
/// return that starts it, or starts a piece of it after a comma or a tab
/// (any Unicode space, no-break ones included, or invisible character
/// between), gets an apostrophe, so the spreadsheet shows text and never runs a formula: also
/// one that reads the file split at commas or tabs (Excel in English, a
/// LibreOffice import), where `Ana,=HYPERLINK(…)` would be two cells. Cells
/// with `;`, quotes or line breaks are quoted. A phone number in E.164
/// (`+5549999991234`) stays as it is: a `+` and digits is no formula a
/// spreadsheet could be made to run, and the ad platforms read it so.
pub fn cell(value: &str) -> String {
    if is_e164(value) {
        return value.to_string();
    }
    let mut neutral = String::with_capacity(value.len() + 1);
    let mut piece_starts = true;
    for c in value.chars() {
        if piece_starts && FORMULA_STARTS.contains(&c) {
            neutral.push('\'');
        }
        neutral.push(c);
        piece_starts = matches!(c, ',' | '\t')
            || (piece_starts && (c.is_whitespace() || crate::formats::characters::is_format(c)));
    }
    if neutral.contains([';', '"', '\n', '\r']) {
        format!("\"{}\"", neutral.replace('"', "\"\""))
    } else {
        neutral
    }
}

fn is_e164(value: &str) -> bool {
    value.strip_prefix('+').is_some_and(|digits| {
        (8..=15).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_that_a_spreadsheet_would_run_are_neutralised() {
        for (raw, safe) in [
            (
                "=HYPERLINK(\"http://x\")",
                "\"'=HYPERLINK(\"\"http://x\"\")\"",
            ),
            ("+5511", "'+5511"),
            ("+5549999991234", "+5549999991234"),
            ("+5549999991234+1", "'+5549999991234+1"),
            ("+55 49 1", "'+55 49 1"),
            ("-2+3", "'-2+3"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tcmd", "'\tcmd"),
            ("\rcmd", "\"'\rcmd\""),
            ("Ana = Maria", "Ana = Maria"),
        ] {
            assert_eq!(cell(raw), safe, "{raw:?}");
        }
    }

    #[test]
    fn a_formula_after_a_comma_or_a_tab_is_neutralised_for_readers_that_split_there() {
        for (raw, safe) in [
            ("Ana,=1+1,", "Ana,'=1+1,"),
            (
                "x,=HYPERLINK(CHAR(104)&A2),",
                "x,'=HYPERLINK(CHAR(104)&A2),",
            ),
            ("p, -2+3", "p, '-2+3"),
            ("a\t@SUM(A1)", "a\t'@SUM(A1)"),
            ("  =1", "  '=1"),
            ("Silva, Ana", "Silva, Ana"),
            ("R$ 1.000,00", "R$ 1.000,00"),
            ("Maria-Clara, Zé", "Maria-Clara, Zé"),
        ] {
            assert_eq!(cell(raw), safe, "{raw:?}");
        }
    }

    #[test]
    fn a_formula_after_any_space_or_invisible_character_or_in_fullwidth_signs_is_neutralised() {
        for (raw, safe) in [
            ("\u{a0}=1+1", "\u{a0}'=1+1"),
            ("\u{2003}\u{3000}+1", "\u{2003}\u{3000}'+1"),
            ("\u{200b}@SUM(A1)", "\u{200b}'@SUM(A1)"),
            ("Ana,\u{a0}=HYPERLINK(A1)", "Ana,\u{a0}'=HYPERLINK(A1)"),
            ("\u{ff1d}HYPERLINK(A1)", "'\u{ff1d}HYPERLINK(A1)"),
            ("\u{ff0b}1", "'\u{ff0b}1"),
            ("\u{ff0d}1", "'\u{ff0d}1"),
            ("\u{ff20}SUM(A1)", "'\u{ff20}SUM(A1)"),
            ("x, \u{ff1d}1", "x, '\u{ff1d}1"),
            ("Ana\u{a0}Maria = 1", "Ana\u{a0}Maria = 1"),
        ] {
            assert_eq!(cell(raw), safe, "{raw:?}");
        }
    }

    #[test]
    fn separators_quotes_and_line_breaks_stay_inside_their_cell() {
        assert_eq!(cell("Silva; Souza"), "\"Silva; Souza\"");
        assert_eq!(cell("O \"Zé\""), "\"O \"\"Zé\"\"\"");
        assert_eq!(cell("linha\numa"), "\"linha\numa\"");
        assert_eq!(cell("José 🍇"), "José 🍇");
    }
}
