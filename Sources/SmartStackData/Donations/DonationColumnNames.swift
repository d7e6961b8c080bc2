import SmartStackBase

/// Which names a donation log's CSV header or JSON Lines object may carry, and which
/// unknown names are near misses of a known one (README, "Formats").
///
/// A log's columns are matched by exact, lowercase name. An unknown column is ignored
/// (and `validate` lists it) unless it is a *near miss* of a known column that the log
/// lacks: then the reader reports it at its header cell (CSV) or key (JSON Lines) with
/// a did-you-mean, because reading on would silently drop its values (three people
/// merged into `default`, parameters lost). A near miss is the known name in another
/// case or with `_`, `-`, `.` or spaces added or removed (`User`, `Intent`, `utcOffset`,
/// `UTC-Offset`), its plural (`users`), or a common synonym (`userid`, `user_id`, `usr`,
/// `params`, `time`, `datetime`, `tz_offset`, ...; `synonyms`).
enum DonationColumnNames {
  /// Every name the readers read.
  static let known: [String] =
    DonationField.all + EpochUnit.columnNames + [UTCOffset.fieldName]

  /// Common other names of each column, normalised (`normalised(_:)`).
  static let synonyms: [(column: String, names: [String])] = [
    (DonationField.timestamp, ["time", "date", "datetime", "ts", "eventtime", "timestamputc"]),
    (DonationField.user, ["userid", "usr", "uid", "username", "person", "personid"]),
    (DonationField.kind, ["widgetkind", "widget", "kindname"]),
    (DonationField.intent, ["intenttype", "intentname"]),
    (DonationField.parameters, ["params", "param", "parameter", "parms", "args", "arguments"]),
    (UTCOffset.fieldName, ["tzoffset", "gmtoffset", "timezoneoffset", "offsetseconds"]),
  ]

  /// True when the readers read a column named exactly `name`.
  static func isKnown(_ name: String) -> Bool { known.contains(name) }

  /// The known column that `name` (not itself known) is a near miss of, or nil.
  ///
  /// - Complexity: O(name length + known names and synonyms).
  static func nearMiss(of name: String) -> String? {
    if isKnown(name) { return nil }
    let n = normalised(name)
    if n.isEmpty { return nil }
    for column in known {
      let k = normalised(column)
      if n == k || n == k + "s" { return column }
    }
    return synonyms.first { $0.names.contains(n) }?.column
  }

  /// The problem with an unknown column `name` among `names` (every name of the header
  /// or object): the did-you-mean message when it is a near miss of an optional column
  /// that is absent, else nil (the column is ignored). A near miss of a required column
  /// (the time, `kind`) is left to the missing-column message, which names it. `what` is
  /// `column` or `key`.
  static func problem(_ name: String, among names: [String], what: String) -> String? {
    guard let meant = nearMiss(of: name), !isTime(meant), meant != DonationField.kind,
      !names.contains(meant)
    else { return nil }
    let q: (String) -> String = { what == "key" ? JSONEscaping.quoted($0) : "'\($0)'" }
    return "unknown \(what) \(q(name)) (did you mean \(q(meant))? \(what) names are matched "
      + "exactly and in lowercase, so its values would be ignored)"
  }

  /// `name` in lowercase without `_`, `-`, `.` and white space.
  static func normalised(_ name: String) -> String {
    String(name.lowercased().unicodeScalars.filter { !"_-. \t".unicodeScalars.contains($0) })
  }

  private static func isTime(_ name: String) -> Bool {
    name == DonationField.timestamp || EpochUnit(columnName: name) != nil
  }
}
