import SmartStackBase

extension TimelineFile {
  /// The longest accepted relevance duration: 366 days, in seconds. Longer ones are
  /// almost certainly unit mistakes (milliseconds written as seconds).
  public static let maximumDurationSeconds: Double = 366 * 86_400

  /// The largest accepted score magnitude: WidgetKit's score is a `Float`.
  public static let maximumScoreMagnitude = Double(Float.greatestFiniteMagnitude)

  /// Reads a timeline file (format: see `TimelineFile`).
  ///
  /// - Parameter timeZone: the zone naive local dates (`2026-01-05T09:00`) are read in.
  /// - Throws: `InputFileError` when the file cannot be read; `DiagnosticList` with every
  ///   problem found (up to `DiagnosticCollector.defaultLimit`), each as
  ///   `FILE:LINE:COLUMN: key.path: message`.
  public static func read(path: String, timeZone: ZoneRules = .utc) throws -> TimelineFile {
    let bytes = try FileIO.readBytes(path)
    return try read(bytes: bytes, file: path, timeZone: timeZone)
  }

  /// The most JSON values a timeline file of `fileBytes` bytes may hold: the parser's
  /// limit (`JSONParser.maximumValues`), or one value per 8 bytes of file if that is more.
  /// Timelines that `simulate --emit-log` writes grow with people × days (about 16 bytes
  /// a value), and a valid timeline needs at least 8 bytes a value (an instance
  /// `{"id":"a","entries":[]}` is 3 values in 24 bytes; an entry needs its date), so no
  /// valid file is refused, while a file of `0,0,…` (2 bytes a value) still is once past
  /// the limit. O(1).
  public static func maximumValues(fileBytes: Int) -> Int {
    max(JSONParser.maximumValues, fileBytes / 8)
  }

  /// Reads a timeline file from its bytes; `file` names it in diagnostics.
  ///
  /// - Throws: `DiagnosticList` with every problem found.
  /// - Complexity: O(n) in the file's size (plus the JSON tree).
  public static func read(
    bytes: [UInt8], file: String, timeZone: ZoneRules = .utc
  ) throws -> TimelineFile {
    var json = JSONDecoding(file: file, bytes: bytes)
    json.maximumValues = maximumValues(fileBytes: bytes.count)
    guard let root = json.parseDocument() else { return try json.finish(nil) }
    let timelines = json.decodeObject(root) { o in
      o.requireElements("instances").map { items in
        TimelineFile(instances: decodeInstances(items, &o.json, timeZone: timeZone))
      }
    }
    return try json.finish(timelines)
  }

  /// An instance as written, before its id is compared with the other instances'.
  private struct Draft {
    /// nil when missing, not a string or empty (reported).
    var id: String?
    var idItem: JSONItem?
    var kind: String?
    var user: String?
    /// False when `user` is given but is not a non-empty string (reported).
    var userIsValid: Bool
    var entries: [RelevanceEntry]?
  }

  /// The instances whose id is unique (per user, for personal ones) and whose entries
  /// could be read, in file order; every other one is reported.
  private static func decodeInstances(
    _ items: [JSONItem], _ json: inout JSONDecoding, timeZone: ZoneRules
  ) -> [Instance] {
    var instances: [Instance] = []
    // Only looked up, never iterated: the output order is the file order. The first
    // instance of each id, and of each (id, user) pair.
    var firstIndexOfId: [String: (index: Int, personal: Bool)] = [:]
    var firstIndexOfPersonalId: [String: [String: Int]] = [:]
    for (index, item) in items.enumerated() {
      guard let draft = decodeDraft(item, &json, timeZone: timeZone) else { continue }
      // A wrong `user` is reported by itself; the id is then not compared with others.
      guard let id = draft.id, let idItem = draft.idItem, draft.userIsValid else { continue }
      let quoted = JSONEscaping.quoted(id)
      let user = draft.user
      if let first = firstIndexOfId[id], first.personal != (user != nil) {
        json.report(
          "instance id \(quoted) is every person's in instances[\(first.personal ? index : first.index)] and "
            + "one person's (\"user\") in instances[\(first.personal ? first.index : index)]: give it to every "
            + "person or per person, not both",
          at: idItem)
        continue
      } else if let user, let first = firstIndexOfPersonalId[id]?[user] {
        json.report(
          "duplicate instance id \(quoted) for user \(JSONEscaping.quoted(user)) (first used by instances[\(first)])",
          at: idItem)
        continue
      } else if user == nil, let first = firstIndexOfId[id] {
        json.report(
          "duplicate instance id \(quoted) (first used by instances[\(first.index)])", at: idItem)
        continue
      }
      if firstIndexOfId[id] == nil { firstIndexOfId[id] = (index, user != nil) }
      if let user { firstIndexOfPersonalId[id, default: [:]][user] = index }
      guard let entries = draft.entries else { continue }
      instances.append(Instance(id: id, kind: draft.kind, entries: entries, user: user))
    }
    return instances
  }

  /// `{"id": …, "kind": …, "user": …, "entries": […]}`.
  private static func decodeDraft(
    _ item: JSONItem, _ json: inout JSONDecoding, timeZone: ZoneRules
  ) -> Draft? {
    json.decodeObject(item) { o in
      let id = o.require("id", as: String.self, where: { !$0.isEmpty }) { _ in
        "expected a non-empty instance id"
      }
      let kind = o.optional("kind", as: String.self, where: { !$0.isEmpty }) { _ in
        "expected a non-empty kind (or leave \"kind\" out to use the id)"
      }
      let userItem = o.optional("user")
      let user = o.optional("user", as: String.self, where: { !$0.isEmpty }) { _ in
        "expected a non-empty user (or leave \"user\" out for every person's timeline)"
      }
      let entries = o.require("entries") { item, json in
        decodeEntries(item, &json, timeZone: timeZone)
      }
      return Draft(
        id: id, idItem: o.member("id"), kind: kind, user: user,
        userIsValid: user != nil || userItem == nil, entries: entries)
    }
  }

  /// Decodes an array of timeline entries in this file's format
  /// (`[{"date": …, "relevance": {"score": …, "duration": …}}, …]`), for other readers
  /// that embed timelines (scenario files). Dates without a zone are read in `timeZone`.
  ///
  /// - Returns: the entries in array order, or nil after reporting every problem to
  ///   `json` (an entry with any problem, an unknown key aside, makes it nil).
  public static func decodeEntries(
    _ item: JSONItem, _ json: inout JSONDecoding, timeZone: ZoneRules = .utc
  ) -> [RelevanceEntry]? {
    json.decodeArray(item) { entry, json in
      json.decodeObject(entry) { o in
        let date = o.require("date") { item, json in json.instant(item, zone: timeZone) }
        let relevance = o.optional("relevance", as: Relevance.self)
        guard let date, o.isClean else { return nil }
        return RelevanceEntry(date: date, relevance: relevance)
      }
    }
  }
}

extension Relevance: JSONObjectDecodable {
  /// `{"score": …, "duration": …}`: a score within `Float` range and a duration in
  /// seconds, 0 (until the next entry with relevance) by default, in whole milliseconds.
  public static func read(_ o: inout JSONObjectReader) -> Relevance? {
    let limit = TimelineFile.maximumScoreMagnitude
    let score = o.require("score", as: Double.self, where: { $0.isFinite && $0.magnitude <= limit }) {
      "\(NumberFormat.format($0)) is outside the range of a Float (WidgetKit's score type)"
    }
    let milliseconds = o.optional("duration") { item, json in
      Double(json: item, in: &json).flatMap { Self.milliseconds(fromSeconds: $0, item, &json) }
    }
    guard let score, o.isClean else { return nil }
    return Relevance(score: score, durationMilliseconds: milliseconds ?? 0)
  }

  /// A duration in seconds as whole milliseconds, or nil after reporting a negative,
  /// absurdly long or sub-millisecond duration.
  private static func milliseconds(
    fromSeconds seconds: Double, _ item: JSONItem, _ json: inout JSONDecoding
  ) -> Int64? {
    let shown = NumberFormat.format(seconds)
    if seconds < 0 {
      json.report(
        "expected seconds >= 0, found \(shown) (0 means until the next entry with relevance)",
        at: item)
      return nil
    }
    if seconds > TimelineFile.maximumDurationSeconds {
      json.report(
        "\(shown) s is more than 366 days (durations are in seconds, not milliseconds)",
        at: item)
      return nil
    }
    let ms = Int64((seconds * 1000).rounded())
    if ms == 0 && seconds > 0 {
      json.report(
        "\(shown) s is shorter than 1 millisecond (use 0 for until the next entry with relevance)",
        at: item)
      return nil
    }
    return ms
  }
}
