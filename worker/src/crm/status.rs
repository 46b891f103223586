//! Where a lead stands with the CRM: its delivery and its correction's, as
//! the columns `delivery_status` and `update_status` hold them. This module
//! names the states and the moves between them; [`super::store`] holds the
//! only SQL that writes them, each statement one of these moves, made
//! atomically in D1 (so two runs, or a run and a staff member, never both
//! make one).

use serde::{Deserialize, Serialize};

/// A lead's delivery (`delivery_status`).
///
/// - `Pending` → `Sent`: the CRM took it (`MARK_DELIVERED_SQL`), or staff
///   marked it sent ('Marcar Enviado', `MARK_SENT_BY_STAFF_SQL`).
/// - `Pending` → `Pending` / `Failed`: the CRM refused it; it waits for its
///   next attempt, or is `Failed` once the retry window is over
///   (`RECORD_FAILURE_SQL`, [`Delivery::after_refusal`]).
/// - `Failed` → `Pending`: 'Reenviar' (`RETRY_NOW_SQL`).
/// - `Sent` (by staff) → `Pending` / `Failed`: 'Desfazer' within its window
///   (`UNMARK_SENT_BY_STAFF_SQL`), back to where it was.
///
/// `jetimob_enviado` is read from it (`delivery_status = 'sent'`, a
/// generated column since migration 0017).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Delivery {
    #[default]
    Pending,
    Sent,
    Failed,
}

impl Delivery {
    /// After the CRM refused the lead: still `Pending` while its retries
    /// last, `Failed` (a person's turn) when they are over.
    pub fn after_refusal(gave_up: bool) -> Self {
        if gave_up {
            Delivery::Failed
        } else {
            Delivery::Pending
        }
    }

    /// As the column holds it.
    pub fn as_str(self) -> &'static str {
        match self {
            Delivery::Pending => "pending",
            Delivery::Sent => "sent",
            Delivery::Failed => "failed",
        }
    }

    /// The panel's badge (and the export's column).
    pub fn label(self) -> &'static str {
        match self {
            Delivery::Pending => "Pendente",
            Delivery::Sent => "Enviado",
            Delivery::Failed => "Falhou",
        }
    }
}

/// A correction's delivery (`update_status`): a lead the CRM has whose
/// details changed since. `Pending` from when the lead takes new details
/// (`take_details!`, in the visitor's submission and in staff's 'Aceitar')
/// until the CRM hears of it (`MARK_CORRECTED_SQL` clears it), `Failed` after
/// a week of refusals (`RECORD_CORRECTION_FAILURE_SQL`); none when there is
/// nothing to tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Correction {
    Pending,
    Failed,
}

impl Correction {
    /// After the CRM refused the correction, as [`Delivery::after_refusal`].
    pub fn after_refusal(gave_up: bool) -> Self {
        if gave_up {
            Correction::Failed
        } else {
            Correction::Pending
        }
    }

    /// As the column holds it.
    pub fn as_str(self) -> &'static str {
        match self {
            Correction::Pending => "pending",
            Correction::Failed => "failed",
        }
    }
}

impl crate::platform::db::Param for Delivery {
    fn value(&self) -> wasm_bindgen::JsValue {
        self.as_str().value()
    }
}

impl crate::platform::db::Param for Correction {
    fn value(&self) -> wasm_bindgen::JsValue {
        self.as_str().value()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_read_and_write_as_the_columns_hold_them() {
        for (state, text) in [
            (Delivery::Pending, "\"pending\""),
            (Delivery::Sent, "\"sent\""),
            (Delivery::Failed, "\"failed\""),
        ] {
            assert_eq!(serde_json::to_string(&state).unwrap(), text);
            assert_eq!(serde_json::from_str::<Delivery>(text).unwrap(), state);
        }
        assert_eq!(
            serde_json::to_string(&Correction::Failed).unwrap(),
            "\"failed\""
        );
        assert!(serde_json::from_str::<Delivery>("\"lost\"").is_err());
    }

    #[test]
    fn a_refusal_keeps_the_lead_waiting_until_its_retries_are_over() {
        assert_eq!(Delivery::after_refusal(false), Delivery::Pending);
        assert_eq!(Delivery::after_refusal(true), Delivery::Failed);
        assert_eq!(Correction::after_refusal(false), Correction::Pending);
        assert_eq!(Correction::after_refusal(true), Correction::Failed);
    }

    #[test]
    fn each_state_has_its_badge() {
        assert_eq!(Delivery::Sent.label(), "Enviado");
        assert_eq!(Delivery::Pending.label(), "Pendente");
        assert_eq!(Delivery::Failed.label(), "Falhou");
    }
}
