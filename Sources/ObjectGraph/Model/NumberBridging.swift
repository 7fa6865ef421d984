import Foundation

/// `NSNumber` values, which `value(forKey:)` hands out and Foundation APIs such as
/// `JSONSerialization` produce, taken back in as the Swift number they hold.
///
/// Foundation's casts would read an `NSNumber` of 5.0 as `Int` 5 and one of `true` as 1; seen as
/// the `Double` or `Bool` it was made from, it meets the same exact rules as a Swift value (no
/// floating point into integers, no integers into booleans) and errors name that type.
enum NumberBridging {
    /// The dynamic types of `NSNumber`s on Linux: numbers, and the two shared booleans.
    private static let numberType = ObjectIdentifier(NSNumber.self)
    private static let booleanType = ObjectIdentifier(type(of: NSNumber(value: true)))

    /// `value` itself, or for an `NSNumber` its Swift value: `Bool`, `Double`, `Float`,
    /// `UInt64` (for unsigned storage) or `Int64`, by the number's `objCType`.
    static func unbridged(_ value: Any) -> Any {
        // An identity test of the dynamic type: `as? NSNumber` would bridge every Swift number
        // into a new NSNumber, and this runs for every value a program sets.
        let dynamicType = ObjectIdentifier(type(of: value))
        guard dynamicType == numberType || dynamicType == booleanType, let number = value as? NSNumber else { return value }
        if dynamicType == booleanType { return number.boolValue }
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "d"): return number.doubleValue
        case UInt8(ascii: "f"): return number.floatValue
        case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"), UInt8(ascii: "S"), UInt8(ascii: "C"): return number.uint64Value
        default: return number.int64Value
        }
    }
}
