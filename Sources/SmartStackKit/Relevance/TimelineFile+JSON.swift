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

  /// Reads a timeline file from its bytes; `file` names it in diagnostics.
  ///
  /// - Throws: `DiagnosticList` with every problem found.
  /// - Complexity: O(n) in the file's size (plus the JSON tree).
  public static func read(
    bytes: [UInt8], file: String, timeZone: ZoneRules = .utc
  ) throws -> TimelineFile {
    var json = JSONDecoding(file: file, bytes: bytes)
    guard let root = json.parseDocument(), let top = json.requireObject(root) else {
      try json.throwIfAny()
      return TimelineFile(instances: [])
    }
    json.rejectUnknownKeys(top, allowed: ["instances"])
    var instances: [Instance] = []
    // Only looked up, never iterated: the output order is the file order. The first
    // instance of each id, and of each (id, user) pair.
    var firstIndexOfId: [String: (index: Int, personal: Bool)] = [:]
    var firstIndexOfPersonalId: [String: [String: Int]] = [:]
    for (index, item) in (json.requireArray(top, "instances") ?? []).enumerated() {
      guard let object = json.requireObject(item) else { continue }
      json.rejectUnknownKeys(object, allowed: ["id", "kind", "user", "entries"])
      let user = json.optionalString(object, "user")
      // A wrong `user` is reported by itself; the id is then not compared with others.
      var userIsValid = user != nil || json.optional(object, "user") == nil
      if let text = user, text.isEmpty, let userItem = object["user"] {
        json.report("expected a non-empty user (or leave \"user\" out for every person's timeline)", at: userItem)
        userIsValid = false
      }
      var id = json.requireString(object, "id")
      if let text = id, let idItem = object["id"] {
        let quoted = JSONEscaping.quoted(text)
        if text.isEmpty {
          json.report("expected a non-empty instance id", at: idItem)
          id = nil
        } else if !userIsValid {
          id = nil
        } else if let first = firstIndexOfId[text], first.personal != (user != nil) {
          json.report(
            "instance id \(quoted) is every person's in instances[\(first.personal ? index : first.index)] and "
              + "one person's (\"user\") in instances[\(first.personal ? first.index : index)]: give it to every "
              + "person or per person, not both",
            at: idItem)
          id = nil
        } else if let user, let first = firstIndexOfPersonalId[text]?[user] {
          json.report(
            "duplicate instance id \(quoted) for user \(JSONEscaping.quoted(user)) (first used by instances[\(first)])",
            at: idItem)
          id = nil
        } else if user == nil, let first = firstIndexOfId[text] {
          json.report(
            "duplicate instance id \(quoted) (first used by instances[\(first.index)])", at: idItem)
          id = nil
        } else {
          if firstIndexOfId[text] == nil { firstIndexOfId[text] = (index, user != nil) }
          if let user { firstIndexOfPersonalId[text, default: [:]][user] = index }
        }
      }
      var kind = json.optionalString(object, "kind")
      if let text = kind, text.isEmpty, let kindItem = object["kind"] {
        json.report("expected a non-empty kind (or leave \"kind\" out to use the id)", at: kindItem)
        kind = nil
      }
      var entries: [RelevanceEntry]? = nil
      if let entriesItem = json.require(object, "entries") {
        entries = decodeEntries(entriesItem, &json, timeZone: timeZone)
      }
      if let id, let entries {
        instances.append(Instance(id: id, kind: kind, entries: entries, user: user))
      }
    }
    try json.throwIfAny()
    return TimelineFile(instances: instances)
  }

  /// Decodes an array of timeline entries in this file's format
  /// (`[{"date": …, "relevance": {"score": …, "duration": …}}, …]`), for other readers
  /// that embed timelines (scenario files). Dates without a zone are read in `timeZone`.
  ///
  /// - Returns: the entries in array order, or nil after reporting every problem to `json`.
  public static func decodeEntries(
    _ item: JSONItem, _ json: inout JSONDecoding, timeZone: ZoneRules = .utc
  ) -> [RelevanceEntry]? {
    guard let items = json.requireArray(item) else { return nil }
    var entries: [RelevanceEntry] = []
    entries.reserveCapacity(items.count)
    var valid = true
    for entryItem in items {
      if let entry = readEntry(entryItem, &json, timeZone: timeZone) {
        entries.append(entry)
      } else {
        valid = false
      }
    }
    return valid ? entries : nil
  }

  /// One entry, or nil after reporting what is wrong with it.
  private static func readEntry(
    _ item: JSONItem, _ json: inout JSONDecoding, timeZone: ZoneRules
  ) -> RelevanceEntry? {
    guard let object = json.requireObject(item) else { return nil }
    var valid = json.rejectUnknownKeys(object, allowed: ["date", "relevance"])
    var date: Instant? = nil
    if let dateItem = json.require(object, "date"), let text = json.requireString(dateItem) {
      date = readDate(text, dateItem, &json, timeZone: timeZone)
    }
    var relevance: Relevance? = nil
    if let relevanceItem = json.optional(object, "relevance") {
      if let relevanceObject = json.requireObject(relevanceItem),
        let value = readRelevance(relevanceObject, &json)
      {
        relevance = value
      } else {
        valid = false
      }
    }
    guard valid, let date else { return nil }
    return RelevanceEntry(date: date, relevance: relevance)
  }

  /// Parses an ISO 8601 date string; reports the parser's message at the byte it names.
  private static func readDate(
    _ text: String, _ item: JSONItem, _ json: inout JSONDecoding, timeZone: ZoneRules
  ) -> Instant? {
    switch ISO8601.parse(text) {
    case .success(let timestamp):
      return timeZone.resolve(timestamp)
    case .failure(let error):
      // The string's text starts after its opening quote. When the JSON string has no
      // escapes its bytes are the parsed bytes, so the parser's offset maps exactly;
      // otherwise point at the string.
      let start = item.offset + 1
      var offset = item.offset
      if start + text.utf8.count <= json.bytes.count,
        json.bytes[start..<(start + text.utf8.count)].elementsEqual(text.utf8)
      {
        offset = start + min(max(error.offset, 0), text.utf8.count)
      }
      json.report(error.message, at: offset, path: item.path)
      return nil
    }
  }

  /// `{"score": …, "duration": …}`, or nil after reporting what is wrong.
  private static func readRelevance(
    _ object: JSONObjectItem, _ json: inout JSONDecoding
  ) -> Relevance? {
    var valid = json.rejectUnknownKeys(object, allowed: ["score", "duration"])
    var score: Double? = nil
    if let scoreItem = json.require(object, "score"), let value = json.requireDouble(scoreItem) {
      if value.isFinite && value.magnitude <= maximumScoreMagnitude {
        score = value
      } else {
        json.report(
          "\(NumberFormat.format(value)) is outside the range of a Float (WidgetKit's score type)",
          at: scoreItem)
      }
    }
    var durationMilliseconds: Int64 = 0
    if let durationItem = json.optional(object, "duration") {
      if let seconds = json.requireDouble(durationItem) {
        if let ms = milliseconds(fromSeconds: seconds, durationItem, &json) {
          durationMilliseconds = ms
        } else {
          valid = false
        }
      } else {
        valid = false
      }
    }
    guard valid, let score else { return nil }
    return Relevance(score: score, durationMilliseconds: durationMilliseconds)
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
    if seconds > maximumDurationSeconds {
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
