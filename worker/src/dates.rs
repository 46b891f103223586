//! Times as staff read them: in Brasília time, `dd/MM/yyyy HH:mm`, as the
//! panel shows them (the CSV, the notices, the alerts); and as the API and the
//! webhook send them, ISO 8601 in UTC.

use chrono::{DateTime, FixedOffset, SecondsFormat};

/// ISO 8601 in UTC with milliseconds (`2026-01-01T00:00:00.000Z`); none for a
/// time out of range.
pub fn iso(ms: i64) -> Option<String> {
    DateTime::from_timestamp_millis(ms).map(|t| t.to_rfc3339_opts(SecondsFormat::Millis, true))
}

/// The time in America/Sao_Paulo, formatted. Brazil has kept UTC−3 all year
/// since daylight saving ended in 2019; should it return, this needs the
/// time-zone database. Empty for a time out of range.
fn in_brasilia(ms: i64, format: &str) -> String {
    let brasilia = FixedOffset::west_opt(3 * 3600).expect("UTC-3 is a valid offset");
    DateTime::from_timestamp_millis(ms)
        .map(|t| t.with_timezone(&brasilia).format(format).to_string())
        .unwrap_or_default()
}

/// `dd/MM/yyyy HH:mm` in Brasília time, as the panel shows dates.
pub fn format_date(ms: i64) -> String {
    in_brasilia(ms, "%d/%m/%Y %H:%M")
}

/// `yyyy-MM-dd`, the day in Brasília time, as a file name carries it: an
/// export made at 22:30 on 31 December is that day's, not 1 January's (UTC's).
pub fn brasilia_day(ms: i64) -> String {
    in_brasilia(ms, "%Y-%m-%d")
}

#[cfg(test)]
mod tests {
    #[test]
    fn dates_read_as_in_the_panel_in_brasilia_time() {
        // 2026-01-01 00:00 UTC is 31/12/2025 21:00 in Brasília.
        assert_eq!(super::format_date(1_767_225_600_000), "31/12/2025 21:00");
    }

    #[test]
    fn the_day_is_brasilias_late_in_the_evening_of_31_december() {
        // 2027-01-01 01:30 UTC is 31/12/2026 22:30 in Brasília.
        assert_eq!(super::brasilia_day(1_798_767_000_000), "2026-12-31");
        // 2027-01-01 03:00 UTC is midnight in Brasília: the new day.
        assert_eq!(super::brasilia_day(1_798_772_400_000), "2027-01-01");
    }

    #[test]
    fn the_api_reads_times_as_iso_8601_in_utc() {
        assert_eq!(
            super::iso(1_767_225_600_000).as_deref(),
            Some("2026-01-01T00:00:00.000Z")
        );
        assert_eq!(super::iso(i64::MAX), None);
    }
}
