//! Every text the worker answers with, in the Portuguese the visitor and the
//! staff read. One place, so a wording change is one edit.

// Generic request problems.
pub const INVALID_JSON: &str = "Requisição inválida: envie os dados em JSON.";
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
pub const NAME_INVALID: &str = "Informe seu nome sem caracteres especiais de controle.";
pub const EMAIL_INVALID: &str = "Informe um e-mail válido, como nome@exemplo.com.";
pub const EMAIL_TOO_LONG: &str = "O e-mail pode ter no máximo 254 caracteres.";
pub const WHATSAPP_INVALID: &str = "Informe o WhatsApp com DDD, como (49) 99999-9999.";
pub const WHATSAPP_BAD_DDD: &str = "DDD inválido. Confira os dois primeiros dígitos do número.";
pub const WHATSAPP_MOBILE_NINE: &str =
    "Celulares têm 9 dígitos depois do DDD, começando por 9. Confira o número.";
pub const LEAD_RATE_LIMITED: &str =
    "Muitos envios em pouco tempo. Aguarde alguns minutos e tente novamente.";
