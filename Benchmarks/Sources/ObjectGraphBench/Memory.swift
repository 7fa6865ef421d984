import Foundation
import BenchSQLite

/// Process memory figures from `/proc/self/status` (Linux), in kibibytes.
enum ProcessMemory {
    /// The peak resident set size since start or since the last `resetPeak()`.
    static var peakKB: Int { field("VmHWM:") }

    /// The current resident set size.
    static var residentKB: Int { field("VmRSS:") }

    /// Returns freed heap to the system, then resets `VmHWM` to the current RSS (Linux: writing 5
    /// to clear_refs), so the next reading measures what follows rather than what came before.
    /// Returns the RSS the peak was reset to.
    static func resetPeak() -> Int {
        malloc_trim(0)
        if let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") {
            try? handle.write(contentsOf: Data("5".utf8))
            try? handle.close()
        }
        return residentKB
    }

    private static func field(_ name: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) })
        else { return 0 }
        return Int(line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? 0
    }
}
