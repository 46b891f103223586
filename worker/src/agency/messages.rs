//! Every text the worker answers with, in the Portuguese the visitor and the
//! staff read. One place, so a wording change is one edit.

// Generic request problems.
pub const INVALID_JSON: &str = "Requisição inválida: envie os dados em JSON.";
pub const JSON_REQUIRED: &str =
    "Requisição inválida: envie os dados em JSON (Content-Type: application/json).";
pub const BODY_TOO_LARGE: &str = "Os dados enviados são grandes demais.";
pub const METHOD_NOT_ALLOWED: &str = "Método não permitido para este endereço.";
pub const CROSS_ORIGIN: &str = "Requisição recusada: origem não permitida.";
pub const INTERNAL_ERROR: &str = "Erro interno. Tente novamente em instantes.";
pub const NOT_FOUND: &str = "Endereço não encontrado.";

// The lead form (the general message is the specification's).
pub const FILL_ALL_FIELDS: &str = "Por favor, preencha todos os campos.";
pub const CHECK_FIELDS: &str = "Confira os campos destacados.";
pub const FIELD_REQUIRED: &str = "Campo obrigatório.";
pub const FIELD_INVALID: &str = "Valor inválido.";
pub const NAME_TOO_LONG: &str = "O nome pode ter no máximo 120 caracteres.";
pub const NAME_INVALID: &str = "Digite seu nome em uma linha só, com letras visíveis: sem quebras de linha nem caracteres invisíveis ou de controle.";
pub const EMAIL_INVALID: &str = "Informe um e-mail válido, como nome@exemplo.com.";
pub const EMAIL_TOO_LONG: &str = "O e-mail pode ter no máximo 254 caracteres.";
pub const WHATSAPP_INVALID: &str = "Informe o WhatsApp com DDD, como (49) 99999-9999.";
pub const WHATSAPP_BAD_DDD: &str = "DDD inválido. Confira os dois primeiros dígitos do número.";
pub const WHATSAPP_MOBILE_NINE: &str =
    "Celulares têm 9 dígitos depois do DDD, começando por 9. Confira o número.";
/// An answer to the questions after 'Sucesso!' that is not one of agency.json's options.
pub const ANSWER_INVALID: &str = "Escolha uma das opções.";
/// An answer from a browser that holds no proof of a lead (it keeps no cookies).
pub const ANSWER_WITHOUT_LEAD: &str =
    "Não encontramos o seu cadastro neste navegador. Sua resposta não foi salva.";
pub const LEAD_RATE_LIMITED: &str =
    "Muitos envios em pouco tempo. Aguarde alguns minutos e tente novamente.";

// The optional bot check (Turnstile), on the lead form and staff sign-up.
pub const TURNSTILE_MISSING: &str =
    "Aguarde a verificação de segurança terminar e envie novamente.";
pub const TURNSTILE_REFUSED: &str =
    "A verificação de segurança falhou ou expirou. Tente enviar novamente.";
pub const TURNSTILE_UNAVAILABLE: &str =
    "Não foi possível concluir a verificação de segurança. Tente novamente em instantes.";

// Staff accounts (the specification's texts where it has them).
pub const AUTH_EMAIL_INVALID: &str = "Email inválido";
pub const AUTH_PASSWORD_TOO_SHORT: &str = "A senha deve ter pelo menos 6 caracteres";
pub const AUTH_PASSWORD_TOO_LONG: &str = "A senha pode ter no máximo 256 caracteres.";
pub const AUTH_ALREADY_REGISTERED: &str = "Este email já está cadastrado. Tente fazer login.";
pub const AUTH_FIELDS_REQUIRED: &str = "Informe e-mail e senha.";
pub const AUTH_INVALID_CREDENTIALS: &str = "E-mail ou senha incorretos.";
pub const AUTH_NOT_CONFIRMED: &str =
    "Confirme seu e-mail antes de entrar: abra o link que enviamos para a sua caixa de entrada.";
pub const AUTH_TOO_MANY_FAILURES: &str =
    "Muitas tentativas de login sem sucesso. Aguarde 15 minutos e tente novamente.";
pub const AUTH_TOO_MANY_ATTEMPTS: &str =
    "Muitas tentativas de login em pouco tempo. Aguarde um minuto e tente novamente.";
pub const AUTH_TOO_MANY_SIGNUPS: &str =
    "Muitos cadastros em pouco tempo. Aguarde e tente novamente.";
pub const AUTH_SIGNUPS_PAUSED: &str = "Recebemos muitos cadastros em pouco tempo e pausamos os novos. Tente novamente mais tarde ou fale com o responsável pelo painel.";
pub const AUTH_SESSION_REQUIRED: &str = "Sessão expirada ou encerrada. Entre novamente.";
pub const AUTH_CONFIRMATION_INVALID: &str =
    "Link de confirmação inválido ou expirado. Cadastre-se novamente para receber outro.";
pub const AUTH_MAIL_FAILED: &str =
    "Não foi possível enviar o e-mail de confirmação. Tente novamente em instantes.";
pub const AUTH_MAIL_NOT_CONFIGURED: &str =
    "O envio de e-mails deste site não está configurado. Fale com o responsável pelo painel.";
pub const AUTH_COMMON_PASSWORD: &str = "Essa senha é muito comum. Escolha outra.";
pub const AUTH_ACCOUNT_DISABLED: &str = "Conta desativada. Fale com o responsável pelo painel.";
pub const AUTH_CONFIRMATION_PASSWORD: &str = "A senha não confere com a do cadastro que enviou este link. Digite a senha que você escolheu ao se cadastrar.";
pub const AUTH_CONFIRMATION_PASSWORD_REQUIRED: &str =
    "Digite a senha que você escolheu ao se cadastrar.";
pub const AUTH_TOO_MANY_SIGNUP_EMAILS: &str = "Já enviamos vários links para este e-mail na última hora. Confira a caixa de entrada (e o spam) ou tente mais tarde.";
pub const AUTH_TOO_MANY_RESET_REQUESTS: &str =
    "Muitos pedidos de redefinição em pouco tempo. Aguarde e tente novamente.";
pub const AUTH_RESET_REQUESTED: &str =
    "Se o e-mail estiver cadastrado, enviaremos um link para redefinir a senha.";
pub const AUTH_RESET_INVALID: &str =
    "Link de redefinição inválido, expirado ou já usado. Peça outro em 'Esqueci minha senha'.";
pub const AUTH_CURRENT_PASSWORD_WRONG: &str = "A senha atual não confere.";
pub const AUTH_SECRET_TOO_SHORT: &str =
    "JWT_SECRET must be at least 32 bytes: staff access is off until it is";

/// Sign-up with an address outside the company's domain.
pub fn auth_domain_only(domain: &str) -> String {
    format!("Apenas emails @{domain} são permitidos")
}

// The confirmation and password-reset e-mails.
pub const CONFIRM_MAIL_SUBJECT: &str = "Confirme seu acesso ao painel";
pub const RESET_MAIL_SUBJECT: &str = "Redefinição de senha do painel";

// The campaign report ('Campanhas').
pub const PERIOD_DAY_INVALID: &str = "Data inválida: use o formato aaaa-mm-dd.";
pub const PERIOD_BACKWARDS: &str = "A data inicial não pode ser depois da data final.";
pub const PERIOD_TOO_LONG: &str = "Escolha um período de até dois anos.";

// Spend ('Investimento' in 'Campanhas').
pub const SPEND_FORBIDDEN: &str =
    "Você não tem permissão para importar investimento. Peça a um responsável em Equipe.";
pub const SPEND_EMPTY: &str = "O arquivo está vazio: nenhuma linha de investimento.";
pub const SPEND_NO_HEADER: &str = "Não reconhecemos o arquivo: use as colunas data;origem;campanha;investimento \
     (e anuncio, se quiser), ou o relatório exportado do Gerenciador de Anúncios da Meta ou do Google Ads.";
pub const SPEND_TOO_LARGE: &str =
    "Arquivo grande demais: importe até 50.000 linhas (5 MB) de cada vez.";
pub const SPEND_IMPORT_NOT_FOUND: &str = "Importação não encontrada.";
pub const SPEND_ALREADY_UNDONE: &str = "Esta importação já foi desfeita.";

/// A file in another currency.
pub fn spend_currency(code: &str) -> String {
    format!("O arquivo está em {code}; o relatório soma reais: exporte em BRL.")
}

/// A file with lines that could not be read: nothing was imported.
pub fn spend_bad_lines(total: usize) -> String {
    if total == 1 {
        "1 linha do arquivo tem erro; nada foi importado.".to_string()
    } else {
        format!("{total} linhas do arquivo têm erro; nada foi importado.")
    }
}

// The team ('Equipe') and the activity ('Atividade'): owners only.
pub const OWNERS_ONLY: &str = "Apenas os responsáveis pelo painel podem fazer isso.";
pub const STAFF_NOT_FOUND: &str = "Conta não encontrada.";
pub const LAST_OWNER: &str =
    "O painel precisa de pelo menos um responsável ativo: torne outra pessoa responsável antes.";
pub const NOT_YOURSELF: &str = "Você não pode desativar a sua própria conta.";
pub const STAFF_UNCHANGED: &str = "A conta já está assim.";
pub const OWNER_NEEDS_ACTIVE_ACCOUNT: &str =
    "Só uma conta confirmada, aprovada e ativa pode ser responsável pelo painel.";

// Delivery trouble ('Leads não estão chegando ao Jetimob'): the alert, the
// panel's banner, the recovery.
pub const DELIVERY_ALERT_SUBJECT: &str = "Leads não estão chegando ao Jetimob";
pub const CORRECTIONS_ALERT_SUBJECT: &str = "Correções de leads não estão chegando ao Jetimob";
pub const FORM_ALERT_SUBJECT: &str = "O formulário do site está recusando visitantes";
pub const DELIVERY_RECOVERED_SUBJECT: &str = "Entrega ao Jetimob normalizada";
pub const CORRECTIONS_RECOVERED_SUBJECT: &str = "Correções de leads normalizadas";
pub const FORM_RECOVERED_SUBJECT: &str = "Formulário do site normalizado";
pub const WEBHOOK_ALERT_SUBJECT: &str = "O webhook do site não está recebendo os avisos";
pub const WEBHOOK_RECOVERED_SUBJECT: &str = "Webhook do site normalizado";
pub const META_ALERT_SUBJECT: &str = "Os leads não estão chegando ao Meta";
pub const META_RECOVERED_SUBJECT: &str = "Envio dos leads ao Meta normalizado";
/// Several troubles at once, none of them leads failing to reach Jetimob.
pub const SITE_ALERT_SUBJECT: &str = "O site precisa de atenção";
pub const SITE_RECOVERED_SUBJECT: &str = "Site normalizado";
pub const DELIVERY_KEYS_REFUSED: &str =
    "O Jetimob recusou as chaves de acesso da integração (HTTP 401/403).";
pub const DELIVERY_KEYS_REFUSED_TODO: &str = "Confira JETIMOB_PUBLIC_KEY e JETIMOB_PRIVATE_KEY \
     (npx wrangler secret put) e se a integração continua ativa no Jetimob; os leads que esperam \
     serão enviados sozinhos depois.";
pub const DELIVERY_BACKLOG: &str =
    "Há leads esperando há mais de 15 minutos para chegar ao Jetimob.";
pub const DELIVERY_BACKLOG_TODO: &str = "Veja no painel o último erro dos leads pendentes. Se o \
     Jetimob estiver fora do ar, os leads serão enviados sozinhos quando ele voltar.";
pub const DELIVERY_GIVEN_UP: &str = "Há leads que o Jetimob não aceitou em 7 dias de tentativas: \
     eles não estão no Jetimob e não serão mais enviados sozinhos.";
pub const DELIVERY_GIVEN_UP_TODO: &str = "Veja no painel, em 'Falharam', o último erro de cada um: \
     corrija o problema e use 'Reenviar', ou cadastre o lead no Jetimob e use 'Marcar Enviado'.";
pub const DELIVERY_CORRECTIONS: &str = "Há correções de visitantes esperando há mais de 15 \
     minutos para chegar ao Jetimob: lá, esses leads ainda estão com os dados antigos (nome, \
     e-mail ou WhatsApp).";
pub const DELIVERY_CORRECTIONS_TODO: &str = "Antes de falar com esses visitantes, veja no painel os \
     dados que eles corrigiram. Se o Jetimob estiver fora do ar, as correções serão enviadas \
     sozinhas quando ele voltar. As que falharam (após 7 dias de tentativas) aparecem em 'Precisam \
     de atenção': corrija o lead no Jetimob e use 'Marcar Enviado', ou use 'Reenviar'.";
pub const DELIVERY_OFF: &str =
    "A entrega ao Jetimob está desligada: as chaves da integração não estão configuradas.";
pub const DELIVERY_OFF_TODO: &str = "Cadastre JETIMOB_PUBLIC_KEY e JETIMOB_PRIVATE_KEY \
     (npx wrangler secret put); os leads que esperam serão enviados no minuto seguinte.";

// The panel's banner, folded to a line: no lead reaches Jetimob, or a few
// were refused (the panel says how many); anything else reads its summary.
pub const BANNER_JETIMOB_DOWN: &str = "Jetimob fora do ar: os leads não estão chegando lá";
pub const BANNER_KEYS_REFUSED: &str =
    "O Jetimob recusou as chaves da integração: os leads não estão chegando lá";
pub const BANNER_OFF: &str = "Entrega ao Jetimob desligada: os leads esperam no painel";
pub const BANNER_STOPPED: &str = "Envio automático parado: os leads esperam no painel";
pub const BANNER_REFUSED: &str = "Leads recusados pelo Jetimob";

// The cron stopped: said by /api/health and the panel, since the alerts
// themselves go out from the cron.
pub const WATCH_NEVER_RAN: &str =
    "O envio automático ainda não rodou, e há leads esperando há mais de 15 minutos.";
pub const WATCH_STOPPED: &str = "O agendador do site (o Cron Trigger, que roda a cada minuto) \
     parou: nenhum lead é enviado ao Jetimob, e ninguém recebe os avisos por e-mail, nem o deste \
     problema.";
pub const WATCH_STOPPED_TODO: &str = "Confira nas configurações do worker, na Cloudflare, se o \
     Cron Trigger continua cadastrado; publicar o site de novo (make deploy) o recria a partir do \
     wrangler.toml. Se ele estiver lá, veja os erros do worker com npx wrangler tail.";

pub fn watch_stopped_since(since: &str) -> String {
    format!("O envio automático está parado desde {since}.")
}

// The e-mail API refusing: said by /api/health and the panel, since the
// alerts themselves go out by e-mail.
pub const MAIL_FAILING: &str = "A API de e-mail recusou o último envio: confirmações de \
     cadastro, redefinições de senha, avisos de novos leads e os alertas do painel não estão \
     saindo.";
pub const MAIL_FAILING_TODO: &str = "Confira MAIL_API_KEY (npx wrangler secret put), se o \
     domínio do remetente continua verificado e se o limite de envios do plano não acabou. Os \
     avisos de novos leads voltam a sair sozinhos. Este aviso some quando um e-mail sair: para \
     conferir, peça 'Esqueci minha senha' para o seu próprio e-mail.";
pub const MAIL_KEPT: &str =
    "Os leads continuam chegando ao painel e ao Jetimob; só os e-mails deixam de sair.";

pub fn mail_failing(since: &str) -> String {
    format!("Os e-mails do site não estão saindo: o último envio, em {since}, foi recusado.")
}

pub fn mail_recovered(since: &str) -> String {
    format!("Os e-mails do site voltaram a sair (o problema começou em {since}).")
}

pub const FORM_BLOCKED: &str = "O formulário do site está recusando os visitantes: a verificação \
     anti-robô (Turnstile) não pôde ser feita.";
pub const FORM_BLOCKED_TODO: &str = "Confira TURNSTILE_SECRET_KEY (npx wrangler secret put) e se o \
     site continua cadastrado no Turnstile da Cloudflare. Se o Turnstile estiver fora do ar, o \
     formulário volta a funcionar com ele; para reabri-lo já, desligue o Turnstile (apague \
     TURNSTILE_SITE_KEY) e publique de novo.";

pub const WEBHOOK_FAILING: &str = "O webhook (ALERT_WEBHOOK_URL) recusou o mesmo aviso três \
     vezes: o canal que o recebe (um chat, uma automação) está sem notícias dos novos leads e dos \
     alertas.";
pub const WEBHOOK_FAILING_TODO: &str = "Confira se o endereço em ALERT_WEBHOOK_URL continua válido \
     (npx wrangler secret put) e se o canal ainda o aceita; o último erro aparece em npx wrangler \
     tail. Os avisos que esperam são reenviados sozinhos durante uma semana; os leads estão todos \
     no painel.";

pub const META_REFUSED: &str = "O Meta recusou o token de acesso ou o pixel da integração \
     (API de Conversões): os novos leads não chegam às campanhas do Meta, que ficam sem saber \
     quais cliques viraram leads.";
pub const META_REFUSED_TODO: &str = "Confira no Gerenciador de Eventos do Meta se o pixel \
     (META_PIXEL_ID) existe e se o token (META_ACCESS_TOKEN, npx wrangler secret put) continua \
     válido e com permissão de enviar eventos; a resposta do Meta aparece na página de cada lead \
     que esperou. Os leads que esperam são enviados sozinhos depois, por até 7 dias.";

/// The steps only an owner can take (a secret, the worker's settings, the
/// services' accounts): the panel shows them to everyone else as something
/// to tell an owner.
pub const OWNERS_TODOS: [&str; 7] = [
    DELIVERY_KEYS_REFUSED_TODO,
    DELIVERY_OFF_TODO,
    WATCH_STOPPED_TODO,
    MAIL_FAILING_TODO,
    FORM_BLOCKED_TODO,
    WEBHOOK_FAILING_TODO,
    META_REFUSED_TODO,
];

/// The alert's last word on the leads themselves.
pub const ALERT_LEADS_KEPT: &str = "Nenhum lead se perde: todos ficam guardados no painel e são \
     enviados ao Jetimob assim que possível.";
pub const ALERT_VISITORS_REFUSED: &str = "Os leads já recebidos ficam guardados no painel, mas os \
     visitantes que o formulário recusou não ficaram registrados.";

/// The open incident in one line: what (its headline), since when, and how
/// many leads wait (when any do).
pub fn delivery_incident(headline: &str, since: &str, waiting: i64) -> String {
    let waiting = match waiting {
        0 => String::new(),
        1 => " 1 lead esperando envio.".to_string(),
        n => format!(" {n} leads esperando envio."),
    };
    format!("{headline} desde {since}.{waiting}")
}

/// How long the oldest lead not in Jetimob has waited, for the banner.
pub fn oldest_waiting(ms: i64) -> String {
    let minutes = (ms / 60_000).max(0);
    match minutes {
        0 => "O mais antigo espera há menos de 1 minuto.".to_string(),
        1 => "O mais antigo espera há 1 minuto.".to_string(),
        m if m < 120 => format!("O mais antigo espera há {m} minutos."),
        m => format!("O mais antigo espera há {} horas.", m / 60),
    }
}

pub fn delivery_recovered(since: &str) -> String {
    format!(
        "Entrega ao Jetimob normalizada: os leads voltaram a chegar ao Jetimob (o problema começou em {since})."
    )
}

pub fn corrections_recovered(since: &str) -> String {
    format!(
        "Correções de leads normalizadas: nenhuma correção de visitante espera mais para chegar ao Jetimob (o problema começou em {since})."
    )
}

pub fn form_recovered(since: &str) -> String {
    format!(
        "Formulário do site normalizado: a verificação anti-robô (Turnstile) não recusa mais visitantes (o problema começou em {since})."
    )
}

pub fn site_recovered(since: &str) -> String {
    format!(
        "Site normalizado: tudo o que o alerta apontou voltou ao normal (o problema começou em {since})."
    )
}

pub fn meta_recovered(since: &str) -> String {
    format!(
        "Envio dos leads ao Meta normalizado: o Meta voltou a aceitar os eventos dos novos leads (o problema começou em {since})."
    )
}

pub fn webhook_recovered(since: &str) -> String {
    format!(
        "Webhook do site normalizado: nenhum aviso espera mais para ser reenviado (o problema começou em {since})."
    )
}

// The staff panel.
pub const LEAD_NOT_FOUND: &str =
    "Lead não encontrado. Ele pode ter sido removido por outra pessoa.";
pub const LEAD_ALREADY_SENT: &str = "Este lead já está marcado como enviado ao Jetimob.";
pub const CRM_NOT_CONFIGURED: &str = "A integração com o Jetimob não está configurada.";

// 'Já falei' and its 'Desfazer'.
pub const UNCONTACT_NONE: &str = "Nenhum contato registrado neste lead.";
pub const UNCONTACT_NOT_YOURS: &str = "Só quem registrou o contato pode desfazê-lo.";
pub const UNCONTACT_TOO_LATE: &str =
    "O contato foi registrado há mais de um minuto e não pode mais ser desfeito.";

// The owners' choices for the panel.
pub const CONTACT_TARGET_INVALID: &str =
    "A meta de primeiro contato é um número inteiro de minutos, de 1 a 1440.";

// 'Corrigir WhatsApp' on a lead Jetimob refused.
pub const WHATSAPP_UNCHANGED: &str = "Este já é o WhatsApp do lead.";
pub const WHATSAPP_OF_ANOTHER_LEAD: &str =
    "Este WhatsApp é de outro lead: confira o número com a pessoa.";
pub const WHATSAPP_IN_CRM: &str = "O Jetimob já tem este lead e não recusou nada dele: \
     corrija o número no próprio Jetimob.";
pub const WHATSAPP_CHANGED_MEANWHILE: &str =
    "O lead mudou enquanto você corrigia o número. Recarregue a página e confira.";

// Changes to a lead waiting for staff ('Alteração pendente').
pub const CHANGE_NOT_FOUND: &str = "Alteração não encontrada.";
pub const CHANGE_NOT_PENDING: &str = "Esta alteração já foi aceita ou recusada.";
pub const GOOGLE_IMPORT_REFUSED: &str =
    "Usuário ou senha do arquivo de conversões do Google Ads incorretos.";
pub const TOO_MANY_FETCHES: &str = "Muitas tentativas deste endereço. Tente de novo em uma hora.";
pub const META_NOT_CONFIGURED: &str =
    "A integração com o Meta não está configurada (META_PIXEL_ID e META_ACCESS_TOKEN).";
pub const META_NOT_RESENDABLE: &str =
    "Este lead não tem envio ao Meta para refazer: já foi enviado, ou passaram 7 dias.";
/// Why a delivery to Meta was never sent: its 7 days passed first.
pub const META_EXPIRED: &str =
    "Não enviado: passaram 7 dias, e o Meta não aceita eventos mais antigos.";
pub const ANSWERS_EXPIRED: &str =
    "Não enviado: o Jetimob não recebeu as respostas em uma semana de tentativas.";
/// What Jetimob is told of the visitor's answers, before them.
pub const ANSWERS_TO_JETIMOB: &str = "Respostas do visitante";
pub const NO_CHANGE_WAITING: &str = "Nenhuma alteração aguarda neste lead.";
pub const CHANGE_TAKEN_BY_ANOTHER_LEAD: &str =
    "O novo e-mail ou WhatsApp desta alteração já é de outro lead: não é possível aceitá-la.";

// Owners decide who joins, and what a colleague may do.
pub const AUTH_AWAITING_APPROVAL: &str =
    "Seu acesso ao painel aguarda a aprovação de um responsável.";
pub const EXPORT_NOT_ALLOWED: &str =
    "Um responsável pelo painel tirou de você a permissão de exportar leads.";
pub const DELETE_NOT_ALLOWED: &str =
    "Um responsável pelo painel tirou de você a permissão de excluir leads.";
pub const MARK_SENT_NOT_ALLOWED: &str =
    "Um responsável pelo painel tirou de você a permissão de marcar leads como enviados.";
pub const ONLY_COLLEAGUES_PERMISSIONS: &str =
    "Os responsáveis pelo painel sempre podem exportar, excluir e marcar enviado.";
/// A colleague without 'Exportar CSV' who was shown the list's `limit` of
/// leads this hour (`admin::reads`), until `until` (Brasília, `HH:mm`).
pub fn too_many_leads_read(limit: i64, until: &str) -> String {
    format!(
        "Sem a permissão de exportar, a lista mostra a cada pessoa até {limit} leads por hora, e \
         você chegou a esse limite. A lista volta a mostrar novos leads às {until}; para ver mais \
         agora, peça a permissão de exportar a um responsável pelo painel."
    )
}

// 'Desfazer' right after 'Marcar Enviado'.
pub const UNMARK_NOT_MARKED: &str =
    "Este lead não está marcado como enviado pela equipe: não há o que desfazer.";
pub const UNMARK_NOT_YOURS: &str =
    "Só quem marcou o lead como enviado (ou um responsável) pode desfazer a marcação.";
pub const UNMARK_TOO_LATE: &str =
    "Não dá mais para desfazer: o lead foi marcado como enviado há mais de 1 minuto.";
pub const UNMARK_CRM_TOOK_IT: &str =
    "O envio automático já levou este lead ao Jetimob depois da marcação: não dá para desfazer.";

// A new staff password anyone would guess (shown under the password field).
pub const AUTH_PASSWORD_PATTERN: &str = "Essa senha é fácil de adivinhar: evite repetições e sequências como 123456, abcabc ou qwerty. Escolha outra.";
pub const AUTH_PASSWORD_LOCAL_NAME: &str = "Essa senha usa um nome ligado ao site (empreendimento, imobiliária, vinícola ou cidade), fácil de adivinhar. Escolha outra.";

// What owners and each account are told by e-mail.
pub const PASSWORD_RESET_MAIL_SUBJECT: &str = "Sua senha do painel foi redefinida";
pub const PASSWORD_CHANGED_MAIL_SUBJECT: &str = "Sua senha do painel foi alterada";
pub const NEW_DEVICE_MAIL_SUBJECT: &str = "Novo acesso à sua conta do painel";

/// To owners, when an account of the staff domain confirms its address.
pub fn new_account_subject(account: &str) -> String {
    format!("Novo acesso ao painel: {account}")
}

/// Owners told that `reader` reads far more leads than they work.
pub fn bulk_read_subject(reader: &str) -> String {
    format!("Muitos leads vistos por {reader}")
}
