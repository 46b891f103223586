//! Reads `agency.json` (the file the pages read too) at build time, so the
//! worker carries the few details it needs as constants (`src/agency.rs`)
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
    let out: String = constants
        .iter()
        .map(|(name, value)| format!("pub const {name}: &str = {value:?};\n"))
        .collect();
    let dest = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("agency.rs");
    fs::write(dest, out).expect("OUT_DIR is writable");
}
