import Foundation

/// A value of a row read from a page: SQLite's storage classes, text kept as its bytes until
/// checked.
enum SalvagedValue: Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text([UInt8])
    case blob([UInt8])

    var isNull: Bool { self == .null }
}

/// SQLite's record format: a header of serial types, then the values they describe. Decoding
/// fails (nil) unless the header and the values fill the payload exactly, which is what sorts
/// real records from the garbage a damaged page can hold.
enum SalvagedRecord {
    static func decode(_ payload: [UInt8]) -> [SalvagedValue]? {
        guard let headerSize = payload.varint(at: 0), headerSize.value >= 1, headerSize.value <= payload.count else { return nil }
        let headerEnd = Int(headerSize.value)
        var typeOffset = headerSize.length
        var valueOffset = headerEnd
        var values: [SalvagedValue] = []
        while typeOffset < headerEnd {
            guard let serial = payload.varint(at: typeOffset), serial.value >= 0 else { return nil }
            typeOffset += serial.length
            guard let (value, length) = self.value(serialType: serial.value, in: payload, at: valueOffset) else { return nil }
            values.append(value)
            valueOffset += length
        }
        return typeOffset == headerEnd && valueOffset == payload.count ? values : nil
    }

    private static func value(serialType: Int64, in payload: [UInt8], at offset: Int) -> (SalvagedValue, Int)? {
        switch serialType {
        case 0: return (.null, 0)
        case 1...6:
            let width = [1, 2, 3, 4, 6, 8][Int(serialType) - 1]
            guard let raw = payload.bigEndian(at: offset, width: width) else { return nil }
            // Sign-extend from the stored width.
            let shift = UInt64(64 - 8 * width)
            return (.integer(Int64(bitPattern: raw << shift) >> Int64(shift)), width)
        case 7:
            guard let raw = payload.bigEndian(at: offset, width: 8) else { return nil }
            return (.real(Double(bitPattern: raw)), 8)
        case 8: return (.integer(0), 0)
        case 9: return (.integer(1), 0)
        case 10, 11: return nil
        default:
            let length = Int((serialType - 12) / 2)
            guard offset + length <= payload.count else { return nil }
            let bytes = Array(payload[offset..<(offset + length)])
            return (serialType % 2 == 0 ? .blob(bytes) : .text(bytes), length)
        }
    }
}
