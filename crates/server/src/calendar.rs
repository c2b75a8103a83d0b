//! Civil dates (proleptic Gregorian, UTC) of Unix times: the days of the
//! records' headers, the months the explorer counts by.

/// Milliseconds in a day.
pub const DAY_MS: i64 = 86_400_000;

/// The civil date (proleptic Gregorian) of a day counted from 1970-01-01,
/// after Howard Hinnant's algorithm.
#[must_use]
pub fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

/// Days from 1970-01-01 to a civil date (proleptic Gregorian), after Howard
/// Hinnant's algorithm (the inverse of [`civil_from_days`]).
#[must_use]
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The explorer's month of a time in Unix milliseconds: `YYYYMM` of its
/// UTC day, 0 outside the years 1 to 9999 (as migration 0023 computes it
/// in SQL).
///
/// ```
/// use shogi_server::calendar::{month_of, month_start, DAY_MS};
/// assert_eq!(month_of(0), 1970 * 100 + 1);
/// assert_eq!(month_of(-1), 1969 * 100 + 12);
/// assert_eq!(month_of(month_start(2026, 12) - 1), 2026 * 100 + 11);
/// assert_eq!(month_of(i64::MAX), 0);
/// # let _ = DAY_MS;
/// ```
#[must_use]
pub fn month_of(ms: i64) -> i64 {
    if !(FIRST_MS..END_MS).contains(&ms) {
        return 0;
    }
    let (year, month, _) = civil_from_days(ms.div_euclid(DAY_MS));
    year * 100 + month
}

/// The time the game database gives a record that names no day it was
/// played: before every dated game (last in a list of the most recent),
/// month 0 (which no period holds), shown as no date.
///
/// ```
/// use shogi_server::calendar::{month_of, UNDATED_MS};
/// assert_eq!(month_of(UNDATED_MS), 0);
/// ```
pub const UNDATED_MS: i64 = i64::MIN;

/// The first millisecond of a month (UTC).
#[must_use]
pub fn month_start(year: i64, month: u32) -> i64 {
    days_from_civil(year, month, 1) * DAY_MS
}

/// 0001-01-01T00:00Z.
pub(crate) const FIRST_MS: i64 = -62_135_596_800_000;
/// 10000-01-01T00:00Z.
pub(crate) const END_MS: i64 = 253_402_300_800_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_and_dates_agree_both_ways() {
        for days in (-800_000..3_000_000).step_by(997) {
            let (y, m, d) = civil_from_days(days);
            let (m, d) = (u32::try_from(m).unwrap(), u32::try_from(d).unwrap());
            assert_eq!(days_from_civil(y, m, d), days);
        }
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        // 2000 was a leap year, 1900 was not.
        assert_eq!(
            civil_from_days(days_from_civil(2000, 3, 1) - 1),
            (2000, 2, 29)
        );
        assert_eq!(
            civil_from_days(days_from_civil(1900, 3, 1) - 1),
            (1900, 2, 28)
        );
    }

    #[test]
    fn the_bounds_of_the_months_are_the_sql_ones() {
        assert_eq!(month_of(FIRST_MS), 100 + 1);
        assert_eq!(month_of(FIRST_MS - 1), 0);
        assert_eq!(month_of(END_MS - 1), 9999 * 100 + 12);
        assert_eq!(month_of(END_MS), 0);
        assert_eq!(month_start(1, 1), FIRST_MS);
        assert_eq!(month_start(10_000, 1), END_MS);
    }
}
