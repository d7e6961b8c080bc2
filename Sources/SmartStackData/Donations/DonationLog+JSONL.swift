import Foundation
import SmartStackBase

extension DonationLog {
  /// Reads the JSON Lines form (DESIGN.md §5): one object per line with the CSV's field
  /// names, e.g.
  ///
  ///     {"timestamp":"2026-03-02T08:01:05Z","user":"alice","kind":"RecentPurchases",
  ///      "intent":"ViewRecentPurchases","parameters":{"card":"Acme","category":"Grocery"}}
  ///
  /// (on one line). `timestamp` and `kind` are required non-empty strings; `user` is a
  /// string (absent, null or empty: `default`); `intent` a string or null (empty: none);
  /// `parameters` an object of strings with non-empty names (absent or null: none).
  /// The time may instead be one epoch key (`timestamp_ms`, `epoch_ms`, `timestamp_s`,
  /// `epoch_s`) and `utc_offset` gives the row's own UTC offset
  /// (`JSONObjectReader.donationTime(zone:)`). Unknown fields are ignored (told to the
  /// sink) except a near miss of an absent optional field (`"usr"`, `"params"`), an error
  /// at its key with a did-you-mean (`DonationColumnNames`); lines holding only white space are skipped, so an empty
  /// file is an empty log. A line longer than `InputLimits.maximumLineBytes` is refused at
  /// its first byte past the limit. Wrong types are reported with the field name, e.g.
  /// `kind: expected a string, found a number`, at the value; every problem in the file is
  /// reported (up to `limit`), in file order, then the reader throws.
  ///
  /// - Complexity: O(n) in the input length, plus O(r log r) to sort r rows not in time order.
  ///
  /// Flat rows that read without a problem take a fast path (`JSONLinesFastRow`) with the
  /// same result; `fastPath: false` reads every line with the general parser (tests
  /// compare the two).
  static func readJSONLines(
    _ bytes: [UInt8], file: String, timeZone: ZoneRules, limit: Int, fastPath: Bool = true
  ) throws -> DonationLog {
    var builder = DonationLogBuilder()
    try bytes.withUnsafeBufferPointer {
      try readJSONLines(
        $0, file: file, timeZone: timeZone, limit: limit, into: &builder, fastPath: fastPath)
    }
    return builder.build()
  }

  /// Reads the JSON Lines form (`readJSONLines(_:file:timeZone:limit:fastPath:)`) into
  /// `sink`: every row read without a problem goes to it in file order; then the reader
  /// throws every problem. A line the fast path does not take is copied and decoded on
  /// its own (`JSONDecoding.replaceText`), so the reader never needs the whole file as
  /// an array.
  ///
  /// `passed(offset)`, when given, is called before each line with an offset before which
  /// the reader will never look again (the line's start).
  static func readJSONLines<Sink: DonationSink>(
    _ buffer: UnsafeBufferPointer<UInt8>, file: String, timeZone: ZoneRules, limit: Int,
    into sink: inout Sink, fastPath: Bool = true, passed: ((Int) -> Void)? = nil
  ) throws {
    var json = JSONDecoding(file: file, bytes: [], limit: limit)
    sink.reserve(buffer.count / 128)
    var fast = JSONLinesFastRow()
    var start = 0
    var line = 1
    while start < buffer.count && !json.problems.truncated {
      if let passed { passed(start) }
      // Flat rows without problems take the fast path; every other line (and so every
      // problem) goes through the general parser.
      if fastPath, let end = fast.scan(buffer, from: start, timeZone: timeZone),
        end - start <= InputLimits.maximumLineBytes
      {
        fast.append(buffer, to: &sink)
        if let kind = fast.localTime, let timestamp = fast.timestamp {
          // At the timestamp's opening quote, as the general reader notes it.
          sink.localTimes.note(kind) {
            LocalTimeReport.Place(line: line, column: JSONLines.column(buffer, from: start, to: timestamp.lowerBound - 1))
          }
        }
        start = end + 1
        line += 1
        continue
      }
      let end = JSONLines.lineEnd(buffer, from: start)
      if end - start > InputLimits.maximumLineBytes {
        JSONLines.decode(buffer, start..<start + InputLimits.maximumLineBytes + 1, line: line, json: &json)
        json.report(
          InputLimits.lineTooLong(end - start), at: json.bytes.count - 1)
      } else if !JSONLines.isBlank(buffer, start..<end) {
        let range = JSONLines.decode(buffer, start..<end, line: line, json: &json)
        readJSONLine(range, json: &json, sink: &sink, timeZone: timeZone)
      }
      start = end + 1
      line += 1
    }
    try json.throwIfAny()
  }

  private static func readJSONLine<Sink: DonationSink>(
    _ range: Range<Int>, json: inout JSONDecoding, sink: inout Sink, timeZone: ZoneRules
  ) {
    guard let root = json.parse(range: range) else { return }
    // Unknown fields are ignored, except a near miss of an absent optional field
    // (`DonationColumnNames`).
    _ = json.decodeObject(root, ignoringUnknownKeys: true) { o -> Void? in
      let keys = o.object.members.map(\.key)
      for member in o.object.members where !DonationColumnNames.isKnown(member.key) {
        if let message = DonationColumnNames.problem(member.key, among: keys, what: "key") {
          o.json.report(message, at: member.keyOffset, path: o.path)
        } else {
          sink.ignore(column: member.key)
        }
      }
      var localTime: (kind: LocalTimeKind, offset: Int)? = nil
      let time = o.donationTime(zone: timeZone, localTime: &localTime)
      if let localTime {
        sink.localTimes.note(localTime.kind) {
          let p = o.json.position(ofByte: localTime.offset)
          return LocalTimeReport.Place(line: p.line, column: p.column)
        }
      }

      var userName = o.optional(DonationField.user, as: String.self) ?? ""
      if userName.isEmpty { userName = Donation.defaultUser }

      var kindName: String? = nil
      if let item = o.require(DonationField.kind), let text = o.json.requireString(item) {
        if text.isEmpty { o.json.report("kind is empty", at: item.offset) } else { kindName = text }
      }

      let intentName = o.optional(DonationField.intent, as: String.self)

      var parameters: [Parameter] = []
      if let item = o.optional(DonationField.parameters), let members = o.json.requireObject(item) {
        for member in members.members {
          let child = JSONItem(member.node, path: JSONDecoding.path(item.path, key: member.key))
          guard let value = o.json.requireString(child) else { continue }
          if member.key.isEmpty {
            o.json.report("empty parameter name", at: member.keyOffset, path: item.path)
          }
          parameters.append(Parameter(member.key, value))
        }
      }

      guard o.isClean, let kindName, let time else { return nil }
      var pairs = parameters.map {
        ParameterID(
          key: sink.intern($0.key, as: .parameterKey), value: sink.intern($0.value, as: .parameterValue))
      }
      pairs.sort()
      sink.append(
        timestamp: time.milliseconds,
        user: sink.intern(userName, as: .user),
        kind: sink.intern(kindName, as: .kind),
        intent: intentName.flatMap { $0.isEmpty ? nil : sink.intern($0, as: .intent) } ?? -1,
        parameterSet: sink.internSet(pairs), utcOffset: time.utcOffset)
      return ()
    }
  }

  /// The file offset of byte `k` of a JSON string's decoded text, for a string literal
  /// whose opening quote is at `quote`: exact when the literal has no escapes before that
  /// byte, else the opening quote.
  static func sourceOffset(in bytes: [UInt8], string quote: Int, byte k: Int) -> Int {
    let first = quote + 1
    var i = first
    while i < bytes.count && i < first + k {
      if bytes[i] == UInt8(ascii: "\\") || bytes[i] == UInt8(ascii: "\"") { return quote }
      i += 1
    }
    return first + k
  }
}
