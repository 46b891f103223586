//! Times as staff read them: in Brasília time, `dd/MM/yyyy HH:mm`, as the
//! panel shows them (the CSV, the notices, the alerts); and as the API and the
//! webhook send them, ISO 8601 in UTC. Written by hand from the calendar's
//! arithmetic: a date library's formatting machinery cost more than the rest
//! of this file.

/// The first and last moments written (years 0000 to 9999), in ms.
const FIRST_MS: i64 = -62_167_219_200_000;
const LAST_MS: i64 = 253_402_300_799_999;

/// Brazil has kept UTC−3 all year since daylight saving ended in 2019;
/// should it return, this needs the time-zone database.
const BRASILIA_OFFSET_MS: i64 = -3 * 3_600_000;

/// A moment as a calendar reads it.
struct Civil {
    year: i64,
    month: i64,
    day: i64,
    hour: i64,
    minute: i64,
    second: i64,
    milli: i64,
}

/// The calendar date and time of `ms` since the epoch (proleptic Gregorian,
/// days from 1970-01-01 as in H. Hinnant's `civil_from_days`).
fn civil(ms: i64) -> Option<Civil> {
    if !(FIRST_MS..=LAST_MS).contains(&ms) {
        return None;
    }
    let days = ms.div_euclid(86_400_000);
    let in_day = ms.rem_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    Some(Civil {
        year,
        month,
        day,
        hour: in_day / 3_600_000,
        minute: in_day / 60_000 % 60,
        second: in_day / 1000 % 60,
        milli: in_day % 1000,
    })
}

/// ISO 8601 in UTC with milliseconds (`2026-01-01T00:00:00.000Z`); none for a
/// time out of range.
pub fn iso(ms: i64) -> Option<String> {
    let t = civil(ms)?;
    Some(format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        t.year, t.month, t.day, t.hour, t.minute, t.second, t.milli
    ))
}

/// The time in America/Sao_Paulo; none for a time out of range.
fn in_brasilia(ms: i64) -> Option<Civil> {
    civil(ms.checked_add(BRASILIA_OFFSET_MS)?)
}

/// `dd/MM/yyyy HH:mm` in Brasília time, as the panel shows dates; empty for a
/// time out of range.
pub fn format_date(ms: i64) -> String {
    in_brasilia(ms).map_or_else(String::new, |t| {
        format!(
            "{:02}/{:02}/{:04} {:02}:{:02}",
            t.day, t.month, t.year, t.hour, t.minute
        )
    })
}

/// `HH:mm` in Brasília time, as a message says until when to wait; empty
/// for a time out of range.
pub fn brasilia_time(ms: i64) -> String {
    in_brasilia(ms).map_or_else(String::new, |t| format!("{:02}:{:02}", t.hour, t.minute))
}

/// ISO 8601 in Brasília time with its offset (`2026-11-26T19:30:00-03:00`),
/// as the ad platforms read a conversion's time; empty for a time out of range.
pub fn iso_brasilia(ms: i64) -> String {
    in_brasilia(ms).map_or_else(String::new, |t| {
        format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}-03:00",
            t.year, t.month, t.day, t.hour, t.minute, t.second
        )
    })
}

/// `yyyy-MM-dd`, the day in Brasília time, as a file name carries it: an
/// export made at 22:30 on 31 December is that day's, not 1 January's (UTC's).
pub fn brasilia_day(ms: i64) -> String {
    in_brasilia(ms).map_or_else(String::new, |t| {
        format!("{:04}-{:02}-{:02}", t.year, t.month, t.day)
    })
}

/// Days from 1970-01-01 to a calendar date (H. Hinnant's `days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * (month + if month > 2 { -3 } else { 9 }) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// A calendar day as staff pick it (`yyyy-MM-dd`, years 2000 to 2999).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Day(i64);

impl Day {
    /// `None` unless `text` is a real date written `yyyy-MM-dd`.
    pub fn parse(text: &str) -> Option<Self> {
        let bytes = text.as_bytes();
        if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
            return None;
        }
        let number = |range: std::ops::Range<usize>| -> Option<i64> {
            let part = &text[range];
            part.bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| part.parse().ok())
                .flatten()
        };
        let (year, month, day) = (number(0..4)?, number(5..7)?, number(8..10)?);
        if !(2000..=2999).contains(&year) || !(1..=12).contains(&month) || day < 1 {
            return None;
        }
        let parsed = Self(days_from_civil(year, month, day));
        (parsed.to_string() == text).then_some(parsed)
    }

    /// The day in Brasília at `ms`.
    pub fn in_brasilia(ms: i64) -> Self {
        Self((ms + BRASILIA_OFFSET_MS).div_euclid(86_400_000))
    }

    /// `n` days later (earlier when negative).
    pub fn plus(self, n: i64) -> Self {
        Self(self.0 + n)
    }

    /// Days from `self` to `later`.
    pub fn days_until(self, later: Self) -> i64 {
        later.0 - self.0
    }

    /// Days since the Monday of its week (0 on a Monday, 6 on a Sunday).
    pub fn days_since_monday(self) -> i64 {
        // 1970-01-01 was a Thursday.
        (self.0 + 3).rem_euclid(7)
    }

    /// The first moment of the day in Brasília, in ms since the epoch.
    pub fn start_ms(self) -> i64 {
        self.0 * 86_400_000 - BRASILIA_OFFSET_MS
    }
}

impl std::fmt::Display for Day {
    /// `yyyy-MM-dd`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match civil(self.0 * 86_400_000) {
            Some(t) => write!(f, "{:04}-{:02}-{:02}", t.year, t.month, t.day),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::{DateTime, FixedOffset, SecondsFormat};
    use proptest::prelude::*;

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
        assert_eq!(super::iso(0).as_deref(), Some("1970-01-01T00:00:00.000Z"));
        assert_eq!(
            super::iso(951_782_400_123).as_deref(),
            Some("2000-02-29T00:00:00.123Z")
        );
        assert_eq!(super::iso(i64::MAX), None);
        assert_eq!(super::format_date(i64::MIN), "");
    }

    #[test]
    fn a_day_knows_its_place_in_the_week() {
        let day = |s: &str| super::Day::parse(s).unwrap().days_since_monday();
        assert_eq!(day("2026-11-23"), 0); // a Monday
        assert_eq!(day("2026-11-26"), 3);
        assert_eq!(day("2026-11-29"), 6);
        assert_eq!(day("2026-11-30"), 0);
        assert_eq!(day("2000-01-01"), 5); // a Saturday
    }

    #[test]
    fn a_day_reads_back_as_written_and_starts_at_brasilias_midnight() {
        let day = super::Day::parse("2026-11-01").unwrap();
        assert_eq!(day.to_string(), "2026-11-01");
        // 2026-11-01 00:00 in Brasília is 03:00 UTC.
        assert_eq!(
            super::iso(day.start_ms()).as_deref(),
            Some("2026-11-01T03:00:00.000Z")
        );
        // 23:30 on the 1st in Brasília is 02:30 UTC on the 2nd, and still the 1st.
        assert_eq!(
            super::Day::in_brasilia(day.plus(1).start_ms() - 1_800_000),
            day
        );
        assert_eq!(super::Day::in_brasilia(day.plus(1).start_ms()), day.plus(1));
        assert_eq!(day.days_until(super::Day::parse("2026-12-01").unwrap()), 30);
        for bad in [
            "2026-02-30",
            "2026-13-01",
            "26-11-01",
            "2026-1-01",
            "2026/11/01",
            "",
            "1999-12-31",
            "２026-11-01",
        ] {
            assert_eq!(super::Day::parse(bad), None, "{bad}");
        }
        assert!(super::Day::parse("2028-02-29").is_some());
    }

    proptest! {
        #[test]
        fn every_moment_reads_as_chrono_reads_it(ms in super::FIRST_MS + 3 * 3_600_000..=super::LAST_MS) {
            let utc = DateTime::from_timestamp_millis(ms).unwrap();
            prop_assert_eq!(
                super::iso(ms),
                Some(utc.to_rfc3339_opts(SecondsFormat::Millis, true))
            );
            let brasilia = utc.with_timezone(&FixedOffset::west_opt(3 * 3600).unwrap());
            prop_assert_eq!(super::format_date(ms), brasilia.format("%d/%m/%Y %H:%M").to_string());
            prop_assert_eq!(super::brasilia_day(ms), brasilia.format("%Y-%m-%d").to_string());
            prop_assert_eq!(super::Day::in_brasilia(ms).to_string(), super::brasilia_day(ms));
            prop_assert_eq!(super::iso_brasilia(ms), brasilia.format("%Y-%m-%dT%H:%M:%S-03:00").to_string());
        }
    }
}
