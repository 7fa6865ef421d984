/// The records of one history transaction as one compact blob, so a save of 100,000 objects
/// writes one history row, not 100,000. Names (entities and properties) are listed once and
/// referred to by number; numbers are LEB128 varints, keys zigzag-encoded:
///
///     names: count, then each as length + UTF-8
///     records: count, then each as entity name, key, change type, property count, property names
package enum HistoryRecordCoding {
    package static func encode(_ records: [HistoryRecord], model: ManagedObjectModel) -> [UInt8] {
        var names: [String] = []
        var numbers: [String: Int] = [:]
        func number(of name: String) -> Int {
            if let known = numbers[name] { return known }
            numbers[name] = names.count
            names.append(name)
            return names.count - 1
        }
        var body: [UInt8] = []
        body.reserveCapacity(records.count * 6)
        append(records.count, to: &body)
        for record in records {
            append(number(of: model.entities[record.entityIndex].name), to: &body)
            append(Int((record.primaryKey << 1) ^ (record.primaryKey >> 63)), to: &body)
            body.append(UInt8(record.type.rawValue))
            append(record.properties.count, to: &body)
            for property in record.properties { append(number(of: property), to: &body) }
        }
        var blob: [UInt8] = []
        append(names.count, to: &blob)
        for name in names {
            append(name.utf8.count, to: &blob)
            blob += name.utf8
        }
        return blob + body
    }

    /// The records of a blob, for the entities `model` still has (others left out), each with its
    /// position in the transaction; nil when the blob is damaged.
    package static func decode(_ blob: [UInt8], model: ManagedObjectModel) -> [(position: Int, record: HistoryRecord)]? {
        var offset = 0
        func next() -> Int? {
            var value = 0
            var shift = 0
            while offset < blob.count, shift < 64 {
                let byte = blob[offset]
                offset += 1
                value |= Int(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }
        guard let nameCount = next() else { return nil }
        var names: [String] = []
        for _ in 0..<nameCount {
            guard let length = next(), length >= 0, offset + length <= blob.count else { return nil }
            names.append(String(decoding: blob[offset..<(offset + length)], as: UTF8.self))
            offset += length
        }
        guard let count = next() else { return nil }
        var records: [(Int, HistoryRecord)] = []
        records.reserveCapacity(count)
        for position in 0..<count {
            guard let entityName = next(), entityName < names.count, let zigzag = next(), offset < blob.count,
                let type = PersistentHistoryChangeType(rawValue: Int(blob[offset]))
            else { return nil }
            offset += 1
            guard let propertyCount = next() else { return nil }
            var properties: [String] = []
            for _ in 0..<propertyCount {
                guard let property = next(), property < names.count else { return nil }
                properties.append(names[property])
            }
            // Changes of entities the model no longer has (renamed or removed since) are left out.
            guard let entity = model.entity(named: names[entityName]) else { continue }
            let bits = UInt64(UInt(bitPattern: zigzag))
            let key = Int64(bitPattern: bits >> 1) ^ -Int64(bitPattern: bits & 1)
            records.append((position, HistoryRecord(entityIndex: entity.index, primaryKey: key, type: type, properties: properties)))
        }
        return records
    }

    private static func append(_ number: Int, to bytes: inout [UInt8]) {
        var value = UInt(bitPattern: number)
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }
}
