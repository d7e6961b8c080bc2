import SmartStackBase

/// The names a donation row carries, as the readers hand them to a `DonationSink`.
enum DonationNameField {
  case user, kind, intent, parameterKey, parameterValue
}

/// Where the CSV and JSON Lines readers put the rows they read without a problem.
///
/// The readers are generic over it, so each sink gets its own specialised row loop (no
/// existential, no dynamic dispatch per row). A row is handed over as names first
/// (`intern`, each returning the id the row will carry), then `append` with those ids;
/// rows come in file order, not time order. Two sinks: `DonationLogBuilder` keeps every
/// row for `DonationLog.read`; `DonationStatisticsSink` keeps only what `validate` prints.
protocol DonationSink {
  /// True when a reader may keep each distinct raw `parameters` text (a CSV field, a JSON
  /// Lines object as written) with its set id, decoding each text once; false makes it
  /// decode every row's text, so that no text is kept.
  static var cachesParameterTexts: Bool { get }

  /// A hint that about `rows` rows follow.
  mutating func reserve(_ rows: Int)

  /// The id of the name `bytes` in `field`; interning it when the sink keeps ids.
  mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>, as field: DonationNameField) -> Int32

  /// The id of a parameter set given as pairs of ids sorted by (key id, value id).
  mutating func internSet(_ pairs: [ParameterID]) -> Int32

  /// Adds one row. `intent` is -1 for none, `parameterSet` 0 for none, `utcOffset`
  /// `UTCOffset.none` for a row without its own offset.
  mutating func append(
    timestamp: Int64, user: Int32, kind: Int32, intent: Int32, parameterSet: Int32,
    utcOffset: Int32)

  /// The naive local times read so far (where the first ones are, how many fall in a gap
  /// or a fold of the zone): the reader notes each, in file order.
  var localTimes: LocalTimeReport { get set }

  /// Tells the sink the reader ignores a column (CSV) or key (JSON Lines) named `name`;
  /// called once per name per header or object, before the rows it is in.
  mutating func ignore(column name: String)
}

extension DonationSink {
  /// Keeps nothing (`DonationLogBuilder`).
  mutating func ignore(column name: String) {}

  /// The id of the name `text` in `field` (its UTF-8 bytes).
  mutating func intern(_ text: String, as field: DonationNameField) -> Int32 {
    var text = text
    return text.withUTF8 { intern($0, as: field) }
  }
}

extension DonationLogBuilder: DonationSink {
  static var cachesParameterTexts: Bool { true }

  @inline(__always)
  mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>, as field: DonationNameField) -> Int32 {
    switch field {
    case .user: return userNames.intern(bytes)
    case .kind: return kindNames.intern(bytes)
    case .intent: return intentNames.intern(bytes)
    case .parameterKey: return parameterKeys.intern(bytes)
    case .parameterValue: return parameterValues.intern(bytes)
    }
  }
}

/// The statistics `validate` prints, gathered row by row without keeping rows: counts,
/// the smallest and largest instant, the 24 local-hour counts, and the distinct users,
/// kinds, intents and parameter keys (`DistinctNames`, each name's bytes once).
/// Parameter values and sets are not kept (ids it returns are 0).
///
/// Its `statistics` equal `DonationLog.statistics(in:)` of the log read from the same
/// input: the same rows count, the same names are distinct, and each row's hour is taken
/// as there (its own UTC offset when it has one, else `zone`, through a `ZoneCursor`,
/// whose answers do not depend on the query order; rows here come in file order).
///
/// - Complexity: O(name bytes) expected per row; memory O(distinct name bytes).
struct DonationStatisticsSink: DonationSink {
  static var cachesParameterTexts: Bool { false }

  private var users = DistinctNames()
  private var kinds = DistinctNames()
  private var intents = DistinctNames()
  private var parameterKeys = DistinctNames()
  private var events = 0
  private var first = Int64.max
  private var last = Int64.min
  private var hours = [Int](repeating: 0, count: 24)
  private var cursor: ZoneCursor
  var localTimes = LocalTimeReport()
  /// The columns or keys the reader ignored, each once, in the order first met; at most
  /// `ignoredColumnLimit` (a JSON Lines file may hold a new key on every line).
  private(set) var ignoredColumns: [String] = []
  static let ignoredColumnLimit = 100

  /// Empty statistics counting hours in `zone`.
  init(zone: ZoneRules) { cursor = zone.cursor() }

  /// The number of rows added. O(1).
  var count: Int { events }

  func reserve(_ rows: Int) {}

  @inline(__always)
  mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>, as field: DonationNameField) -> Int32 {
    switch field {
    case .user: users.insert(bytes)
    case .kind: kinds.insert(bytes)
    case .intent: intents.insert(bytes)
    case .parameterKey: parameterKeys.insert(bytes)
    case .parameterValue: break
    }
    return 0
  }

  func internSet(_ pairs: [ParameterID]) -> Int32 { 0 }

  mutating func ignore(column name: String) {
    if ignoredColumns.count < Self.ignoredColumnLimit && !ignoredColumns.contains(name) {
      ignoredColumns.append(name)
    }
  }

  @inline(__always)
  mutating func append(
    timestamp: Int64, user: Int32, kind: Int32, intent: Int32, parameterSet: Int32,
    utcOffset: Int32
  ) {
    events += 1
    first = min(first, timestamp)
    last = max(last, timestamp)
    hours[DonationStatistics.hourOfDay(timestamp, utcOffset: utcOffset, cursor: &cursor)] += 1
  }

  /// What was gathered, as `DonationLog.statistics(in:)` reports it.
  var statistics: DonationStatistics {
    DonationStatistics(
      events: events, users: users.count, kinds: kinds.count, intents: intents.count,
      parameterKeys: parameterKeys.count,
      first: events == 0 ? nil : Instant(milliseconds: first),
      last: events == 0 ? nil : Instant(milliseconds: last),
      timeZone: cursor.rules.identifier, hourCounts: hours)
  }
}
