import SmartStackBase
import SmartStackData
import SmartStackEngine

/// A chronological split of a log source (docs/batch.md, "Time splits"): which visits
/// each of the source's *split points* scores. Strategies observe every donation and
/// relevance entry from the log's start in every point (they learn online, as on a
/// phone); a point only decides which visits count.
///
/// Spelled the same on the command line (`--split TEXT`) and in a config (`"split":
/// "TEXT"`, or the object forms of `ConfigReader.readSplit`), read by `parse`:
/// - `train=A..B,validation=C..D,test=E..F` (`validation` optional): a global split by
///   local dates, each `YYYY-MM-DD..YYYY-MM-DD` inclusive, read in the source's zone; the
///   windows must be in this order without overlapping. Points: `validation` (when
///   given), `test`. `train` is not scored.
/// - `rolling:folds=K:test-days=T`: a rolling back-test. With L the local date of the
///   log's last donation, fold k (1…K) scores the T dates
///   `L − (K − k + 1)·T + 1 … L − (K − k)·T`, training on everything before. Points:
///   `fold1` … `foldK`.
/// - `per-person:TRAIN,VALIDATION,TEST` (or `per-person:TRAIN,TEST`): fractions of each
///   person's own span (`ScoredWindow.personFraction`), which leaks other people's
///   future into a person's training. Points: `validation` (when > 0), `test`.
public enum TimeSplit: Sendable, Hashable {
  /// An inclusive range of local dates, as day indexes (days since 1970-01-01).
  public struct Dates: Sendable, Hashable {
    public var first: Int64
    public var last: Int64
    public init(first: Int64, last: Int64) {
      self.first = first
      self.last = last
    }

    /// `YYYY-MM-DD..YYYY-MM-DD`.
    public var text: String { RunTables.dateText(first) + ".." + RunTables.dateText(last) }

    /// Reads `YYYY-MM-DD..YYYY-MM-DD` (a real calendar date on each side, first ≤ last).
    public static func parse(_ text: String, name: String) throws(TimeSplitError) -> Dates {
      let parts = text.split(separator: ".", omittingEmptySubsequences: false)
      guard parts.count == 3, parts[1].isEmpty, let first = date(parts[0]), let last = date(parts[2]) else {
        throw TimeSplitError("\(name): expected YYYY-MM-DD..YYYY-MM-DD (first and last local date, inclusive), found '\(text)'")
      }
      guard first <= last else {
        throw TimeSplitError("\(name): the window \(text) ends before it starts")
      }
      return Dates(first: first, last: last)
    }

    /// The day index of `YYYY-MM-DD`, or nil when it is not a real date.
    static func date(_ text: Substring) -> Int64? {
      let fields = text.split(separator: "-", omittingEmptySubsequences: false)
      guard fields.count == 3, fields[0].count == 4, fields[1].count == 2, fields[2].count == 2,
        fields.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
        let y = Int(fields[0]), let m = Int(fields[1]), let d = Int(fields[2]), (1...12).contains(m),
        (1...31).contains(d)
      else { return nil }
      let day = ISO8601.daysFromCivil(year: y, month: m, day: d)
      let back = ISO8601.civil(fromDays: day)
      return back.year == y && back.month == m && back.day == d ? day : nil
    }
  }

  case dates(train: Dates, validation: Dates?, test: Dates)
  case rolling(folds: Int, testDays: Int)
  case perPerson(train: Double, validation: Double, test: Double)

  /// The folds `rolling` accepts.
  public static let foldRange = 2...100
  /// The test days per fold `rolling` accepts.
  public static let testDayRange = 1...3_660

  /// The scored points, in expansion order.
  public var points: [String] {
    switch self {
    case .dates(_, let validation, _): return (validation == nil ? [] : ["validation"]) + ["test"]
    case .rolling(let folds, _): return (1...folds).map { "fold\($0)" }
    case .perPerson(_, let validation, _): return (validation > 0 ? ["validation"] : []) + ["test"]
    }
  }

  /// The canonical spelling (what `parse` reads back to the same split).
  public var spelling: String {
    switch self {
    case .dates(let train, let validation, let test):
      return "train=\(train.text)" + (validation.map { ",validation=\($0.text)" } ?? "") + ",test=\(test.text)"
    case .rolling(let folds, let testDays): return "rolling:folds=\(folds):test-days=\(testDays)"
    case .perPerson(let a, let b, let c):
      return "per-person:" + [a, b, c].map(NumberFormat.format).joined(separator: ",")
    }
  }

  /// Reads the spelling (see the type's documentation).
  ///
  /// - Throws: `TimeSplitError` naming what is wrong: a malformed date or number, windows
  ///   out of order or overlapping, folds or fractions out of range.
  public static func parse(_ text: String) throws(TimeSplitError) -> TimeSplit {
    if text.hasPrefix("rolling:") {
      var folds: Int?
      var testDays: Int?
      for part in text.dropFirst("rolling:".count).split(separator: ":", omittingEmptySubsequences: false) {
        let kv = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard kv.count == 2 else { throw TimeSplitError("expected rolling:folds=K:test-days=T, found '\(text)'") }
        switch kv[0] {
        case "folds": folds = Int(kv[1])
          if folds == nil { throw TimeSplitError("folds: expected a whole number, found '\(kv[1])'") }
        case "test-days": testDays = Int(kv[1])
          if testDays == nil { throw TimeSplitError("test-days: expected a whole number, found '\(kv[1])'") }
        default: throw TimeSplitError("unknown key '\(kv[0])' in '\(text)': expected rolling:folds=K:test-days=T")
        }
      }
      guard let folds, let testDays else { throw TimeSplitError("expected rolling:folds=K:test-days=T, found '\(text)'") }
      return try checkedRolling(folds: folds, testDays: testDays)
    }
    if text.hasPrefix("per-person:") {
      let parts = text.dropFirst("per-person:".count).split(separator: ",", omittingEmptySubsequences: false)
      let values = parts.compactMap { Double($0) }
      guard values.count == parts.count else {
        throw TimeSplitError("expected per-person:TRAIN,VALIDATION,TEST (fractions summing to 1), found '\(text)'")
      }
      return try checkedPerPerson(values)
    }
    var windows: [String: Dates] = [:]
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      let kv = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = String(kv[0])
      guard kv.count == 2, ["train", "validation", "test"].contains(name) else {
        throw TimeSplitError(
          "expected train=A..B,validation=C..D,test=E..F (validation optional), rolling:folds=K:test-days=T or per-person:TRAIN,VALIDATION,TEST; found '\(text)'")
      }
      guard windows[name] == nil else { throw TimeSplitError("\(name) is given twice") }
      windows[name] = try Dates.parse(String(kv[1]), name: name)
    }
    guard let train = windows["train"] else { throw TimeSplitError("missing train=A..B (the dates before the scored windows)") }
    guard let test = windows["test"] else { throw TimeSplitError("missing test=A..B (the dates scored as the test window)") }
    return try checkedDates(train: train, validation: windows["validation"], test: test)
  }

  /// A global split by dates, checked: train, validation (if any) and test in this order,
  /// none overlapping the next.
  public static func checkedDates(train: Dates, validation: Dates?, test: Dates) throws(TimeSplitError) -> TimeSplit {
    var windows = [("train", train)]
    if let validation { windows.append(("validation", validation)) }
    windows.append(("test", test))
    for i in 1..<windows.count where windows[i].1.first <= windows[i - 1].1.last {
      throw TimeSplitError(
        "\(windows[i].0) (\(windows[i].1.text)) must start after \(windows[i - 1].0) ends (\(windows[i - 1].1.text)): the windows are in the order train, validation, test and do not overlap")
    }
    return .dates(train: train, validation: validation, test: test)
  }

  /// A rolling back-test, checked: folds in `foldRange`, test days in `testDayRange`.
  public static func checkedRolling(folds: Int, testDays: Int) throws(TimeSplitError) -> TimeSplit {
    guard foldRange.contains(folds) else {
      throw TimeSplitError("folds: expected a whole number in \(foldRange.lowerBound)...\(foldRange.upperBound), found \(folds)")
    }
    guard testDayRange.contains(testDays) else {
      throw TimeSplitError("test-days: expected a whole number in \(testDayRange.lowerBound)...\(testDayRange.upperBound), found \(testDays)")
    }
    return .rolling(folds: folds, testDays: testDays)
  }

  /// Per-person fractions `[train, test]` or `[train, validation, test]`, checked: each
  /// in 0...1, test > 0, summing to 1 (within 1e-9).
  public static func checkedPerPerson(_ values: [Double]) throws(TimeSplitError) -> TimeSplit {
    guard values.count == 2 || values.count == 3 else {
      throw TimeSplitError("per-person: expected 2 or 3 fractions (train, [validation,] test), found \(values.count)")
    }
    guard values.allSatisfy({ (0...1).contains($0) }), values.last! > 0 else {
      throw TimeSplitError("per-person: each fraction must lie in 0...1 and test must be > 0")
    }
    let sum = values.reduce(0, +)
    guard abs(sum - 1) <= 1e-9 else {
      throw TimeSplitError("per-person: the fractions must sum to 1, found \(NumberFormat.format((sum * 1e9).rounded() / 1e9))")
    }
    return .perPerson(train: values[0], validation: values.count == 3 ? values[1] : 0, test: values.last!)
  }

  /// The scored window of point `index` (into `points`) for a log whose donations fall on
  /// local dates `firstDay...lastDay` of `zone`. Dates become instants at the zone's local
  /// midnight (`ZoneRules.startOfLocalDay(dayIndex:)`, the same days as `daily.csv`): a
  /// window `A..B` is `[start of A, start of B + 1)`.
  ///
  /// - Throws: `TimeSplitError` when a global split's windows do not lie within the log's
  ///   dates, or the folds leave no day to train on.
  public func window(point index: Int, zone: ZoneRules, firstDay: Int64, lastDay: Int64) throws(TimeSplitError)
    -> ScoredWindow
  {
    func instants(_ first: Int64, _ last: Int64) -> ScoredWindow {
      .instants(
        start: zone.startOfLocalDay(dayIndex: first).milliseconds,
        end: zone.startOfLocalDay(dayIndex: last + 1).milliseconds)
    }
    let logDates = Dates(first: firstDay, last: lastDay).text
    switch self {
    case .dates(let train, let validation, let test):
      for (name, w) in [("train", train), ("validation", validation), ("test", test)] {
        guard let w else { continue }
        guard w.first >= firstDay, w.last <= lastDay else {
          throw TimeSplitError("\(name) (\(w.text)) lies outside the log's dates (\(logDates), in its time zone \(zone.identifier))")
        }
      }
      let w = points[index] == "validation" ? validation! : test
      return instants(w.first, w.last)
    case .rolling(let folds, let testDays):
      let span = lastDay - firstDay + 1
      guard Int64(folds) * Int64(testDays) < span else {
        throw TimeSplitError(
          "\(folds) folds of \(testDays) test day(s) need more than \(folds * testDays) days, and the log spans \(span) (\(logDates), in its time zone \(zone.identifier)): the first fold would have no day to train on")
      }
      let k = Int64(index + 1)
      let last = lastDay - (Int64(folds) - k) * Int64(testDays)
      return instants(last - Int64(testDays) + 1, last)
    case .perPerson(let train, let validation, _):
      return points[index] == "validation"
        ? .personFraction(from: train, to: train + validation)
        : .personFraction(from: train + validation, to: 1)
    }
  }
}

/// One point of a split: the split and which of its `points` this is.
public struct SplitPoint: Sendable, Hashable {
  public var split: TimeSplit
  public var index: Int
  /// Where the split is written (config or command line), for load-time problems.
  public var location: ConfigLocation

  public init(split: TimeSplit, index: Int, location: ConfigLocation) {
    self.split = split
    self.index = index
    self.location = location
  }

  /// `validation`, `test`, `fold1`, …: the `split` column.
  public var name: String { split.points[index] }
}

/// A split that cannot be read or does not fit its log; the message names the window.
public struct TimeSplitError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
