//! The e-mails staff accounts get: the sign-up's confirmation link and the
//! password-reset link; the owners' word of each new account; and the
//! account's own word of a new password or a sign-in from a browser it had
//! not used ('Não foi você?'). In Portuguese, as text and HTML.

use crate::agency::{self, messages};
use crate::formats::dates;
use crate::mail::{Block, Email, Letter, Span};

/// The confirmation link of a sign-up (valid 24 hours). The HTML part
/// offers it as a button, with the address below for a mail client that
/// will not open it; the text part spells it out on a line of its own.
pub fn confirmation(to: &str, link: &str) -> Email {
    let development = agency::DEVELOPMENT_NAME;
    Letter::new()
        .paragraph("Olá!")
        .paragraph(format!(
            "Recebemos um pedido de acesso ao painel administrativo do {development} para este e-mail."
        ))
        .block(
            Block::paragraph()
                .text_only()
                .line([
                    "Para confirmar e entrar, abra o link abaixo (válido por 24 horas) e digite a \
                     senha que você escolheu no cadastro:",
                ])
                .line([link]),
        )
        .block(
            Block::paragraph()
                .html_only()
                .line([Span::link("Confirmar meu e-mail e entrar", link)]),
        )
        .block(
            Block::paragraph()
                .html_only()
                .line([
                    "Ao abrir o link, digite a senha que você escolheu no cadastro. O link vale por \
                     24 horas. Se o botão não funcionar, copie este endereço no navegador:",
                ])
                .line([link]),
        )
        .paragraph(
            "Se não foi você, ignore esta mensagem: sem a senha do cadastro, ninguém confirma o \
             acesso por este link.",
        )
        .to(to, messages::CONFIRM_MAIL_SUBJECT)
}

/// The link to choose a new password (valid 1 hour, once), as
/// [`confirmation`] offers its link.
pub fn password_reset(to: &str, link: &str) -> Email {
    let development = agency::DEVELOPMENT_NAME;
    Letter::new()
        .paragraph("Olá!")
        .paragraph(format!(
            "Recebemos um pedido para redefinir a senha do painel administrativo do {development} \
             da conta {to}."
        ))
        .block(
            Block::paragraph()
                .text_only()
                .line([
                    "Para escolher uma nova senha, abra o link abaixo (válido por 1 hora, uma vez só):",
                ])
                .line([link]),
        )
        .block(
            Block::paragraph()
                .html_only()
                .line([Span::link("Escolher uma nova senha", link)]),
        )
        .block(
            Block::paragraph()
                .text_only()
                .line(["Ao redefinir, todas as outras sessões abertas da conta são encerradas."]),
        )
        .block(
            Block::paragraph()
                .html_only()
                .line([
                    "O link vale por 1 hora, uma vez só. Ao redefinir, todas as outras sessões \
                     abertas da conta são encerradas. Se o botão não funcionar, copie este \
                     endereço no navegador:",
                ])
                .line([link]),
        )
        .paragraph("Se não foi você, ignore esta mensagem: sua senha continua a mesma.")
        .to(to, messages::RESET_MAIL_SUBJECT)
}

/// To an owner: `account` confirmed its address and is in the panel, or
/// waits for an owner's approval; 'Equipe' (`team_link`) is where to approve
/// it, or to switch it off.
pub fn new_account(to: &str, account: &str, needs_approval: bool, team_link: &str) -> Email {
    let development = agency::DEVELOPMENT_NAME;
    let what = if needs_approval {
        format!(
            "A conta {account} confirmou o e-mail e aguarda a sua aprovação para entrar no \
             painel dos leads do {development}. Aprove ou recuse o acesso em 'Equipe'."
        )
    } else {
        format!(
            "A conta {account} confirmou o e-mail e já entra no painel dos leads do {development}: \
             vê, exporta e exclui leads."
        )
    };
    Letter::new()
        .paragraph(what)
        .paragraph(
            "Se você não reconhece esse acesso (uma caixa compartilhada, alguém que saiu da \
             equipe), desative a conta em 'Equipe' agora: as sessões dela se encerram na hora.",
        )
        .link("Abrir 'Equipe'", team_link)
        .to(to, &messages::new_account_subject(account))
}

/// To an owner: `reader`, without 'Exportar CSV', was shown `read` leads by
/// the list this hour and worked `worked`; 'Equipe' (`team_link`) is where
/// to take their access, 'Atividade' (`activity_link`) what they did.
pub fn bulk_read(
    to: &str,
    reader: &str,
    (read, worked): (i64, i64),
    team_link: &str,
    activity_link: &str,
) -> Email {
    let worked = match worked {
        0 => "não trabalhou nenhum (marcar enviado, reenviar, excluir, decidir uma alteração)"
            .to_string(),
        1 => "trabalhou só 1".to_string(),
        n => format!("trabalhou só {n}"),
    };
    Letter::new()
        .paragraph(format!(
            "A conta {reader}, que não tem a permissão de exportar leads, viu {read} leads na \
             lista do painel do {} na última hora e {worked}.",
            agency::DEVELOPMENT_NAME
        ))
        .paragraph(
            "Pode ser alguém conhecendo o painel; pode ser alguém copiando a base de leads. A \
             lista mostra a essa pessoa no máximo 500 leads por hora. Veja o que ela fez em \
             'Atividade' e, se não reconhece esse uso, desative a conta em 'Equipe'.",
        )
        .link("Abrir 'Atividade'", activity_link)
        .link("Abrir 'Equipe'", team_link)
        .to(to, &messages::bulk_read_subject(reader))
}

/// What happened to an account, for [`security_notice`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Security {
    PasswordReset,
    PasswordChanged,
    /// Signed in from a browser the account had not used before, at this time (ms).
    NewDevice(i64),
}

/// To the account: its password was reset or changed, or it signed in from
/// a new browser. Whoever did not do it resets the password from
/// `reset_link` (which ends every other session).
pub fn security_notice(to: &str, what: Security, reset_link: &str) -> Email {
    let (subject, said) = match what {
        Security::PasswordReset => (
            messages::PASSWORD_RESET_MAIL_SUBJECT,
            format!(
                "A senha da conta {to} no painel do {} foi redefinida pelo link enviado a este \
                 e-mail, e as outras sessões abertas foram encerradas.",
                agency::DEVELOPMENT_NAME
            ),
        ),
        Security::PasswordChanged => (
            messages::PASSWORD_CHANGED_MAIL_SUBJECT,
            format!(
                "A senha da conta {to} no painel do {} foi alterada em 'Alterar senha', \
                 e as outras sessões abertas foram encerradas.",
                agency::DEVELOPMENT_NAME
            ),
        ),
        Security::NewDevice(at) => (
            messages::NEW_DEVICE_MAIL_SUBJECT,
            format!(
                "A conta {to} entrou no painel do {} em {} (horário de Brasília), por um \
                 navegador que ela ainda não tinha usado.",
                agency::DEVELOPMENT_NAME,
                dates::format_date(at)
            ),
        ),
    };
    Letter::new()
        .paragraph(said)
        .paragraph(
            "Não foi você? Redefina a senha agora pelo link abaixo (as sessões abertas se \
             encerram) e avise o responsável pelo painel.",
        )
        .link("Redefinir minha senha", reset_link)
        .to(to, subject)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_confirmation_carries_its_link_and_asks_for_the_sign_up_password() {
        let mail = confirmation("ana@agencia.com.br", "https://site/auth?confirmar=abc");
        assert!(mail.text.contains("https://site/auth?confirmar=abc"));
        assert!(mail.text.contains("válido por 24 horas"));
        assert!(mail.text.contains("digite a senha que você escolheu"));
        assert!(mail.html.contains("Confirmar meu e-mail e entrar"));
    }

    #[test]
    fn the_reset_link_is_escaped_in_html_and_says_it_works_once() {
        let mail = password_reset("ana@agencia.com.br", "https://site/auth?redefinir=a&b");
        assert!(mail.text.contains("https://site/auth?redefinir=a&b"));
        assert!(mail.html.contains("redefinir=a&amp;b"));
        assert!(mail.text.contains("1 hora, uma vez só"));
        assert_eq!(mail.subject, "Redefinição de senha do painel");
    }

    #[test]
    fn the_owners_are_told_of_a_new_account_and_where_to_switch_it_off() {
        let mail = new_account(
            "dono@agencia.com.br",
            "nova@agencia.com.br",
            true,
            "https://site/admin/equipe",
        );
        assert_eq!(mail.subject, "Novo acesso ao painel: nova@agencia.com.br");
        assert!(mail.text.contains("aguarda a sua aprovação"));
        assert!(
            mail.text
                .contains("Abrir 'Equipe': https://site/admin/equipe")
        );
        assert!(mail.text.contains("desative a conta"));
        let open = new_account("dono@agencia.com.br", "nova@agencia.com.br", false, "x");
        assert!(open.text.contains("já entra no painel"));
    }

    #[test]
    fn the_account_hears_of_each_new_password_and_new_browser_with_a_way_back() {
        for what in [
            Security::PasswordReset,
            Security::PasswordChanged,
            Security::NewDevice(1_767_225_600_000),
        ] {
            let mail = security_notice("ana@agencia.com.br", what, "https://site/auth?esqueci=1");
            assert!(mail.text.contains("Não foi você?"), "{what:?}");
            assert!(
                mail.text
                    .contains("Redefinir minha senha: https://site/auth?esqueci=1")
            );
        }
        let new_device = security_notice("a@b.c", Security::NewDevice(1_767_225_600_000), "x");
        assert!(new_device.text.contains("31/12/2025 21:00"));
    }
}
