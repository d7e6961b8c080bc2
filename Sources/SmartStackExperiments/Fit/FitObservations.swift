import SmartStackBase
import SmartStackData

/// A log prepared for fitting (`smartstack fit`, docs/fit.md): per person, the Home
/// Screen visits and the donations with the app each names, in time order, on the local
/// clock of one time zone.
///
/// An *app* is a donation signature: (kind, intent, parameters). A log without a visit
/// log uses every donation as a visit of its own (the `replay --visits donations` rule),
/// so its fitted want probability is 1 at every hour.
public struct FitObservations: Sendable {
  /// A donation signature: what a fitted scenario's `apps` entry donates.
  public struct App: Sendable, Hashable {
    public var kind: String
    public var intent: String?
    public var parameters: [Parameter]
  }

  /// The people, sorted by the bytes of their names (the log's `user`).
  public var people: [String]
  /// The apps, most donated first (ties by kind, intent, then parameters, by bytes).
  public var apps: [App]
  /// Per person: visit times, epoch ms, ascending.
  public var visits: [[Int64]]
  /// Per person: donation times (epoch ms, ascending) and the index of their app.
  public var donationTimes: [[Int64]]
  public var donationApps: [[Int32]]
  /// True when the visits came from a visit log; false when they are the donations.
  public var hasVisitLog: Bool
  /// The people's time zone: hours of week, days and the scenario's `timezone`.
  public var zone: ZoneRules
  /// The first local day (days since 1970-01-01) holding a visit or donation, and the
  /// number of local days to the last one, inclusive.
  public var firstDay: Int64
  public var dayCount: Int

  /// Donations whose signature was left out because the log has more than `maximumApps`.
  public var droppedDonations: Int

  /// The most apps a fitted scenario gets (the most donated signatures).
  public static let maximumApps = 200

  /// Groups `log` (and `visitLog`, when given) by person. People who appear only in the
  /// visit log are kept (they have visits and no donations).
  /// - Throws: `FitError` when the log holds no event at all.
  /// - Complexity: O(n log n) in the donations plus visits.
  public init(log: DonationLog, visitLog: VisitLog?, zone: ZoneRules) throws {
    let donations = log.donations
    var names = Set(donations.map(\.user))
    if let visitLog { names.formUnion(visitLog.users) }
    people = names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    guard !people.isEmpty else { throw FitError("the log holds no donation and no visit: nothing to fit") }
    var personIndex: [String: Int] = [:]
    for (i, name) in people.enumerated() { personIndex[name] = i }
    // Apps by count, then by their text.
    var counts: [App: Int] = [:]
    for d in donations { counts[App(kind: d.kind, intent: d.intent, parameters: d.parameters), default: 0] += 1 }
    let ranked = counts.sorted { a, b in
      a.value != b.value ? a.value > b.value : a.key.sortKey.utf8.lexicographicallyPrecedes(b.key.sortKey.utf8)
    }
    apps = ranked.prefix(Self.maximumApps).map(\.key)
    var appIndex: [App: Int32] = [:]
    for (i, app) in apps.enumerated() { appIndex[app] = Int32(i) }
    var times = Array(repeating: [(Int64, Int32)](), count: people.count)
    var dropped = 0
    for d in donations {
      guard let a = appIndex[App(kind: d.kind, intent: d.intent, parameters: d.parameters)] else {
        dropped += 1
        continue
      }
      times[personIndex[d.user]!].append((d.timestamp.milliseconds, a))
    }
    droppedDonations = dropped
    for p in times.indices { times[p].sort { $0 < $1 } }
    donationTimes = times.map { $0.map(\.0) }
    donationApps = times.map { $0.map(\.1) }
    if let visitLog {
      var perPerson = Array(repeating: [Int64](), count: people.count)
      for (user, time) in zip(visitLog.users, visitLog.times) { perPerson[personIndex[user]!].append(time) }
      visits = perPerson.map { $0.sorted() }
      hasVisitLog = true
    } else {
      visits = donationTimes
      hasVisitLog = false
    }
    self.zone = zone
    var first = Int64.max
    var last = Int64.min
    for series in visits + donationTimes {
      if let t = series.first { first = min(first, WallClock.dayIndex(zone.localMilliseconds(at: Instant(milliseconds: t)))) }
      if let t = series.last { last = max(last, WallClock.dayIndex(zone.localMilliseconds(at: Instant(milliseconds: t)))) }
    }
    guard first <= last else { throw FitError("the log holds no donation and no visit: nothing to fit") }
    firstDay = first
    dayCount = Int(last - first + 1)
  }

  /// How many local days of the window fall on each weekday (0 = Monday ... 6 = Sunday).
  public var daysPerWeekday: [Int] {
    var days = Array(repeating: 0, count: 7)
    for d in 0..<Int64(dayCount) { days[WallClock.weekday(dayIndex: firstDay + d)] += 1 }
    return days
  }

  /// The local hour of week (0...167, Monday 00h = 0) of `time` (epoch ms).
  @inline(__always)
  func hourOfWeek(_ time: Int64) -> Int {
    WallClock.hourOfWeek(zone.localMilliseconds(at: Instant(milliseconds: time)))
  }

  /// The local minute of day (0...1439) of `time` (epoch ms).
  @inline(__always)
  func minuteOfDay(_ time: Int64) -> Int {
    WallClock.millisecondOfDay(zone.localMilliseconds(at: Instant(milliseconds: time))) / 60_000
  }
}

extension FitObservations.App {
  /// `kind|intent|k=v;k=v`: a total order for ties and a readable description.
  var sortKey: String {
    kind + "|" + (intent ?? "") + "|" + parameters.map { $0.key + "=" + $0.value }.joined(separator: ";")
  }
}

/// A problem with a fit's inputs or options, without a file position (file problems are
/// reported by the readers as `FILE:LINE:COLUMN`).
public struct FitError: Error, CustomStringConvertible, Sendable {
  public var description: String
  public init(_ description: String) { self.description = description }
}
