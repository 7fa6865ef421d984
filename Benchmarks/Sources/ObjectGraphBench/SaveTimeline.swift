/// The stretches of the backup benchmark's time line, and the saves classed by them.
struct SaveTimeline {
    typealias Stretch = Range<ContinuousClock.Instant>
    var quiet: [Stretch] = []
    var backups: [Stretch] = []
    var after: [Stretch] = []

    /// A save's latency counts in the first class whose stretches it overlaps, in the order
    /// backup, after, quiet: a save a backup held up overlaps that backup even if it ended after
    /// it. Throughput counts each save once, in the stretch where it ended, so that saves
    /// straddling two stretches do not inflate both.
    func classify(_ saves: [SaveLoad.Save]) -> SaveClasses {
        func overlaps(_ save: SaveLoad.Save, _ stretches: [Stretch]) -> Bool {
            stretches.contains { save.start < $0.upperBound && save.end > $0.lowerBound }
        }
        func endsIn(_ save: SaveLoad.Save, _ stretches: [Stretch]) -> Bool {
            stretches.contains { $0.contains(save.end) }
        }
        var classes = SaveClasses(quiet: SaveFigures(quiet), during: SaveFigures(backups), after: SaveFigures(after))
        for save in saves {
            if let backup = backups.first(where: { save.start < $0.upperBound && save.end > $0.lowerBound }) {
                classes.during.latencies.append(save.seconds)
                let placed = SaveClasses.Placed(
                    seconds: save.seconds, startOffset: (save.start - backup.lowerBound).seconds,
                    backupSeconds: (backup.upperBound - backup.lowerBound).seconds)
                classes.longestDuring.append(placed)
                if placed.share > classes.largestShare?.share ?? 0 { classes.largestShare = placed }
            } else if overlaps(save, after) {
                classes.after.latencies.append(save.seconds)
            } else if overlaps(save, quiet) {
                classes.quiet.latencies.append(save.seconds)
            }
            if endsIn(save, backups) { classes.during.completed += 1 }
            if endsIn(save, after) { classes.after.completed += 1 }
            if endsIn(save, quiet) { classes.quiet.completed += 1 }
        }
        for keyPath in [\SaveClasses.quiet, \.during, \.after] { classes[keyPath: keyPath].latencies.sort() }
        classes.longestDuring = Array(classes.longestDuring.sorted { $0.seconds > $1.seconds }.prefix(3))
        return classes
    }
}

struct SaveClasses {
    /// A save during a backup, placed in it: where the longest ones fall tells a wait for the
    /// backup's start or end (opening or closing its connections) from scheduling noise.
    struct Placed {
        var seconds: Double
        /// From the backup's start to the save's (negative: the save began before the backup).
        var startOffset: Double
        var backupSeconds: Double
        /// The save's latency as a share of the step of the backup it overlapped.
        var share: Double { seconds / backupSeconds }
    }

    var quiet: SaveFigures
    var during: SaveFigures
    var after: SaveFigures
    /// The three longest saves during backups.
    var longestDuring: [Placed] = []
    /// The save during a backup that took the largest share of that backup's step.
    var largestShare: Placed?
}

/// The saves of one class: their latencies in seconds (sorted), how many ended in the class's
/// stretches, and the stretches' total length.
struct SaveFigures {
    var latencies: [Double] = []
    var completed = 0
    let seconds: Double

    init(_ stretches: [SaveTimeline.Stretch]) {
        seconds = stretches.reduce(0) { $0 + ($1.upperBound - $1.lowerBound).seconds }
    }

    var savesPerSecond: Double { seconds > 0 ? Double(completed) / seconds : 0 }
    var maximum: Double { latencies.last ?? 0 }

    /// The nearest-rank percentile.
    func percentile(_ fraction: Double) -> Double {
        guard !latencies.isEmpty else { return 0 }
        let rank = Int((fraction * Double(latencies.count)).rounded(.up))
        return latencies[min(max(rank, 1), latencies.count) - 1]
    }
}
