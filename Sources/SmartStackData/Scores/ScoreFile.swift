import SmartStackBase

/// Scores from an outside model (issue 32): per (user, time, widget instance or kind) a
/// score, which the `scores` strategy ranks by.
///
/// CSV (RFC 4180, UTF-8, header row, columns by name, unknown columns ignored):
/// - `timestamp` (required): as in the donation log, ISO 8601 with `Z` or an offset, or a
///   naive local time read in the given zone;
/// - `user` (optional; default `default`): a person of the donation log;
/// - `instance` or `kind` (exactly one of them): an instance id of the stack (for the
///   stacks `all` and `top:N` the instance id is the kind), or a widget kind, whose score
///   then holds for every instance of that kind;
/// - `score` (required): a finite decimal number; higher ranks first.
///
/// Validity: a score holds from its timestamp until the next row for the same (user,
/// instance or kind); before the first, the pair has no score. Each user's rows are in
/// time order (equal times allowed: the later row wins). Every problem is reported as
/// `FILE:LINE:COLUMN: message`; names that the log or the stack do not know are checked
/// where both are known (`ReplayPlan`), still located in this file (`userPositions`,
/// `targetPositions`).
public struct ScoreFile: Sendable, Hashable {
  /// What the `instance` or `kind` column names.
  public enum Target: String, Sendable, Hashable {
    case instance, kind
  }

  /// The file as the user named it (for messages).
  public var file: String
  /// Whether the rows name instances or kinds.
  public var target: Target
  /// Per row, in file order: the person, the time (epoch ms), the instance id or kind,
  /// and the score.
  public var users: [String] = []
  public var times: [Int64] = []
  public var targets: [String] = []
  public var scores: [Double] = []
  /// Per row: where its user and its instance or kind stand in the file (line 1 column 1
  /// for a user left out).
  public var userPositions: [TextPosition] = []
  public var targetPositions: [TextPosition] = []

  public init(file: String, target: Target) {
    self.file = file
    self.target = target
  }

  public var count: Int { times.count }

  /// Reads a score file, reporting every problem as `FILE:LINE:COLUMN: message`.
  public static func read(path: String, zone: ZoneRules = .utc, limit: Int = DiagnosticCollector.defaultLimit) throws -> ScoreFile {
    let bytes = try FileIO.readBytes(path)
    return try read(bytes: bytes, file: path, zone: zone, limit: limit)
  }

  /// The format's own column names.
  public static let columnNames = ["user", "timestamp", "instance", "kind", "score"]

  /// Reads a score file from bytes; `file` names it in diagnostics.
  public static func read(bytes: [UInt8], file: String, zone: ZoneRules = .utc, limit: Int = DiagnosticCollector.defaultLimit) throws -> ScoreFile {
    var problems = DiagnosticCollector(file: file, limit: limit)
    var result = ScoreFile(file: file, target: .instance)
    bytes.withUnsafeBufferPointer { buffer in
      var csv = CSVReader(buffer)
      var column: [String: Int] = [:]
      var header = true
      // Each user's latest time so far, for the order check.
      var latest: [String: Int64] = [:]
      while !problems.isFull {
        switch csv.next() {
        case .end:
          if header {
            problems.report(line: 1, column: 1, "empty file: expected a header row with 'timestamp', 'instance' (or 'kind') and 'score'")
          }
          return
        case .problem(let p):
          problems.report(line: p.line, column: p.column, p.message)
          if header { return }
        case .record:
          if header {
            header = false
            let names = CSVHeader(csv, problems: &problems)
            for name in Self.columnNames {
              if let i = names.firstIndex(of: name) { column[name] = i }
            }
            if column["instance"] != nil && column["kind"] != nil {
              let position = csv.position(ofByte: csv.fieldInfo(max(column["instance"]!, column["kind"]!)).sourceStart)
              problems.report(
                line: position.line, column: position.column,
                "both 'instance' and 'kind' name what is scored: keep one column")
              return
            }
            if column["kind"] != nil { result.target = .kind }
            let missing = ["timestamp", "score"].filter { column[$0] == nil }.map { "'\($0)'" }
              + (column["instance"] == nil && column["kind"] == nil ? ["'instance' (or 'kind')"] : [])
            if !missing.isEmpty {
              problems.report(line: 1, column: 1, names.missingColumns(missing, known: Self.columnNames))
              return
            }
            continue
          }
          let rowStart = csv.position(ofByte: csv.recordStart)
          func position(_ c: Int) -> TextPosition { csv.position(ofByte: csv.fieldInfo(c).sourceStart) }
          var ok = true
          // The user.
          var user = "default"
          var userPosition = rowStart
          if let c = column["user"] {
            userPosition = position(c)
            let u = csv.field(c)
            if u.count > 0 { user = String(decoding: u, as: UTF8.self) }
          }
          // The time.
          let t = column["timestamp"]!
          let field = csv.field(t)
          var time = Int64.min
          switch zone.instant(parsing: field).map(\.milliseconds) {
          case .success(let ms): time = ms
          case .failure(let error):
            ok = false
            let p = field.isEmpty ? position(t) : csv.position(ofByte: csv.sourceOffset(ofField: t, byte: error.offset))
            problems.report(line: p.line, column: p.column, field.isEmpty ? "empty timestamp" : "timestamp: \(error.message)")
          }
          // Each user's rows in time order.
          if time != Int64.min {
            if let previous = latest[user], time < previous {
              ok = false
              let p = position(t)
              problems.report(
                line: p.line, column: p.column,
                "time out of order: user '\(user)' has a score at \(ISO8601.format(Instant(milliseconds: previous))) "
                  + "on an earlier row; each user's rows go in time order")
            } else {
              latest[user] = time
            }
          }
          // The instance or kind.
          let g = column[result.target.rawValue]!
          let targetText = String(decoding: csv.field(g), as: UTF8.self)
          if targetText.isEmpty {
            ok = false
            let p = position(g)
            problems.report(line: p.line, column: p.column, "empty \(result.target.rawValue)")
          }
          // The score.
          let s = column["score"]!
          let scoreText = String(decoding: csv.field(s), as: UTF8.self)
          var score = Double.nan
          if let x = Double(scoreText), x.isFinite, scoreText.allSatisfy({ "0123456789+-.eE".contains($0) }) {
            score = x
          } else {
            ok = false
            let p = position(s)
            problems.report(
              line: p.line, column: p.column,
              scoreText.isEmpty ? "empty score" : "score '\(scoreText)' is not a finite decimal number")
          }
          guard ok else { continue }
          result.users.append(user)
          result.times.append(time)
          result.targets.append(targetText)
          result.scores.append(score)
          result.userPositions.append(userPosition)
          result.targetPositions.append(position(g))
        }
      }
    }
    try problems.throwIfAny()
    return result
  }
}

/// One instance's scores over time (`ScoreFile`), ascending by time: `values[k]` holds
/// from `times[k]` until `times[k + 1]` (at equal times the later one wins).
public struct ScoreSeries: Sendable, Hashable {
  public var times: [Int64]
  public var values: [Double]
  public init(times: [Int64] = [], values: [Double] = []) {
    self.times = times
    self.values = values
  }
  public var isEmpty: Bool { times.isEmpty }

  /// The score that holds at `time`, or nil before the first. O(log n).
  public func value(at time: Int64) -> Double? {
    // The first index with times[k] > time.
    var lo = 0
    var hi = times.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if times[mid] <= time { lo = mid + 1 } else { hi = mid }
    }
    return lo == 0 ? nil : values[lo - 1]
  }
}
