//! The first WhatsApp message a broker sends a lead: agency.json's
//! `panel.whatsappGreeting`, with the person's first name, the broker's and
//! the agency's and development's names. The panel fills the same template
//! in `pages/src/features/leads-admin/greeting.ts`; the new-lead notices'
//! links carry it from here.

use crate::agency;

/// The first word of a name as it was typed ('Ana' of 'Ana Souza').
pub fn first_name(name: &str) -> &str {
    name.split_whitespace().next().unwrap_or("")
}

/// A staff member's first name, from their e-mail ('Ana' of
/// `ana.souza@…`, `ana_souza@…`, `ana+leads@…`): staff accounts hold an
/// e-mail only. Empty when the address starts with no letter.
pub fn staff_first_name(email: &str) -> String {
    let local = email.split('@').next().unwrap_or("");
    let word: String = local
        .split(['.', '_', '-', '+'])
        .next()
        .unwrap_or("")
        .chars()
        .filter(|c| c.is_alphabetic())
        .collect();
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first
            .to_uppercase()
            .chain(chars.flat_map(char::to_lowercase))
            .collect(),
        None => String::new(),
    }
}

/// The greeting from the broker `staff_email` to the lead named `lead_name`.
pub fn greeting(lead_name: &str, staff_email: &str) -> String {
    let broker = staff_first_name(staff_email);
    let broker = if broker.is_empty() {
        "a equipe".to_string()
    } else {
        broker
    };
    agency::WHATSAPP_GREETING
        .replace("{nome}", first_name(lead_name))
        .replace("{corretor}", &broker)
        .replace("{imobiliaria}", agency::AGENCY_NAME)
        .replace("{empreendimento}", agency::DEVELOPMENT_NAME)
}

/// A WhatsApp chat with `e164` (`+5549…`) that opens with `text` typed in.
pub fn whatsapp_chat(e164: &str, text: &str) -> String {
    let digits: String = e164.chars().filter(char::is_ascii_digit).collect();
    format!("https://wa.me/{digits}?text={}", encode_component(text))
}

/// `text` percent-encoded as `encodeURIComponent` does (what the panel's
/// links use), without a call into the JS runtime, so it is tested natively.
fn encode_component(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 3);
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'_'
            | b'.'
            | b'!'
            | b'~'
            | b'*'
            | b'\''
            | b'('
            | b')' => out.push(byte as char),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_brokers_first_name_comes_from_their_email() {
        assert_eq!(staff_first_name("ana.souza@agencia.com.br"), "Ana");
        assert_eq!(staff_first_name("JOAO_pedro@agencia.com.br"), "Joao");
        assert_eq!(staff_first_name("bia+leads@agencia.com.br"), "Bia");
        assert_eq!(staff_first_name("corretor2@agencia.com.br"), "Corretor");
        assert_eq!(staff_first_name("123@agencia.com.br"), "");
    }

    #[test]
    fn the_greeting_names_the_person_the_broker_and_the_development() {
        let text = greeting("  Maria  da Silva ", "ana.souza@agencia.com.br");
        assert!(text.contains("Maria"), "{text}");
        assert!(!text.contains("Silva"), "{text}");
        assert!(text.contains("Ana"), "{text}");
        assert!(text.contains(agency::DEVELOPMENT_NAME), "{text}");
        assert!(!text.contains('{'), "{text}");
        assert!(greeting("Zé", "9@x.com").contains("a equipe"));
    }

    #[test]
    fn the_chat_link_carries_the_greeting_encoded_as_the_panels_links_do() {
        assert_eq!(
            whatsapp_chat("+5549988887777", "Olá, Zé! Tudo bem?"),
            "https://wa.me/5549988887777?text=Ol%C3%A1%2C%20Z%C3%A9!%20Tudo%20bem%3F"
        );
    }
}
