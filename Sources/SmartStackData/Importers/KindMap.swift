import SmartStackBase
/// A mapping from bundle ids and intent classes to widget kinds, applied to an import's
/// donations (`smartstack import ... --kinds FILE`).
///
/// The file is CSV (RFC 4180, UTF-8, header row) with the columns `id` and `kind`:
///
///     id,kind
///     com.example.coffee,CoffeeOrders
///     INSendMessageIntent,Messages
///
/// `id` is a bundle id (matched against a donation's `kind`) or an intent class (matched
/// against its `intent`). Problems are reported as `FILE:LINE:COLUMN: message`: a missing
/// column, an empty `id` or `kind`, an `id` given twice.
public struct KindMap: Sendable {
  /// The mapping, in file order (looked up, never iterated into an output).
  public private(set) var entries: [(id: String, kind: String)] = []
  private var kinds: [String: String] = [:]

  public init(_ entries: [(id: String, kind: String)]) {
    for entry in entries where kinds[entry.id] == nil {
      self.entries.append(entry)
      kinds[entry.id] = entry.kind
    }
  }

  /// The kind for `id`, or nil.
  public func kind(for id: String) -> String? { kinds[id] }

  /// Reads a map file.
  ///
  /// - Throws: `InputFileError` when unreadable; `DiagnosticList` with every problem.
  public static func read(path: String) throws -> KindMap {
    try read(bytes: FileIO.readBytes(path), file: path)
  }

  /// Reads map CSV bytes; `file` names them in diagnostics.
  public static func read(bytes: [UInt8], file: String) throws -> KindMap {
    var problems = DiagnosticCollector(file: file)
    var entries: [(id: String, kind: String)] = []
    var lines: [String: Int] = [:]
    bytes.withUnsafeBufferPointer { buffer in
      var csv = CSVReader(buffer)
      var columns: [Int] = []
      while !problems.isFull {
        switch csv.next() {
        case .end:
          if columns.isEmpty {
            problems.report(line: 1, column: 1, "empty file: expected a header row id,kind")
          }
          return
        case .problem(let p):
          problems.report(line: p.line, column: p.column, p.message)
          if columns.isEmpty { return }
        case .record:
          let fields = (0..<csv.fieldCount).map { String(decoding: csv.field($0), as: UTF8.self) }
          func position(_ i: Int) -> TextPosition {
            csv.position(ofByte: csv.fieldInfo(i).sourceStart)
          }
          if columns.isEmpty {
            columns = ImportHeader.indices(
              names: fields, columns: ["id", "kind"], required: [0, 1],
              expectation: "expected a header row id,kind", wrongSeparator: "\t",
              separatorHint: "the columns must be separated by commas, not tabs",
              position: position, problems: &problems)
            if !problems.isEmpty { return }
            continue
          }
          let (idColumn, kindColumn) = (columns[0], columns[1])
          guard idColumn < fields.count, kindColumn < fields.count else {
            let p = position(max(0, fields.count - 1))
            problems.report(
              line: p.line, column: p.column,
              "the row has \(fields.count) fields; expected the columns id and kind")
            continue
          }
          let (id, kind) = (fields[idColumn], fields[kindColumn])
          let line = position(idColumn).line
          if id.isEmpty {
            let p = position(idColumn)
            problems.report(line: p.line, column: p.column, "id is empty")
          } else if let first = lines[id] {
            let p = position(idColumn)
            problems.report(
              line: p.line, column: p.column, "id '\(id)' is mapped again (first on line \(first))")
          }
          if kind.isEmpty {
            let p = position(kindColumn)
            problems.report(line: p.line, column: p.column, "kind is empty")
          }
          if !id.isEmpty && !kind.isEmpty && lines[id] == nil {
            lines[id] = line
            entries.append((id, kind))
          }
        }
      }
    }
    try problems.throwIfAny()
    return KindMap(entries)
  }

  /// `result` with each donation's kind mapped: by its intent class when the map has it
  /// (that match wins), else by its kind (the bundle id or app), else kept as it is. Rows,
  /// order, times and UTC offsets are unchanged. Adds the notes `mapped donations` and
  /// `unmapped ids` (distinct kinds of the donations no entry matched) and recounts `apps`.
  public func apply(to result: ImportResult) -> ImportResult {
    var result = result
    let log = result.donations
    var mapped = 0
    var unmapped: Set<String> = []
    let donations = (0..<log.count).map { row -> Donation in
      var donation = log[row]
      if let kind = donation.intent.flatMap(kind(for:)) ?? kind(for: donation.kind) {
        donation.kind = kind
        mapped += 1
      } else {
        unmapped.insert(donation.kind)
      }
      return donation
    }
    result.donations = DonationLog(donations)
    result.counts.apps = result.donations.kindNames.count
    result.counts.notes += [
      NamedCount("mapped donations", mapped), NamedCount("unmapped ids", unmapped.count),
    ]
    return result
  }
}
