import Foundation
import Testing

@testable import ObjectGraph

/// The ISO-8601 text ObjectGraph writes without ICU is exactly what Foundation's format style
/// writes: store metadata, messages and migrated text keep their form.
@Suite struct UTCDateTextTests {
    /// Dates where the arithmetic can slip: the epoch and just before it, leap days, century
    /// years, the reference date, the first year written by the arithmetic (1583) and the
    /// years beside it, and the last supported year.
    private static let edges: [TimeInterval] = [
        0, -0.0005, -0.001, -1, -86_400, -86_400.5, 951_782_400, 951_868_799.999, -2_203_891_200,
        -2_208_988_800, 978_307_200, -12_212_553_600, -12_212_553_600.001, -62_135_596_800,
        253_402_300_799.999, 253_402_300_800, 1_796_428_907.123, 4_107_542_400, 68_256_000.25
    ]

    @Test func edgeDatesReadAsFoundationWritesThem() {
        for seconds in Self.edges {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(UTCDateText.iso8601(date) == date.formatted(.iso8601), "\(seconds)")
            #expect(
                UTCDateText.iso8601(date, milliseconds: true)
                    == date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)), "\(seconds)")
        }
    }

    @Test func datesAcrossTheYearsReadAsFoundationWritesThem() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let seconds = Double.random(in: -12_212_553_600..<253_402_300_800, using: &generator)
            let date = Date(timeIntervalSince1970: seconds)
            #expect(UTCDateText.iso8601(date) == date.formatted(.iso8601), "\(seconds)")
            #expect(
                UTCDateText.iso8601(date, milliseconds: true)
                    == date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)), "\(seconds)")
        }
    }

    @Test func aNewStoreRecordsWhenItWasCreatedInUTC() throws {
        let before = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let metadata = StoreMetadataRecord(newStoreFor: try ManagedObjectModel(data: Data(Self.model.utf8)))
        let created = try #require(ModelDateLiteral.parse(metadata.createdAt))
        #expect(metadata.createdAt.hasSuffix("Z"))
        #expect(created >= before && created <= Date())
    }

    private static let model = """
        { "name": "Clock", "version": 1, "entities": [
          { "name": "Tick", "attributes": [ { "name": "at", "type": "date" } ] } ] }
        """
}
