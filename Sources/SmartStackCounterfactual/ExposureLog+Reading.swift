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
          func position(_ i: Int) -> TextPosition { csv.position(ofByte: csv.fieldInfo(i).sourceStart) }
          if columns.isEmpty {
            let fields = (0..<csv.fieldCount).map { String(decoding: csv.field($0), as: UTF8.self) }
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
          var row = RowReader(csv: csv, columns: columns, position: position)
          if let e = row.exposure(&problems) {
            if let first = logging, row.text(.loggingStrategy) != first {
              row.report(
                .loggingStrategy, "logging strategy '\(row.text(.loggingStrategy))' differs from the first row's '\(first)'",
                &problems)
              continue
            }
            logging = row.text(.loggingStrategy)
            if let last = lastTime[e.person], e.time <= last {
              row.report(
                .time,
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

/// A column of an exposure log; `rawValue` is its place in `ExposureLog.columns`.
enum ExposureColumn: Int, CaseIterable {
  case loggingStrategy, person, time, epochMs, candidates, shown, propensity, estimated, forced, reward, hit, target
  case action, swipedTo, wantApp, rule

  /// The column's name in a log's header (`ExposureLog.columns`).
  var name: String { ExposureLog.columns[rawValue] }
}

/// One row of an exposure log: the text of each `ExposureColumn`, read once from the
/// record (a column the header lacks, or a row too short for it, reads as empty).
struct RowReader {
  /// For each `ExposureColumn` (by `rawValue`), its field in the record, or -1.
  var fieldOfColumn: [Int]
  /// For each `ExposureColumn` (by `rawValue`), its text ("" when `fieldOfColumn` is -1).
  var texts: [String]
  var position: (Int) -> TextPosition

  /// - Parameter columns: for each `ExposureColumn`, its field in the header, or -1.
  /// - Complexity: O(bytes of the record's known columns).
  init(csv: borrowing CSVReader, columns: [Int], position: @escaping (Int) -> TextPosition) {
    let count = csv.fieldCount
    fieldOfColumn = columns.map { $0 >= 0 && $0 < count ? $0 : -1 }
    texts = fieldOfColumn.map { $0 >= 0 ? String(decoding: csv.field($0), as: UTF8.self) : "" }
    self.position = position
  }

  /// The column's field in the record, or nil.
  func index(_ column: ExposureColumn) -> Int? {
    let k = fieldOfColumn[column.rawValue]
    return k >= 0 ? k : nil
  }

  func text(_ column: ExposureColumn) -> String { texts[column.rawValue] }

  func report(_ column: ExposureColumn, _ message: String, _ problems: inout DiagnosticCollector, offset: Int = 0) {
    let p = position(index(column) ?? 0)
    problems.report(line: p.line, column: p.column + offset, message)
  }

  /// The row's exposure, or nil after reporting every problem of the row.
  mutating func exposure(_ problems: inout DiagnosticCollector) -> Exposure? {
    var ok = true
    func fail(_ column: ExposureColumn, _ message: String, offset: Int = 0) {
      report(column, message, &problems, offset: offset)
      ok = false
    }
    for column in [ExposureColumn.loggingStrategy, .person, .candidates, .shown] where text(column).isEmpty {
      fail(column, "\(column.name) is empty")
    }
    var time: Int64 = 0
    switch ISO8601.parse(text(.time)) {
    case .success(.absolute(let instant)): time = instant.milliseconds
    case .success(.local):
      fail(.time, "time '\(text(.time))' has no zone: write it in UTC with Z (2026-03-02T08:00:00Z)")
    case .failure(let error): fail(.time, "time '\(text(.time))': \(error.message)", offset: error.offset)
    }
    if index(.epochMs) != nil, ok {
      if let ms = Int64(text(.epochMs)) {
        if ms != time { fail(.epochMs, "epoch_ms \(ms) is not the time column's instant (\(time))") }
      } else {
        fail(.epochMs, "epoch_ms '\(text(.epochMs))' is not a whole number of milliseconds")
      }
    }
    let propensity = Self.decimal(text(.propensity)) ?? .nan
    if propensity > 0 && propensity < ExposureLog.minimumPropensity {
      fail(
        .propensity,
        "propensity \(text(.propensity)) is below the floor of \(ExposureLog.minimumPropensity): a weight above "
          + "a million makes every weighted estimate noise; log with more exploration")
    } else if !(propensity > 0 && propensity <= 1) {
      fail(
        .propensity,
        propensity == 0
          ? "propensity 0: the logging policy could not have shown this widget (and IPS would divide by 0); fix the log"
          : "propensity '\(text(.propensity))' is not a number in (0, 1]")
    }
    func flag(_ column: ExposureColumn, default value: Bool) -> Bool {
      guard index(column) != nil else { return value }
      switch text(column) {
      case "0": return false
      case "1": return true
      default:
        fail(column, "\(column.name) '\(text(column))' must be 0 or 1")
        return false
      }
    }
    let estimated = flag(.estimated, default: false)
    let forced = flag(.forced, default: false)
    let reward = flag(.reward, default: false)
    let hit = flag(.hit, default: false)
    let (candidates, stated) = candidateList(&problems, &ok)
    let targets = text(.target).isEmpty ? [] : text(.target).split(separator: ";").map(String.init)
    if !text(.shown).isEmpty && !text(.candidates).isEmpty && !candidates.contains(text(.shown)) {
      fail(.shown, "shown '\(text(.shown))' is not among the candidates '\(text(.candidates))'")
    }
    if let stated, let k = candidates.firstIndex(of: text(.shown)), abs(stated[k] - propensity) > 1e-9 {
      fail(.propensity, "propensity \(text(.propensity)) differs from the probability the candidates column states for '\(text(.shown))' (\(stated[k]))")
    }
    var action: VisitAction? = nil
    var rule: ExposureRule? = nil
    if index(.action) != nil {
      action = VisitAction.allCases.first { $0.name == text(.action) }
      if action == nil { fail(.action, "action '\(text(.action))' must be tap, swipe, open or none") }
      rule = ExposureRule(rawValue: text(.rule))
      if rule == nil {
        fail(.rule, "rule '\(text(.rule))' must be one of \(ExposureRule.allCases.map(\.rawValue).joined(separator: ", "))")
      }
      if action == .swipe && !candidates.contains(text(.swipedTo)) {
        fail(.swipedTo, "swiped_to '\(text(.swipedTo))' must name the candidate the person swiped to")
      } else if action != .swipe && !text(.swipedTo).isEmpty {
        fail(.swipedTo, "swiped_to '\(text(.swipedTo))' is given but action is '\(text(.action))', not swipe")
      }
      if action == .tap && !reward { fail(.action, "action tap with reward 0: a tap on the shown widget is the reward") }
      if action != nil && action != .tap && reward { fail(.reward, "reward 1 with action '\(text(.action))': the reward is a tap") }
      if action != nil && action != VisitAction.none && text(.wantApp).isEmpty {
        fail(.wantApp, "want_app is empty but the person acted (\(text(.action))): name the app they wanted")
      }
    }
    guard ok else { return nil }
    var e = Exposure(
      person: text(.person), time: time, candidates: candidates, candidateProbabilities: stated, shown: text(.shown), propensity: propensity,
      estimated: estimated, forced: forced, reward: reward, hit: hit, targets: targets)
    e.action = action
    e.rule = rule
    e.swipedTo = text(.swipedTo)
    e.wantApp = text(.wantApp)
    return e
  }

  /// A plain decimal number (digits, one point, an optional exponent), or nil: what
  /// `Double(_:)` also accepts (hexadecimal `0x1p-3`, `inf`, `nan`) is not a probability
  /// anyone writes by hand, and is refused.
  static func decimal(_ text: some StringProtocol) -> Double? {
    guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) || $0 == 46 || $0 == 101 || $0 == 69 || $0 == 43 || $0 == 45 })
    else { return nil }
    return Double(text)
  }

  /// The `candidates` column's parts: `text` split at every `;` and each part at its first
  /// `=`, by `Character` (a `;` or `=` that a combining mark joins is no separator), as
  /// `split(separator:omittingEmptySubsequences: false)` cuts them.
  ///
  /// - Complexity: O(n) bytes. ASCII text (every log the toolkit writes) is cut byte by
  ///   byte, where the two cuts agree (between ASCII bytes the only multi-byte grapheme is
  ///   CR LF, and neither separator is part of it); other text is cut by `Character`.
  static func candidateParts(_ text: String) -> [(id: Substring, probability: Substring?)] {
    func part(_ part: Substring) -> (id: Substring, probability: Substring?) {
      let kv = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      return (kv[0], kv.count == 2 ? kv[1] : nil)
    }
    let utf8 = text.utf8
    guard utf8.allSatisfy({ $0 < 0x80 }) else {
      return text.split(separator: ";", omittingEmptySubsequences: false).map(part)
    }
    var parts: [(id: Substring, probability: Substring?)] = []
    var start = utf8.startIndex
    while true {
      let end = utf8[start...].firstIndex(of: UInt8(ascii: ";")) ?? utf8.endIndex
      if let equals = utf8[start..<end].firstIndex(of: UInt8(ascii: "=")) {
        parts.append((text[start..<equals], text[utf8.index(after: equals)..<end]))
      } else {
        parts.append((text[start..<end], nil))
      }
      guard end < utf8.endIndex else { return parts }
      start = utf8.index(after: end)
    }
  }

  /// The first id listed a second time, or nil.
  ///
  /// - Complexity: O(n²) comparisons, no allocation: `candidateList` calls it with at most
  ///   `ExposureLog.maximumCandidates` ids, where that is cheaper than hashing each.
  static func firstRepeated(_ ids: [String]) -> String? {
    for j in ids.indices where ids[..<j].contains(ids[j]) { return ids[j] }
    return nil
  }

  /// The `candidates` column: ids, each optionally `id=probability`; either every
  /// candidate states a probability (in [0, 1], summing to 1 within 1e-6) or none does.
  func candidateList(_ problems: inout DiagnosticCollector, _ ok: inout Bool) -> ([String], [Double]?) {
    let text = self.text(.candidates)
    var ids: [String] = []
    var probabilities: [Double] = []
    for (id, probability) in Self.candidateParts(text) {
      ids.append(String(id))
      if let probability {
        guard let p = Self.decimal(probability), p >= 0, p <= 1 else {
          report(.candidates, "candidate probability '\(probability)' of '\(id)' is not a number in [0, 1]", &problems)
          ok = false
          return (ids, nil)
        }
        probabilities.append(p)
      }
    }
    if ids.contains("") {
      report(.candidates, "candidates '\(text)' has an empty id (ids are joined by ';')", &problems)
      ok = false
    }
    if ids.count > ExposureLog.maximumCandidates {
      report(
        .candidates,
        "\(ids.count) candidates: a stack holds at most 10 widgets (plus suggestions); more than "
          + "\(ExposureLog.maximumCandidates) is refused", &problems)
      ok = false
      return (Array(ids.prefix(1)), nil)
    }
    if let twice = Self.firstRepeated(ids) {
      report(.candidates, "candidate '\(twice)' is listed twice", &problems)
      ok = false
    }
    if probabilities.isEmpty { return (ids, nil) }
    if probabilities.count != ids.count {
      report(.candidates, "candidates '\(text)': give a probability for every candidate (id=p) or for none", &problems)
      ok = false
      return (ids, nil)
    }
    let total = probabilities.reduce(0, +)
    if abs(total - 1) > 1e-6 {
      report(.candidates, "the candidates' probabilities sum to \(total), not 1", &problems)
      ok = false
    }
    return (ids, probabilities)
  }
}
