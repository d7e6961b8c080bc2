import SmartStackBase

extension ContextLog {
  /// Reads the JSON Lines form: one object per line with the CSV's keys, e.g.
  ///
  ///     {"timestamp":"2026-03-02T08:10:00+01:00","user":"alice","signal":"place","value":"commute"}
  ///
  /// `signal` and `value` are required strings; `user` a string (absent, null or empty:
  /// `default`); the time and `utc_offset` as in a donation log
  /// (`JSONObjectReader.donationTime(zone:localTime:)`). Unknown keys are ignored; lines
  /// of white space are skipped. Every problem (up to `limit`) is reported at its byte
  /// as `FILE:LINE:COLUMN: message`.
  ///
  /// - Complexity: O(n) in the input's length.
  static func readJSONLines(bytes: [UInt8], file: String, zone: ZoneRules, limit: Int) throws -> ContextLog {
    var json = JSONDecoding(file: file, bytes: [], limit: limit)
    var log = ContextLog(file: file)
    bytes.withUnsafeBufferPointer { buffer in
      JSONLines.forEachLine(buffer, json: &json) { range, json in
        guard let root = json.parse(range: range) else { return }
        _ = json.decodeObject(root, ignoringUnknownKeys: true) { o -> Void? in
          var localTime: (kind: LocalTimeKind, offset: Int)? = nil
          let time = o.donationTime(zone: zone, localTime: &localTime)
          let userItem = o.optional("user")
          var user = userItem.flatMap { o.json.requireString($0) } ?? ""
          if user.isEmpty { user = Donation.defaultUser }
          let signalItem = o.require("signal")
          let signal = signalItem.flatMap { o.json.requireString($0) }
          let valueItem = o.require("value")
          let value = valueItem.flatMap { o.json.requireString($0) }
          guard o.isClean, let time, let signal, let value, let signalItem, let valueItem else { return nil }
          let userPosition = o.json.position(ofByte: (userItem ?? o.item).offset)
          var json = o.json
          let added = log.append(
            user: user, userPosition: userPosition, time: time.milliseconds, utcOffset: time.utcOffset,
            signal: signal, signalAt: signalItem, value: value, valueAt: valueItem
          ) { item, message in json.report(message, at: item) }
          o.json = json
          return added ? () : nil
        }
      }
    }
    try json.throwIfAny()
    return log
  }
}
