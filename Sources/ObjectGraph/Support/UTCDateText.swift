import Foundation

/// ISO-8601 text of a date in UTC, as `Date.ISO8601FormatStyle` writes it with its defaults:
/// `2026-11-28T22:21:47Z`, or `2026-11-28T22:21:47.125Z` with milliseconds.
///
/// Written out with integer arithmetic because the format style looks up the current time zone
/// through ICU even for UTC: a store's creation would map about 2 MB of ICU code and data into
/// the process, and the first call takes about 2 ms.
enum UTCDateText {
    /// `date` in UTC, to the second (truncated, as the format style does), or to the millisecond.
    /// Years outside 1583–9999 are left to the format style: it writes dates before the
    /// Gregorian reform in the Julian calendar, which this arithmetic does not.
    static func iso8601(_ date: Date, milliseconds: Bool = false) -> String {
        let sinceReference = date.timeIntervalSinceReferenceDate
        // 1e13 s is about 317,000 years: the seconds fit an Int, and the year check decides.
        guard sinceReference.isFinite, abs(sinceReference) < 1e13 else { return formattedByFoundation(date, milliseconds) }
        // The fraction is taken from the seconds since 2001, as the format style takes it: from
        // the seconds since 1970 the same date can be a millisecond off.
        let wholeSeconds = sinceReference.rounded(.down)
        let millisecond = Int((sinceReference - wholeSeconds) * 1000)
        let (days, secondOfDay) = floorDivision(Int(wholeSeconds) + 978_307_200, 86_400)
        let (year, month, day) = civilDate(daysSince1970: days)
        guard (1583...9999).contains(year) else { return formattedByFoundation(date, milliseconds) }
        var text = padded(year, 4) + "-" + padded(month, 2) + "-" + padded(day, 2)
        text += "T" + padded(secondOfDay / 3600, 2) + ":" + padded(secondOfDay / 60 % 60, 2) + ":"
        text += padded(secondOfDay % 60, 2)
        if milliseconds { text += "." + padded(millisecond, 3) }
        return text + "Z"
    }

    private static func formattedByFoundation(_ date: Date, _ milliseconds: Bool) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: milliseconds))
    }

    /// The quotient rounded towards minus infinity, and the remainder that goes with it (never
    /// negative): a date before 1970 still has its time of day counted forwards from midnight.
    private static func floorDivision(_ value: Int, _ divisor: Int) -> (quotient: Int, remainder: Int) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's civil_from_days).
    private static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func padded(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
