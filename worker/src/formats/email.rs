//! E-mail address syntax, shared by leads and staff accounts.

/// Trims and lower-cases `raw`; `None` unless it has a local part and a
/// dotted domain of the shapes mail servers accept, which are ASCII (so an
/// ASCII lower case is the whole lower case of any address kept).
pub fn normalise(raw: &str) -> Option<String> {
    let email = raw.trim().to_ascii_lowercase();
    is_valid(&email).then_some(email)
}

fn is_valid(email: &str) -> bool {
    let Some((local, domain)) = email.split_once('@') else {
        return false;
    };
    let local_ok = !local.is_empty()
        && local.len() <= 64
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && local
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+/=?^_`{|}~.-".contains(c));
    let labels: Vec<&str> = domain.split('.').collect();
    let domain_ok = labels.len() >= 2
        && domain.len() <= 253
        && labels.iter().all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
        && labels.last().is_some_and(|tld| {
            tld.len() >= 2
                && (tld.chars().all(|c| c.is_ascii_alphabetic()) || tld.starts_with("xn--"))
        });
    local_ok && domain_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_trimmed_and_lower_cased() {
        assert_eq!(
            normalise("  Maria.Silva+Vinho@Example.COM.br ").as_deref(),
            Some("maria.silva+vinho@example.com.br")
        );
        assert_eq!(
            normalise("a@xn--vinho-9qa.com").as_deref(),
            Some("a@xn--vinho-9qa.com")
        );
    }

    #[test]
    fn malformed_addresses_are_refused() {
        for raw in [
            "",
            "maria",
            "maria@",
            "@example.com",
            "maria@example",
            "maria@@example.com",
            "maria@exa mple.com",
            "ma ria@example.com",
            ".maria@example.com",
            "maria.@example.com",
            "ma..ria@example.com",
            "maria@-example.com",
            "maria@example.c",
            "maria@example..com",
            "maría@example.com",
            "<script>@example.com",
        ] {
            assert_eq!(normalise(raw), None, "{raw:?}");
        }
    }
}
