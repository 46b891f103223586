//! The e-mails staff accounts get: the sign-up's confirmation link and the
//! password-reset link, in Portuguese, as text and HTML.

use crate::mail::{self, Email};
use crate::{agency, messages};

/// The confirmation link of a sign-up (valid 24 hours).
pub fn confirmation(to: &str, link: &str) -> Email {
    let development = agency::DEVELOPMENT_NAME;
    let text = format!(
        "Olá!\n\nRecebemos um pedido de acesso ao painel administrativo do {development} para este e-mail.\n\n\
         Para confirmar e entrar, abra o link abaixo (válido por 24 horas) e digite a senha que você escolheu no cadastro:\n{link}\n\n\
         Se não foi você, ignore esta mensagem: sem a senha do cadastro, ninguém confirma o acesso por este link."
    );
    let link_html = mail::escape_html(link);
    let html = format!(
        "<p>Olá!</p><p>Recebemos um pedido de acesso ao painel administrativo do {} para este e-mail.</p>\
         <p><a href=\"{link_html}\">Confirmar meu e-mail e entrar</a></p>\
         <p>Ao abrir o link, digite a senha que você escolheu no cadastro. O link vale por 24 horas. \
         Se o botão não funcionar, copie este endereço no navegador:<br>{link_html}</p>\
         <p>Se não foi você, ignore esta mensagem: sem a senha do cadastro, ninguém confirma o acesso por este link.</p>",
        mail::escape_html(development)
    );
    Email {
        to: to.to_string(),
        subject: messages::CONFIRM_MAIL_SUBJECT.to_string(),
        text,
        html,
        once: None,
    }
}

/// The link to choose a new password (valid 1 hour, once).
pub fn password_reset(to: &str, link: &str) -> Email {
    let development = agency::DEVELOPMENT_NAME;
    let text = format!(
        "Olá!\n\nRecebemos um pedido para redefinir a senha do painel administrativo do {development} \
         da conta {to}.\n\nPara escolher uma nova senha, abra o link abaixo (válido por 1 hora, uma vez só):\n{link}\n\n\
         Ao redefinir, todas as outras sessões abertas da conta são encerradas.\n\n\
         Se não foi você, ignore esta mensagem: sua senha continua a mesma."
    );
    let link_html = mail::escape_html(link);
    let html = format!(
        "<p>Olá!</p><p>Recebemos um pedido para redefinir a senha do painel administrativo do {} da conta {}.</p>\
         <p><a href=\"{link_html}\">Escolher uma nova senha</a></p>\
         <p>O link vale por 1 hora, uma vez só. Ao redefinir, todas as outras sessões abertas da conta são encerradas. \
         Se o botão não funcionar, copie este endereço no navegador:<br>{link_html}</p>\
         <p>Se não foi você, ignore esta mensagem: sua senha continua a mesma.</p>",
        mail::escape_html(development),
        mail::escape_html(to)
    );
    Email {
        to: to.to_string(),
        subject: messages::RESET_MAIL_SUBJECT.to_string(),
        text,
        html,
        once: None,
    }
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
}
