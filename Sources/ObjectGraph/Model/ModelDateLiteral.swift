import Foundation

/// Reads the ISO-8601 dates a model file may contain (defaults and limits of date attributes):
/// `2024-01-31` (midnight UTC) or `2024-01-31T09:30:00Z`, optionally with fractional seconds and
/// with a `±hh:mm` offset instead of `Z`.
///
/// Written out rather than using `ISO8601DateFormatter`, which on Linux accepts impossible dates
/// (`2024-02-30` becomes March 1st) and trailing junk after a date: a model file is checked once,
/// so it should be checked strictly.
enum ModelDateLiteral {
    /// What a date literal must look like, for error messages.
    static let expected = "an ISO-8601 date string such as \"2024-01-31\" or \"2024-01-31T09:30:00Z\" (numbers are not accepted as dates)"

    /// The date written as `text`, or `nil` when it is not a valid date in the accepted forms.
    static func parse(_ text: String) -> Date? {
        var scanner = Cursor(Array(text.utf8))
        guard let year = scanner.digits(4), scanner.skip("-"), let month = scanner.digits(2), scanner.skip("-"),
            let day = scanner.digits(2), (1...12).contains(month), (1...daysInMonth(month, year: year)).contains(day)
        else { return nil }
        var seconds = daysSince1970(year: year, month: month, day: day) * 86_400
        var fraction = 0.0
        if !scanner.isAtEnd {
            guard scanner.skip("T"), let hour = scanner.digits(2), scanner.skip(":"), let minute = scanner.digits(2),
                scanner.skip(":"), let second = scanner.digits(2), hour < 24, minute < 60, second < 60
            else { return nil }
            seconds += hour * 3600 + minute * 60 + second
            if scanner.skip(".") {
                guard let digits = scanner.digitRun(), let value = Double("0." + digits) else { return nil }
                fraction = value
            }
            if !scanner.skip("Z") {
                let sign: Int
                if scanner.skip("+") { sign = 1 } else if scanner.skip("-") { sign = -1 } else { return nil }
                guard let offsetHours = scanner.digits(2), scanner.skip(":"), let offsetMinutes = scanner.digits(2),
                    offsetHours < 24, offsetMinutes < 60
                else { return nil }
                seconds -= sign * (offsetHours * 3600 + offsetMinutes * 60)
            }
            guard scanner.isAtEnd else { return nil }
        }
        // Whole seconds are subtracted as integers so dates without fractions are exact.
        return Date(timeIntervalSinceReferenceDate: Double(seconds - 978_307_200) + fraction)
    }

    private static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's days_from_civil).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// A cursor over ASCII bytes.
    private struct Cursor {
        let bytes: [UInt8]
        var offset = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { offset == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: character) else { return false }
            offset += 1
            return true
        }

        /// Exactly `count` decimal digits as a number.
        mutating func digits(_ count: Int) -> Int? {
            guard offset + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[offset..<offset + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            offset += count
            return value
        }

        /// One or more decimal digits, as text.
        mutating func digitRun() -> String? {
            let start = offset
            while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) { offset += 1 }
            return offset > start ? String(decoding: bytes[start..<offset], as: UTF8.self) : nil
        }
    }
}
