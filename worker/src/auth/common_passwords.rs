//! The passwords staff may not choose: over 10,000 of the most common ones,
//! in `pages/public/senhas-comuns.txt` (made by scripts/common-passwords.mjs).
//! The file ships with the static assets rather than inside the worker, so
//! it costs the WASM nothing; the worker reads it through the ASSETS binding
//! the first time an isolate needs it and keeps it for the isolate's life.

use std::cell::RefCell;
use std::rc::Rc;

use worker::Env;

use crate::http::read_up_to;
use crate::platform::assets;

/// Where the list is served from.
pub const LIST_PATH: &str = "/senhas-comuns.txt";

/// Far more than the list holds (about 90 KB).
const MAX_LIST_BYTES: usize = 1024 * 1024;

thread_local! {
    static LIST: RefCell<Option<Rc<Vec<String>>>> = const { RefCell::new(None) };
}

/// Whether `password` (compared in lower case) is on the list.
pub async fn is_common(env: &Env, password: &str) -> worker::Result<bool> {
    let list = match LIST.with(|l| l.borrow().clone()) {
        Some(list) => list,
        None => {
            let list = Rc::new(load(env).await?);
            LIST.with(|l| *l.borrow_mut() = Some(list.clone()));
            list
        }
    };
    Ok(contains(&list, password))
}

async fn load(env: &Env) -> worker::Result<Vec<String>> {
    let mut response = assets::file(env, LIST_PATH).await?;
    if response.status_code() != 200 {
        return Err(worker::Error::from(format!(
            "{LIST_PATH} answered {}: is it in pages/dist?",
            response.status_code()
        )));
    }
    let (bytes, _) = read_up_to(response.stream()?, MAX_LIST_BYTES).await?;
    Ok(parse(&String::from_utf8_lossy(&bytes)))
}

/// The file's lines, sorted byte by byte as the file keeps them.
pub fn parse(text: &str) -> Vec<String> {
    let mut list: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    // The file is sorted already; sorting again costs little and keeps the
    // search right even if someone edits it by hand.
    list.sort_unstable();
    list
}

pub fn contains(list: &[String], password: &str) -> bool {
    let candidate = password.trim().to_ascii_lowercase();
    list.binary_search_by(|p| p.as_str().cmp(candidate.as_str()))
        .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = include_str!("../../../pages/public/senhas-comuns.txt");

    #[test]
    fn the_shipped_list_has_over_ten_thousand_sorted_lower_case_passwords() {
        let list = parse(FILE);
        assert!(list.len() >= 10_000, "{} passwords", list.len());
        let lines: Vec<&str> = FILE.lines().collect();
        assert_eq!(lines.len(), list.len(), "no blank or duplicate lines");
        assert!(
            lines.windows(2).all(|w| w[0] < w[1]),
            "sorted, no duplicates"
        );
        assert!(list.iter().all(|p| *p == p.to_lowercase()));
        assert!(list.iter().all(|p| p.chars().count() >= 6));
    }

    #[test]
    fn the_usual_suspects_are_on_it_whatever_their_case() {
        let list = parse(FILE);
        for common in [
            "123456",
            "password",
            "Password1",
            "qwerty123",
            "senha123",
            "Flamengo",
            "mudar@123",
            "senha@123",
            "teste123",
            "trocar123",
            "admin123",
            "brasil123",
            "recantodasvideiras2026",
            "altosdaserra@123",
        ] {
            assert!(contains(&list, common), "{common}");
        }
    }

    #[test]
    fn an_unusual_password_is_not() {
        let list = parse(FILE);
        for fine in ["vinho-tinto-2026", "Parreira#Serrana-77", "🍇🍇🍇uva-rara"] {
            assert!(!contains(&list, fine), "{fine}");
        }
    }
}
