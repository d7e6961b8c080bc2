import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackExperiments

extension ExposureLog {
  /// Reads an exposure log (`ExposureLog.columns`; docs/counterfactual.md).
  ///
  /// - Throws: `InputFileError` when unreadable; `DiagnosticList` with every problem.
  public static func read(path: String) throws -> ExposureLog {
    try read(bytes: FileIO.readBytes(path), file: path)
  }

  /// Reads exposure-log CSV bytes; `file` names them in diagnostics
  /// (`FILE:LINE:COLUMN: message`).
  ///
  /// Refused, each at its field: a missing required column (at 1:1, naming it); a
  /// `time` that is not ISO 8601 with a zone (`Z` or an offset); an `epoch_ms` that is not
  /// an integer or disagrees with `time`; a `propensity` that is not a number in (0, 1]
  /// (0 is refused: a visit the logging policy could not have made says the log is
  /// wrong, and it would be divided by); `estimated`, `reward`, `hit` other than 0 or 1;
  /// an empty `person`, `candidates` or `shown`; a `shown` that is not among the
  /// `candidates`; a `logging_strategy` that differs from the first row's; a time
  /// earlier than the same person's previous row. An empty file, or one with a header
  /// and no row, is refused too.
  ///
  /// - Complexity: O(bytes).
  public static func read(bytes: [UInt8], file: String) throws -> ExposureLog {
    var problems = DiagnosticCollector(file: file)
    var exposures: [Exposure] = []
    var logging: String? = nil
    var lastTime: [String: Int64] = [:]
    bytes.withUnsafeBufferPointer { buffer in
      var csv = CSVReader(buffer)
      var columns: [Int] = []
      while !problems.isFull {
        switch csv.next() {
        case .end:
          if columns.isEmpty {
            problems.report(line: 1, column: 1, "empty file: expected a header row " + Self.columns.joined(separator: ","))
          } else if exposures.isEmpty && problems.isEmpty {
            problems.report(line: 2, column: 1, "no visits: the log has a header and no row")
          }
          return
        case .problem(let p):
          problems.report(line: p.line, column: p.column, p.message)
          if columns.isEmpty { return }
        case .record:
          let fields = (0..<csv.fieldCount).map { String(decoding: csv.field($0), as: UTF8.self) }
          func position(_ i: Int) -> TextPosition { csv.position(ofByte: csv.fieldInfo(i).sourceStart) }
          if columns.isEmpty {
            columns = ImportHeader.indices(
              names: fields, columns: Self.columns,
              required: Self.requiredColumns.map { Self.columns.firstIndex(of: $0)! },
              expectation: "expected a header row " + Self.columns.joined(separator: ","),
              wrongSeparator: "\t", separatorHint: "the columns must be separated by commas, not tabs",
              position: position, problems: &problems)
            if !problems.isEmpty { return }
            // Version 2: the four columns together.
            let two = Self.columnsVersion2.map { columns[Self.columns.firstIndex(of: $0)!] >= 0 }
            if two.contains(true) && two.contains(false) {
              let missing = zip(Self.columnsVersion2, two).filter { !$0.1 }.map(\.0)
              problems.report(
                line: 1, column: 1,
                "a version-2 exposure log has all of the columns \(Self.columnsVersion2.joined(separator: ", ")); "
                  + "missing: \(missing.joined(separator: ", "))")
              return
            }
            continue
          }
          var row = RowReader(fields: fields, columns: columns, position: position)
          if let e = row.exposure(&problems) {
            if let first = logging, row.text("logging_strategy") != first {
              row.report(
                "logging_strategy", "logging strategy '\(row.text("logging_strategy"))' differs from the first row's '\(first)'",
                &problems)
              continue
            }
            logging = row.text("logging_strategy")
            if let last = lastTime[e.person], e.time <= last {
              row.report(
                "time",
                e.time == last
                  ? "a second row of person '\(e.person)' at the same instant: one row per visit (a repeated row?)"
                  : "time goes back for person '\(e.person)': rows of a person must be in time order", &problems)
              continue
            }
            lastTime[e.person] = e.time
            exposures.append(e)
          }
        }
      }
    }
    try problems.throwIfAny()
    return ExposureLog(loggingStrategy: logging ?? "", exposures: exposures)
  }
}

/// One row of an exposure log, its fields found by column name.
struct RowReader {
  var fields: [String]
  var columns: [Int]
  var position: (Int) -> TextPosition

  func index(_ column: String) -> Int? {
    let k = columns[ExposureLog.columns.firstIndex(of: column)!]
    return k >= 0 && k < fields.count ? k : nil
  }

  func text(_ column: String) -> String { index(column).map { fields[$0] } ?? "" }

  func report(_ column: String, _ message: String, _ problems: inout DiagnosticCollector, offset: Int = 0) {
    let p = position(index(column) ?? 0)
    problems.report(line: p.line, column: p.column + offset, message)
  }

  /// The row's exposure, or nil after reporting every problem of the row.
  mutating func exposure(_ problems: inout DiagnosticCollector) -> Exposure? {
    var ok = true
    func fail(_ column: String, _ message: String, offset: Int = 0) {
      report(column, message, &problems, offset: offset)
      ok = false
    }
    for column in ["logging_strategy", "person", "candidates", "shown"] where text(column).isEmpty {
      fail(column, "\(column) is empty")
    }
    var time: Int64 = 0
    switch ISO8601.parse(text("time")) {
    case .success(.absolute(let instant)): time = instant.milliseconds
    case .success(.local):
      fail("time", "time '\(text("time"))' has no zone: write it in UTC with Z (2026-03-02T08:00:00Z)")
    case .failure(let error): fail("time", "time '\(text("time"))': \(error.message)", offset: error.offset)
    }
    if index("epoch_ms") != nil, ok {
      if let ms = Int64(text("epoch_ms")) {
        if ms != time { fail("epoch_ms", "epoch_ms \(ms) is not the time column's instant (\(time))") }
      } else {
        fail("epoch_ms", "epoch_ms '\(text("epoch_ms"))' is not a whole number of milliseconds")
      }
    }
    let propensity = Self.decimal(text("propensity")) ?? .nan
    if propensity > 0 && propensity < ExposureLog.minimumPropensity {
      fail(
        "propensity",
        "propensity \(text("propensity")) is below the floor of \(ExposureLog.minimumPropensity): a weight above "
          + "a million makes every weighted estimate noise; log with more exploration")
    } else if !(propensity > 0 && propensity <= 1) {
      fail(
        "propensity",
        propensity == 0
          ? "propensity 0: the logging policy could not have shown this widget (and IPS would divide by 0); fix the log"
          : "propensity '\(text("propensity"))' is not a number in (0, 1]")
    }
    func flag(_ column: String, default value: Bool) -> Bool {
      guard index(column) != nil else { return value }
      switch text(column) {
      case "0": return false
      case "1": return true
      default:
        fail(column, "\(column) '\(text(column))' must be 0 or 1")
        return false
      }
    }
    let estimated = flag("estimated", default: false)
    let forced = flag("forced", default: false)
    let reward = flag("reward", default: false)
    let hit = flag("hit", default: false)
    let (candidates, stated) = candidateList(&problems, &ok)
    let targets = text("target").isEmpty ? [] : text("target").split(separator: ";").map(String.init)
    if !text("shown").isEmpty && !text("candidates").isEmpty && !candidates.contains(text("shown")) {
      fail("shown", "shown '\(text("shown"))' is not among the candidates '\(text("candidates"))'")
    }
    if let stated, let k = candidates.firstIndex(of: text("shown")), abs(stated[k] - propensity) > 1e-9 {
      fail("propensity", "propensity \(text("propensity")) differs from the probability the candidates column states for '\(text("shown"))' (\(stated[k]))")
    }
    var action: VisitAction? = nil
    var rule: ExposureRule? = nil
    if index("action") != nil {
      action = VisitAction.allCases.first { $0.name == text("action") }
      if action == nil { fail("action", "action '\(text("action"))' must be tap, swipe, open or none") }
      rule = ExposureRule(rawValue: text("rule"))
      if rule == nil {
        fail("rule", "rule '\(text("rule"))' must be one of \(ExposureRule.allCases.map(\.rawValue).joined(separator: ", "))")
      }
      if action == .swipe && !candidates.contains(text("swiped_to")) {
        fail("swiped_to", "swiped_to '\(text("swiped_to"))' must name the candidate the person swiped to")
      } else if action != .swipe && !text("swiped_to").isEmpty {
        fail("swiped_to", "swiped_to '\(text("swiped_to"))' is given but action is '\(text("action"))', not swipe")
      }
      if action == .tap && !reward { fail("action", "action tap with reward 0: a tap on the shown widget is the reward") }
      if action != nil && action != .tap && reward { fail("reward", "reward 1 with action '\(text("action"))': the reward is a tap") }
      if action != nil && action != VisitAction.none && text("want_app").isEmpty {
        fail("want_app", "want_app is empty but the person acted (\(text("action"))): name the app they wanted")
      }
    }
    guard ok else { return nil }
    var e = Exposure(
      person: text("person"), time: time, candidates: candidates, candidateProbabilities: stated, shown: text("shown"), propensity: propensity,
      estimated: estimated, forced: forced, reward: reward, hit: hit, targets: targets)
    e.action = action
    e.rule = rule
    e.swipedTo = text("swiped_to")
    e.wantApp = text("want_app")
    return e
  }

  /// A plain decimal number (digits, one point, an optional exponent), or nil: what
  /// `Double(_:)` also accepts (hexadecimal `0x1p-3`, `inf`, `nan`) is not a probability
  /// anyone writes by hand, and is refused.
  static func decimal(_ text: String) -> Double? {
    guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) || $0 == 46 || $0 == 101 || $0 == 69 || $0 == 43 || $0 == 45 })
    else { return nil }
    return Double(text)
  }

  /// The first id listed a second time, or nil.
  static func firstRepeated(_ ids: [String]) -> String? {
    var seen = Set<String>()
    for id in ids where !seen.insert(id).inserted { return id }
    return nil
  }

  /// The `candidates` column: ids, each optionally `id=probability`; either every
  /// candidate states a probability (in [0, 1], summing to 1 within 1e-6) or none does.
  func candidateList(_ problems: inout DiagnosticCollector, _ ok: inout Bool) -> ([String], [Double]?) {
    let text = self.text("candidates")
    var ids: [String] = []
    var probabilities: [Double] = []
    for part in text.split(separator: ";", omittingEmptySubsequences: false) {
      let kv = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      ids.append(String(kv[0]))
      if kv.count == 2 {
        guard let p = Self.decimal(String(kv[1])), p >= 0, p <= 1 else {
          report("candidates", "candidate probability '\(kv[1])' of '\(kv[0])' is not a number in [0, 1]", &problems)
          ok = false
          return (ids, nil)
        }
        probabilities.append(p)
      }
    }
    if ids.contains("") {
      report("candidates", "candidates '\(text)' has an empty id (ids are joined by ';')", &problems)
      ok = false
    }
    if ids.count > ExposureLog.maximumCandidates {
      report(
        "candidates",
        "\(ids.count) candidates: a stack holds at most 10 widgets (plus suggestions); more than "
          + "\(ExposureLog.maximumCandidates) is refused", &problems)
      ok = false
      return (Array(ids.prefix(1)), nil)
    }
    if let twice = Self.firstRepeated(ids) {
      report("candidates", "candidate '\(twice)' is listed twice", &problems)
      ok = false
    }
    if probabilities.isEmpty { return (ids, nil) }
    if probabilities.count != ids.count {
      report("candidates", "candidates '\(text)': give a probability for every candidate (id=p) or for none", &problems)
      ok = false
      return (ids, nil)
    }
    let total = probabilities.reduce(0, +)
    if abs(total - 1) > 1e-6 {
      report("candidates", "the candidates' probabilities sum to \(total), not 1", &problems)
      ok = false
    }
    return (ids, probabilities)
  }
}
