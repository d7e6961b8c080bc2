import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld
import SmartStackExperiments

/// The reference workload of `smartstack bench`: simulated people driven through the
/// engine exactly as replay drives a log, plus a generated donation log for ingest.
///
/// Everything is generated in-process from `seed`, independent of any file format, and
/// is identical on every machine and run. Person `p` depends only on `(seed, p)`, so the
/// same person faces every strategy, and people are generated one at a time (memory
/// stays O(one person's events)). The exact definition is in `docs/performance.md`,
/// "Reference workload"; in short, per person:
///
/// - a stack of `stackSize` (10) instances: a random `stackSize` of the 12 kinds of
///   `BenchWorkload.kinds`, in random manual order, all candidates from the start;
/// - `days` days from 2026-03-02T00:00:00Z (a Monday), UTC;
/// - per day about `visitsPerDay` (90) Home Screen visits and `donationsPerDay` (30)
///   donations whose hours follow `BenchWorkload.dailyRhythm`; two donations in three
///   come 0–120 s after a visit (the person opened something), the rest at their own
///   time; a donation's kind follows the person's Zipf preferences, boosted near each
///   kind's own peak hour; kinds outside the stack match no instance;
/// - with `relevance` on, per instance and day about `entriesPerInstancePerDay` (3)
///   relevance entries: 1 in 10 without relevance, the others with a duration of 0,
///   15 min, 1 h, 2 h or 4 h and a score that is positive (1 in 5 is `<= 0`).
///
/// A visit's target is the first donation at or after it within `horizonSeconds`
/// (300 s), as in replay.
public struct BenchWorkload: Sendable, Hashable {
  /// Simulated people.
  public var people: Int
  /// Days per person.
  public var days: Int
  /// Mean visits per person-day (drawn uniformly within ±1/9 of it).
  public var visitsPerDay: Int
  /// Mean donations per person-day (drawn uniformly within ±1/6 of it).
  public var donationsPerDay: Int
  /// Instances per stack, 1...12.
  public var stackSize: Int
  /// Whether instances have relevance timelines.
  public var relevance: Bool
  /// Mean relevance entries per instance and day (2...4 for the default 3).
  public var entriesPerInstancePerDay: Int
  /// The visit target horizon, seconds.
  public var horizonSeconds: Int
  /// Rows of the generated ingest log (CSV and the same rows as JSON Lines).
  public var ingestRows: Int
  /// Master seed of everything generated.
  public var seed: UInt64

  public init(
    people: Int = 1_000, days: Int = 28, visitsPerDay: Int = 90, donationsPerDay: Int = 30,
    stackSize: Int = 10, relevance: Bool = true, entriesPerInstancePerDay: Int = 3,
    horizonSeconds: Int = 300, ingestRows: Int = 1_000_000, seed: UInt64 = 1
  ) {
    self.people = people
    self.days = days
    self.visitsPerDay = visitsPerDay
    self.donationsPerDay = donationsPerDay
    self.stackSize = stackSize
    self.relevance = relevance
    self.entriesPerInstancePerDay = entriesPerInstancePerDay
    self.horizonSeconds = horizonSeconds
    self.ingestRows = ingestRows
    self.seed = seed
  }

  /// The default workload of the issue: 1,000 people × 28 days, 1,000,000 ingest rows.
  public static let standard = BenchWorkload()

  /// `--quick`: 200 people × 14 days and 250,000 ingest rows (the CI check).
  public static let quick = BenchWorkload(people: 200, days: 14, ingestRows: 250_000)

  /// The widget kinds people use; a stack holds `stackSize` of them.
  public static let kinds = [
    "RecentPurchases", "Weather", "Calendar", "Music", "Photos", "Notes", "Reminders",
    "Fitness", "News", "Maps", "Stocks", "Podcasts",
  ]

  /// Relative visit (and free donation) frequency per local hour 0...23: quiet nights,
  /// peaks at 8h, 12h and 18–20h.
  public static let dailyRhythm: [Double] = [
    1, 0.5, 0.3, 0.3, 0.3, 1, 3, 8, 9, 6, 5, 6, 8, 6, 5, 5, 6, 8, 9, 9, 8, 6, 4, 2,
  ]

  /// The first day: 2026-03-02T00:00:00Z, a Monday (epoch ms).
  public static let start: Int64 = 1_772_409_600_000

  /// Problems with the parameters, as messages (empty when the workload is valid).
  public var problems: [String] {
    var found: [String] = []
    if people < 1 || people > 10_000_000 { found.append("people must be within 1...10000000") }
    if days < 1 || days > 3_650 { found.append("days must be within 1...3650") }
    if visitsPerDay < 0 || visitsPerDay > 100_000 {
      found.append("visits per day must be within 0...100000")
    }
    if donationsPerDay < 0 || donationsPerDay > 100_000 {
      found.append("donations per day must be within 0...100000")
    }
    if stackSize < 1 || stackSize > Self.kinds.count {
      found.append("stack size must be within 1...\(Self.kinds.count)")
    }
    if entriesPerInstancePerDay < 0 || entriesPerInstancePerDay > 1_000 {
      found.append("entries per instance and day must be within 0...1000")
    }
    if horizonSeconds < 0 || horizonSeconds > 86_400 {
      found.append("horizon must be within 0...86400 seconds")
    }
    if ingestRows < 0 || ingestRows > 100_000_000 {
      found.append("ingest rows must be within 0...100000000")
    }
    return found
  }
}
