import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld
import SmartStackExperiments

// The generated donation log of the ingest measurement, as CSV or JSON Lines bytes.

extension BenchWorkload {
  /// `ingestRows` donations as a log file in `format`, generated from `seed`.
  ///
  /// The rows are those of `Scripts/generate-log.sh` in kind (not in bytes): 40 users
  /// (some far more active), the 12 kinds of `kinds` (some far more popular) with their
  /// intents, one row in 8 a plain app launch without intent; parameters for purchases
  /// (`card`, `category`), weather and maps (`city`, some with a comma, one with a
  /// non-ASCII letter), reminders (`list`, some with escaped `;` and `=`), stocks
  /// (`symbol`) and music (`playlist`, `shuffle`); timestamps in UTC with `Z` from
  /// 2026-03-02T00:00:00Z, 0–19 s apart, one in ten with milliseconds, never decreasing.
  ///
  /// The CSV has the header `timestamp,user,kind,intent,parameters` and quotes a
  /// parameters field holding a comma; the JSON Lines form writes the same donations as
  /// `DonationLog.jsonlText()` does (`intent` null when none, `parameters` an object
  /// sorted by key). Both read back as equal logs.
  ///
  /// - Complexity: O(rows); about 65 bytes a row as CSV, 125 as JSON Lines.
  public func ingestLog(_ format: DonationLogFormat) -> [UInt8] {
    var rows = IngestRows(seed: seed)
    var out: [UInt8] = []
    out.reserveCapacity(ingestRows * (format == .csv ? 70 : 130) + 64)
    if format == .csv { out.append(contentsOf: "timestamp,user,kind,intent,parameters\n".utf8) }
    for _ in 0..<ingestRows {
      let row = rows.next()
      if format == .csv { row.appendCSV(to: &out, rows: &rows) } else { row.appendJSON(to: &out, rows: &rows) }
    }
    return out
  }
}

/// The row stream behind `BenchWorkload.ingestLog(_:)`.
struct IngestRows {
  static let intents = [
    "ViewRecentPurchases", "ViewForecast", "ViewEvent", "PlayMedia", "ViewMemory", "OpenNote",
    "ViewList", "ViewActivity", "ReadArticle", "ViewRoute", "ViewSymbol", "PlayEpisode",
  ]
  static let cards = ["Acme", "Bolt", "Cobalt", "Delta"]
  static let categories = ["Grocery", "Travel", "Dining", "Fuel"]
  /// Cities as decoded text and as `ParameterText` (percent-encoded where needed).
  static let cities = ["Berlin", "New York", "Paris, France", "Tokyo", "São Paulo"]
  static let citiesEncoded = ["Berlin", "New York", "Paris, France", "Tokyo", "S%C3%A3o Paulo"]
  static let lists = ["Work", "Home", "Groceries ; errands", "Team=alpha", "Books"]
  static let listsEncoded = ["Work", "Home", "Groceries %3B errands", "Team%3Dalpha", "Books"]
  static let symbols = ["AAPL", "MSFT", "GOOG", "TSLA"]

  struct Row {
    var second: Int64
    var millisecond: Int
    var user: Int
    var kind: Int
    var plain: Bool
    var a: Int
    var b: Int
  }

  var rng: Xoshiro256StarStar
  var second = BenchWorkload.start / 1_000
  var millisecond = 0
  /// The `YYYY-MM-DDT` of `dateDay`, cached.
  var dateDay: Int64 = -1
  var dateText: [UInt8] = []

  init(seed: UInt64) {
    rng = StreamSeed.generator(seed, 2)
  }

  mutating func next() -> Row {
    let step = rng.nextInt(below: 20)
    second += Int64(step)
    if step > 0 { millisecond = rng.nextInt(below: 10) == 0 ? rng.nextInt(below: 1_000) : 0 }
    let user = 1 + Int(40 * rng.nextUnit() * rng.nextUnit())
    let kind = Int(12 * rng.nextUnit() * rng.nextUnit())
    let a = rng.nextInt(below: 30)
    let b = rng.nextInt(below: 4)
    let plain = rng.nextInt(below: 8) == 0
    return Row(second: second, millisecond: millisecond, user: user, kind: kind, plain: plain, a: a, b: b)
  }

  /// Appends the timestamp text (`2026-03-02T08:01:05Z` or `...05.120Z`).
  mutating func appendTimestamp(_ row: Row, to out: inout [UInt8]) {
    let day = row.second / 86_400
    if day != dateDay {
      dateDay = day
      dateText = Array(ISO8601.format(Instant(seconds: day * 86_400)).utf8.prefix(11))
    }
    out.append(contentsOf: dateText)
    let s = Int(row.second % 86_400)
    Self.two(s / 3_600, to: &out)
    out.append(UInt8(ascii: ":"))
    Self.two(s / 60 % 60, to: &out)
    out.append(UInt8(ascii: ":"))
    Self.two(s % 60, to: &out)
    if row.millisecond > 0 {
      out.append(UInt8(ascii: "."))
      out.append(UInt8(48 + row.millisecond / 100))
      Self.two(row.millisecond % 100, to: &out)
    }
    out.append(UInt8(ascii: "Z"))
  }

  static func two(_ v: Int, to out: inout [UInt8]) {
    out.append(UInt8(48 + v / 10))
    out.append(UInt8(48 + v % 10))
  }

  static func userText(_ user: Int, to out: inout [UInt8]) {
    out.append(contentsOf: "user-".utf8)
    two(user, to: &out)
  }

  /// The parameters of a row as (key, decoded value, encoded value) pairs, sorted by key.
  static func parameters(_ row: Row) -> [(key: String, value: String, encoded: String)] {
    if row.plain { return [] }
    switch row.kind {
    case 0:
      return [
        ("card", cards[row.a % 4], cards[row.a % 4]),
        ("category", categories[row.b], categories[row.b]),
      ]
    case 1, 9: return [("city", cities[row.a % 5], citiesEncoded[row.a % 5])]
    case 6: return [("list", lists[row.a % 5], listsEncoded[row.a % 5])]
    case 10: return [("symbol", symbols[row.b], symbols[row.b])]
    case 3:
      return [
        ("playlist", "Mix \(1 + row.a)", "Mix \(1 + row.a)"),
        ("shuffle", row.b < 2 ? "true" : "false", row.b < 2 ? "true" : "false"),
      ]
    default: return []
    }
  }
}

extension IngestRows.Row {
  func appendCSV(to out: inout [UInt8], rows: inout IngestRows) {
    rows.appendTimestamp(self, to: &out)
    out.append(UInt8(ascii: ","))
    IngestRows.userText(user, to: &out)
    out.append(UInt8(ascii: ","))
    out.append(contentsOf: BenchWorkload.kinds[kind].utf8)
    out.append(UInt8(ascii: ","))
    if !plain { out.append(contentsOf: IngestRows.intents[kind].utf8) }
    out.append(UInt8(ascii: ","))
    let pairs = IngestRows.parameters(self)
    var text = ""
    for (i, p) in pairs.enumerated() {
      if i > 0 { text += ";" }
      text += p.key + "=" + p.encoded
    }
    let quote = text.utf8.contains(UInt8(ascii: ","))
    if quote { out.append(UInt8(ascii: "\"")) }
    out.append(contentsOf: text.utf8)
    if quote { out.append(UInt8(ascii: "\"")) }
    out.append(UInt8(ascii: "\n"))
  }

  func appendJSON(to out: inout [UInt8], rows: inout IngestRows) {
    out.append(contentsOf: #"{"timestamp":""#.utf8)
    rows.appendTimestamp(self, to: &out)
    out.append(contentsOf: #"","user":""#.utf8)
    IngestRows.userText(user, to: &out)
    out.append(contentsOf: #"","kind":""#.utf8)
    out.append(contentsOf: BenchWorkload.kinds[kind].utf8)
    out.append(contentsOf: #"","intent":"#.utf8)
    if plain {
      out.append(contentsOf: "null".utf8)
    } else {
      out.append(UInt8(ascii: "\""))
      out.append(contentsOf: IngestRows.intents[kind].utf8)
      out.append(UInt8(ascii: "\""))
    }
    out.append(contentsOf: #","parameters":{"#.utf8)
    for (i, p) in IngestRows.parameters(self).enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      out.append(UInt8(ascii: "\""))
      out.append(contentsOf: p.key.utf8)
      out.append(contentsOf: #"":""#.utf8)
      out.append(contentsOf: p.value.utf8)
      out.append(UInt8(ascii: "\""))
    }
    out.append(contentsOf: "}}\n".utf8)
  }
}
