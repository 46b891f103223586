//! The hashes of the inline styles and scripts a page carries, so that its
//! Content-Security-Policy allows exactly those and no other inline code. The
//! build writes them beside the pages (scripts/prerender.mjs →
//! `pages/dist/csp-hashes.json`, served path → hashes); the worker reads the
//! file through the ASSETS binding the first time an isolate serves a page and
//! keeps it for the isolate's life, as it does the common-password list.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use base64ct::{Base64, Encoding};
use serde::Deserialize;
use worker::{Env, ResponseBody};

use crate::http::read_up_to;

/// Where the build leaves the hashes.
pub const FILE_PATH: &str = "/csp-hashes.json";

/// Far more than the file holds (a few hashes per page).
const MAX_FILE_BYTES: usize = 64 * 1024;

/// One `'sha256-…'` source of a policy. Only [`CspHash::parse`] makes one, so
/// whatever the file says, nothing but a well-formed hash reaches the header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CspHash(String);

impl CspHash {
    /// `sha256-` and the base64 of a 32-byte digest, as the build writes it.
    pub fn parse(text: &str) -> Result<Self, String> {
        let digest = text
            .strip_prefix("sha256-")
            .ok_or_else(|| format!("{text:?} is not a sha256- hash"))?;
        match Base64::decode_vec(digest) {
            Ok(bytes) if bytes.len() == 32 => Ok(Self(format!("'{text}'"))),
            _ => Err(format!("{text:?} is not the base64 of a SHA-256 digest")),
        }
    }

    /// The source as the policy writes it, quotes included.
    pub fn source(&self) -> &str {
        &self.0
    }
}

/// The inline code one page may run: its `<style>` and `<script>` elements.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageHashes {
    pub style: Vec<CspHash>,
    pub script: Vec<CspHash>,
}

/// Every page's hashes, by the path it is served at.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct InlineHashes(BTreeMap<String, PageHashes>);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PageFile {
    #[serde(default)]
    style: Vec<String>,
    #[serde(default)]
    script: Vec<String>,
}

impl InlineHashes {
    /// Reads the build's file; one malformed hash refuses the whole file.
    pub fn parse(json: &str) -> Result<Self, String> {
        let file: BTreeMap<String, PageFile> =
            serde_json::from_slice(json.as_bytes()).map_err(|e| format!("{FILE_PATH}: {e}"))?;
        let hashes = |list: Vec<String>| -> Result<Vec<CspHash>, String> {
            list.iter().map(|h| CspHash::parse(h)).collect()
        };
        file.into_iter()
            .map(|(path, page)| {
                Ok((
                    path,
                    PageHashes {
                        style: hashes(page.style)?,
                        script: hashes(page.script)?,
                    },
                ))
            })
            .collect::<Result<_, String>>()
            .map(Self)
    }

    /// The hashes of the page served at `path`; none for a page without inline code.
    pub fn page(&self, path: &str) -> PageHashes {
        self.0.get(path).cloned().unwrap_or_default()
    }
}

thread_local! {
    static HASHES: RefCell<Option<Rc<InlineHashes>>> = const { RefCell::new(None) };
}

/// The hashes of the page at `path`. If the file cannot be read the page gets
/// none: its inline code is then blocked, which shows as an unstyled page and
/// an error in the log, never as a weaker policy. A failed read is tried
/// again on the next page.
pub async fn for_page(env: &Env, path: &str) -> PageHashes {
    if let Some(hashes) = HASHES.with(|h| h.borrow().clone()) {
        return hashes.page(path);
    }
    match load(env).await {
        Ok(hashes) => {
            let page = hashes.page(path);
            HASHES.with(|h| *h.borrow_mut() = Some(Rc::new(hashes)));
            page
        }
        Err(e) => {
            worker::console_error!("no inline style or script allowed: {e}");
            PageHashes::default()
        }
    }
}

async fn load(env: &Env) -> Result<InlineHashes, String> {
    let fetched = async {
        let mut response = crate::platform::assets::file(env, FILE_PATH).await?;
        let bytes = match response.body() {
            ResponseBody::Empty => Vec::new(),
            _ => read_up_to(response.stream()?, MAX_FILE_BYTES).await?.0,
        };
        let text = String::from_utf8_lossy(&bytes).into_owned();
        Ok::<_, worker::Error>((response.status_code(), text))
    };
    match fetched.await {
        Ok((200, text)) => InlineHashes::parse(&text),
        Ok((status, _)) => Err(format!(
            "{FILE_PATH} answered {status}: is it in pages/dist?"
        )),
        Err(e) => Err(format!("{FILE_PATH}: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STYLE: &str = "sha256-/BcEDP237+tHiBeho+vpgJNzBgcK7RLubPFvtZCcBts=";
    const SCRIPT: &str = "sha256-84xZ592jcy4x9PP/xlZDepDJY5t/vgIRfIAvFn7EKcs=";

    #[test]
    fn reads_the_hashes_the_build_writes_by_path() {
        let hashes = InlineHashes::parse(&format!(
            r#"{{"/": {{"style": ["{STYLE}"], "script": ["{SCRIPT}"]}}}}"#
        ))
        .unwrap();
        let landing = hashes.page("/");
        assert_eq!(
            landing
                .style
                .iter()
                .map(CspHash::source)
                .collect::<Vec<_>>(),
            [format!("'{STYLE}'")]
        );
        assert_eq!(
            landing
                .script
                .iter()
                .map(CspHash::source)
                .collect::<Vec<_>>(),
            [format!("'{SCRIPT}'")]
        );
        assert_eq!(hashes.page("/privacidade"), PageHashes::default());
    }

    #[test]
    fn only_a_sha256_digest_in_base64_is_a_hash() {
        assert!(CspHash::parse(STYLE).is_ok());
        for bad in [
            "'unsafe-inline'",
            "unsafe-inline",
            "sha256-",
            "sha256-abc",
            "sha384-/BcEDP237+tHiBeho+vpgJNzBgcK7RLubPFvtZCcBts=",
            "sha256-/BcEDP237+tHiBeho+vpgJNzBgcK7RLubPFvtZCcBts='; script-src *",
            "https://example.com",
        ] {
            assert!(CspHash::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn one_bad_entry_refuses_the_whole_file() {
        let json = format!(r#"{{"/": {{"style": ["{STYLE}", "'unsafe-inline'"]}}}}"#);
        assert!(InlineHashes::parse(&json).is_err());
        assert!(InlineHashes::parse(r#"{"/": {"style-src": []}}"#).is_err());
        assert!(InlineHashes::parse("not json").is_err());
    }
}
