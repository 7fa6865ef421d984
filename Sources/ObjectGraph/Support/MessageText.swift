import Foundation

/// Renderings of values for error messages that cannot trap: Foundation's `Date.description`
/// stops the process on a NaN date, and a wrong value must get an error, not a crash.
enum MessageText {
    /// `value` as `String(reflecting:)` renders it, with dates (also inside arrays and
    /// dictionaries) rendered safely.
    static func of(_ value: Any) -> String {
        switch value {
        case let date as Date: return of(date)
        case let array as [Any]: return "[" + array.map(of).joined(separator: ", ") + "]"
        case let dictionary as [AnyHashable: Any]:
            return "[" + dictionary.map { "\(of($0.key.base)): \(of($0.value))" }.joined(separator: ", ") + "]"
        default: return String(reflecting: value)
        }
    }

    /// The date as `Date.description` renders it, or by its seconds since the reference date when
    /// it is not finite.
    static func of(_ date: Date) -> String {
        let seconds = date.timeIntervalSinceReferenceDate
        return seconds.isFinite ? date.description : "Date(timeIntervalSinceReferenceDate: \(seconds))"
    }
}
