//! Reads `agency.json` (the file the pages read too) at build time, so the
//! worker carries the few details it needs as constants (`src/agency/mod.rs`)
//! instead of the file and a parser for it.

use std::{env, fs, path::Path};

fn main() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../agency.json");
    println!("cargo::rerun-if-changed={}", file.display());
    let text = fs::read_to_string(&file).expect("agency.json is readable");
    let json: serde_json::Value = serde_json::from_str(&text).expect("agency.json is valid JSON");
    let text_at = |pointer: &str| -> String {
        match json.pointer(pointer).and_then(|v| v.as_str()) {
            Some(value) if !value.trim().is_empty() => value.to_string(),
            _ => panic!("agency.json has no text at {pointer}"),
        }
    };
    let constants = [
        ("STAFF_EMAIL_DOMAIN", text_at("/agency/staffEmailDomain")),
        ("DEVELOPMENT_NAME", text_at("/development/name")),
        ("AGENCY_NAME", text_at("/agency/name")),
        ("WINERY_NAME", text_at("/development/winery")),
        ("CITY", text_at("/agency/city")),
        ("SITE_URL", text_at("/site/url")),
    ];
    let mut out: String = constants
        .iter()
        .map(|(name, value)| format!("pub const {name}: &str = {value:?};\n"))
        .collect();
    out.push_str(&panel(&json));
    out.push_str(&questions(&json));
    out.push_str(&image_origins(&json));
    let dest = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("agency.rs");
    fs::write(dest, out).expect("OUT_DIR is writable");
}

/// What the panel writes for the agency (`panel`): the greeting a broker's
/// WhatsApp chat opens with (its `{…}` names only what the worker fills in);
/// and the address of a lead in Jetimob (`{id}` for its code, empty when
/// unknown), which only the pages use, checked.
fn panel(json: &serde_json::Value) -> String {
    let greeting = json
        .pointer("/panel/whatsappGreeting")
        .and_then(|v| v.as_str())
        .filter(|v| !v.trim().is_empty())
        .expect("agency.json has no text at /panel/whatsappGreeting");
    let mut rest = greeting;
    while let Some(open) = rest.find('{') {
        let close = rest[open..]
            .find('}')
            .map(|c| open + c)
            .expect("agency.json: a '{' of the greeting is never closed");
        let name = &rest[open + 1..close];
        assert!(
            ["nome", "corretor", "imobiliaria", "empreendimento"].contains(&name),
            "agency.json: the greeting names {{{name}}}; it may name {{nome}}, {{corretor}}, \
             {{imobiliaria}} and {{empreendimento}}"
        );
        rest = &rest[close + 1..];
    }
    let jetimob = json
        .pointer("/panel/jetimobLeadUrl")
        .and_then(|v| v.as_str())
        .unwrap_or("")
        .trim();
    assert!(
        jetimob.is_empty() || (jetimob.starts_with("https://") && jetimob.contains("{id}")),
        "agency.json: panel.jetimobLeadUrl is an https:// address with {{id}}, or empty"
    );
    // The Jetimob address is the pages' alone: checked here, where a bad one stops the build.
    format!("pub const WHATSAPP_GREETING: &str = {greeting:?};\n")
}

/// The optional questions asked after 'Sucesso!' (`questions`): each id with
/// the options a visitor may choose, the only answers the worker keeps.
fn questions(json: &serde_json::Value) -> String {
    let list = json
        .get("questions")
        .and_then(|q| q.as_array())
        .cloned()
        .unwrap_or_default();
    let mut ids = Vec::new();
    let items: String = list
        .iter()
        .map(|q| {
            let text = |key: &str| match q.get(key).and_then(|v| v.as_str()) {
                Some(v) if !v.trim().is_empty() => v.to_string(),
                _ => panic!("agency.json: every question needs a {key}"),
            };
            let id = text("id");
            assert!(
                !id.is_empty() && id.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
                "agency.json: a question's id is lower-case letters and _ ({id:?})"
            );
            assert!(!ids.contains(&id), "agency.json: two questions are {id:?}");
            ids.push(id.clone());
            let options: Vec<String> = q
                .get("options")
                .and_then(|o| o.as_array())
                .map(|o| {
                    o.iter()
                        .filter_map(|v| v.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            assert!(
                options.len() >= 2,
                "agency.json: question {id:?} needs two options or more"
            );
            format!(
                "    Question {{ id: {id:?}, label: {:?}, options: &{options:?} }},\n",
                text("label")
            )
        })
        .collect();
    format!("pub const QUESTIONS: &[Question] = &[\n{items}];\n")
}

/// The origins of gallery images given as an address (`https://…`) rather
/// than a file of the site, which the pages' Content-Security-Policy allows.
fn image_origins(json: &serde_json::Value) -> String {
    let mut origins: Vec<String> = json
        .get("gallery")
        .and_then(|g| g.as_array())
        .into_iter()
        .flatten()
        .flat_map(|image| {
            let mut found = vec![
                image
                    .get("src")
                    .and_then(|s| s.as_str())
                    .unwrap_or("")
                    .to_string(),
            ];
            for source in image
                .get("sources")
                .and_then(|s| s.as_array())
                .into_iter()
                .flatten()
            {
                let srcset = source.get("srcset").and_then(|s| s.as_str()).unwrap_or("");
                found.extend(
                    srcset
                        .split(',')
                        .filter_map(|c| c.split_whitespace().next())
                        .map(str::to_string),
                );
            }
            found
        })
        .filter_map(|url| {
            let rest = url.strip_prefix("https://")?;
            let host = rest.split('/').next()?;
            assert!(
                !host.is_empty()
                    && host
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-' || b == b':'),
                "agency.json: an image's address has an odd host ({url:?})"
            );
            Some(format!("https://{host}"))
        })
        .collect();
    origins.sort();
    origins.dedup();
    format!("pub const IMAGE_ORIGINS: &[&str] = &{origins:?};\n")
}
