//! The passwords anyone would try before a list of common ones: a password
//! made only of repetitions and runs (`aaaaaa`, six spaces, `121212`,
//! `abcabc`, `abcdef`, `654321`, `qwerty`, `abc123`), and the names of this
//! site, agency, winery and city however they are cased, accented or spaced
//! and whatever digits and signs come around them (`Recanto das Videiras`,
//! `altosdaserra@123`, `SerraAlta2026`). The list itself is
//! `common_passwords`.

use crate::agency;
use crate::formats::characters::unaccented;

/// Why a password would be guessed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Guessable {
    /// Nothing but repetitions and runs.
    Pattern,
    /// One of the names anyone who sees the site knows.
    LocalName,
}

/// The runs people type, either way: the alphabet, the digits (0 after 9,
/// as on the keyboard), the keyboard's rows (ABNT's `ç` too), its columns
/// (`1qaz2wsx`) and the shifted digits.
const RUNS: [&str; 7] = [
    "abcdefghijklmnopqrstuvwxyz",
    "01234567890",
    "qwertyuiop",
    "asdfghjklç",
    "zxcvbnm",
    "1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p",
    "!@#$%^&*()",
];

/// The shortest stretch of a run that counts as one (`123`, `qwe`).
const RUN_MIN: usize = 3;

/// Words that never start or end a short form of a name: "Recanto das" is no name.
const CONNECTORS: [&str; 6] = ["da", "das", "de", "do", "dos", "e"];

/// Why `password` would be guessed, if it would.
pub fn guess(password: &str) -> Option<Guessable> {
    let chars: Vec<char> = password.chars().flat_map(char::to_lowercase).collect();
    if is_pattern(&chars) {
        return Some(Guessable::Pattern);
    }
    if is_local_name(password) {
        return Some(Guessable::LocalName);
    }
    None
}

/// Whether `chars` is made end to end of pieces each of which is a short
/// pattern repeated (`aa`, `1212`, `abcabc`) or a stretch of a run; one
/// more character before or after them adds nothing (`abcdef1`, `!aaaaaa`).
fn is_pattern(chars: &[char]) -> bool {
    let n = chars.len();
    let last = n.saturating_sub(1);
    let runs: Vec<Vec<char>> = RUNS
        .iter()
        .flat_map(|run| [run.chars().collect(), run.chars().rev().collect()])
        .collect();
    [(0, n), (1, n), (0, last), (1, last)]
        .into_iter()
        .any(|(from, to)| from < to && is_made_of_pieces(&chars[from..to], &runs))
}

/// Whether `chars` is made end to end of repetitions and stretches of `runs`.
fn is_made_of_pieces(chars: &[char], runs: &[Vec<char>]) -> bool {
    let n = chars.len();
    // The longest stretch of a run from each position: every shorter one is one too.
    let run_from: Vec<usize> = (0..n).map(|i| longest_run(&chars[i..], runs)).collect();
    let mut covered = vec![false; n + 1];
    covered[0] = true;
    for end in 2..=n {
        covered[end] = (0..=end - 2).any(|start| {
            let piece = &chars[start..end];
            covered[start]
                && ((piece.len() >= RUN_MIN && piece.len() <= run_from[start])
                    || is_repeated(piece))
        });
    }
    n > 0 && covered[n]
}

/// How long a stretch of one of `runs` `chars` starts with.
fn longest_run(chars: &[char], runs: &[Vec<char>]) -> usize {
    let Some(first) = chars.first() else {
        return 0;
    };
    runs.iter()
        .flat_map(|run| {
            run.iter()
                .enumerate()
                .filter(|(_, c)| *c == first)
                .map(|(at, _)| {
                    run[at..]
                        .iter()
                        .zip(chars)
                        .take_while(|(a, b)| a == b)
                        .count()
                })
        })
        .max()
        .unwrap_or(0)
}

/// Whether `piece` is a shorter pattern said over at least twice.
fn is_repeated(piece: &[char]) -> bool {
    (1..=piece.len() / 2).any(|period| {
        piece.len().is_multiple_of(period) && piece.chunks(period).all(|c| c == &piece[..period])
    })
}

/// Whether `password`, in lower case without accents, spaces or signs and
/// without the digits around it, is one of [`local_names`].
fn is_local_name(password: &str) -> bool {
    let squashed = squash(password);
    let core = squashed.trim_matches(|c: char| c.is_ascii_digit());
    !core.is_empty() && local_names().iter().any(|name| name == core)
}

/// The site's, agency's, winery's and city's names and the first part of the
/// staff's e-mail domain, squashed, each with its short forms: without its
/// first or last word when that leaves two words or more ("Altos da Serra"
/// of "Altos da Serra Imóveis", "Serra Alta" of "Vinícola Serra Alta").
fn local_names() -> Vec<String> {
    let domain = agency::STAFF_EMAIL_DOMAIN
        .split('.')
        .next()
        .unwrap_or_default();
    let mut names = vec![squash(domain)];
    for name in [
        agency::DEVELOPMENT_NAME,
        agency::AGENCY_NAME,
        agency::WINERY_NAME,
        agency::CITY,
    ] {
        let words: Vec<&str> = name.split_whitespace().collect();
        names.push(squash(name));
        if words.len() >= 3 {
            for short in [&words[1..], &words[..words.len() - 1]] {
                let edge =
                    |w: Option<&&str>| w.is_some_and(|w| CONNECTORS.contains(&squash(w).as_str()));
                if !edge(short.first()) && !edge(short.last()) {
                    names.push(squash(&short.concat()));
                }
            }
        }
    }
    names
}

/// In lower case, accents taken off, only ASCII letters and digits kept.
fn squash(text: &str) -> String {
    unaccented(text)
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn repetitions_and_runs_are_patterns() {
        for password in [
            "aaaaaa",
            "      ",
            "121212",
            "abcdef",
            "ABCDEF",
            "123456",
            "654321",
            "fedcba",
            "qwerty",
            "QWERTYUIOP",
            "asdfgh",
            "zxcvbn",
            "1qaz2wsx",
            "abcabc",
            "abc123",
            "qwe123",
            "aaa111",
            "7890123",
            "hahahaha",
            "senhasenha",
            "!@#$%^&*",
            "abcdef1",
            "123456!",
            "!aaaaaa",
            "Qwerty1",
            "x121212y",
        ] {
            assert_eq!(guess(password), Some(Guessable::Pattern), "{password:?}");
        }
    }

    #[test]
    fn our_names_are_guessed_however_they_are_written() {
        for password in [
            "recantodasvideiras",
            "Recanto das Videiras",
            "RECANTO DAS VIDEIRAS 2026",
            "recanto-das-videiras@123",
            "2026RecantoDasVideiras!",
            "Altos da Serra",
            "altosdaserra123",
            "Altos da Serra Imóveis",
            "altosdaserraimoveis2026",
            "Vinícola Serra Alta",
            "vinicolaserraalta",
            "serraalta@2026",
            "Videira123",
        ] {
            assert_eq!(guess(password), Some(Guessable::LocalName), "{password:?}");
        }
    }

    #[test]
    fn passwords_with_a_word_of_their_own_are_not_guessed_by_these_rules() {
        for password in [
            "vinho-tinto-2026",
            "Parreira#Serrana-77",
            "🍇🍇🍇uva-rara",
            "recanto das videiras é o meu lugar",
            "Senha123",
            "cantina",
            "recantodas",
            "abc-123",
        ] {
            assert_eq!(guess(password), None, "{password:?}");
        }
    }

    /// A stretch of `RUNS[which]` from `start`, `len` long at most, maybe backwards.
    fn stretch(which: usize, start: usize, len: usize, backwards: bool) -> String {
        let run: Vec<char> = RUNS[which].chars().collect();
        let start = start % (run.len() - RUN_MIN);
        let end = (start + len).min(run.len());
        let piece: String = run[start..end].iter().collect();
        if backwards {
            piece.chars().rev().collect()
        } else {
            piece
        }
    }

    proptest! {
        #[test]
        fn one_character_over_and_over_is_a_pattern(c in any::<char>(), n in 2usize..40) {
            prop_assert_eq!(guess(&c.to_string().repeat(n)), Some(Guessable::Pattern));
        }

        #[test]
        fn a_short_pattern_said_over_is_a_pattern(p in "\\PC{1,5}", times in 2usize..6) {
            prop_assert_eq!(guess(&p.repeat(times)), Some(Guessable::Pattern));
        }

        #[test]
        fn any_stretch_of_a_run_either_way_and_in_capitals_is_a_pattern(
            which in 0..RUNS.len(),
            start in 0usize..40,
            len in 3usize..40,
            backwards: bool,
            upper: bool,
        ) {
            let piece = stretch(which, start, len, backwards);
            let typed = if upper { piece.to_uppercase() } else { piece };
            prop_assert_eq!(guess(&typed), Some(Guessable::Pattern), "{}", typed);
        }

        #[test]
        fn our_names_with_the_usual_endings_are_names(
            name in prop::sample::select(vec![
                "Recanto das Videiras", "Altos da Serra", "Altos da Serra Imóveis", "Vinícola Serra Alta",
            ]),
            spaced: bool,
            upper in prop::sample::select(vec![0u8, 1, 2]),
            ending in prop::sample::select(vec!["", "1", "123", "1234", "2025", "2026", "@123", "@2026", "!", "#1"]),
        ) {
            let name = if spaced { name.to_string() } else { name.replace(' ', "") };
            let name = match upper {
                0 => name.to_lowercase(),
                1 => name.to_uppercase(),
                _ => name,
            };
            let typed = format!("{name}{ending}");
            prop_assert_eq!(guess(&typed), Some(Guessable::LocalName), "{}", typed);
        }

        #[test]
        fn a_passphrase_of_words_is_not_guessed_by_these_rules(
            // Different words, in any order: a word said twice over is a
            // repeat, which the rules rightly call a pattern.
            words in prop::sample::subsequence(
                vec!["uva", "vinho", "parreira", "safra", "barril", "rosé", "merlot", "tinto", "branco", "colheita", "cantina"],
                3..5,
            ).prop_shuffle(),
            separator in prop::sample::select(vec!["-", "_", " ", "."]),
            year in 1990u32..2100,
        ) {
            let typed = format!("{}{separator}{year}", words.join(separator));
            prop_assert_eq!(guess(&typed), None, "{}", typed);
        }
    }
}
