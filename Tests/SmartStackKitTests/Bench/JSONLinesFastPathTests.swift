import SmartStackKit
import Testing

@testable import SmartStackBase
@testable import SmartStackBench
@testable import SmartStackCounterfactual
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackExperiments
@testable import SmartStackStrategies
@testable import SmartStackWorld

/// The JSON Lines fast path must give exactly what the general parser gives: the same
/// log, or the same diagnostics (messages, positions, truncation).
@Suite("JSON Lines fast path")
struct JSONLinesFastPathTests {
  /// Reads `bytes` both ways; `nil` log means it threw, with those diagnostics.
  func both(_ bytes: [UInt8], limit: Int = 50) -> (
    fast: (DonationLog?, [String]), general: (DonationLog?, [String])
  ) {
    func read(_ fast: Bool) -> (DonationLog?, [String]) {
      do {
        return (
          try DonationLog.readJSONLines(
            bytes, file: "log.jsonl", timeZone: .utc, limit: limit, fastPath: fast), []
        )
      } catch let list as DiagnosticList {
        return (nil, list.diagnostics.map(\.description) + (list.truncated ? ["(truncated)"] : []))
      } catch {
        return (nil, ["unexpected \(error)"])
      }
    }
    return (read(true), read(false))
  }

  // Pieces of lines, valid and not, that the generator combines.
  static let timestamps = [
    #""2026-03-02T08:00:05Z""#, #""2026-03-02 08:00:05""#, #""2026-03-02T08:00:05.123+01:00""#,
    #""2026-03-01T23:59:59Z""#, #""""#, #""2026-02-30T00:00:00Z""#, #""nope""#, "5", "null",
    #""2026-03-02T08:00:05Z ""#,
  ]
  static let users = [
    #""alice""#, #""bob""#, #""""#, "null", #""ü-user""#, "3", #""a\"b""#, #""tab\there""#, "nul",
    "nullx",
  ]
  static let kinds = [
    #""Weather""#, #""Music""#, #""""#, "null", #"["x"]"#, #""Mus\u0069c""#, #""Café""#,
  ]
  static let intents = [#""ViewForecast""#, #""""#, "null", "true", #""Play""#]
  static let parameters = [
    "{}", #"{"a":"1","b":"2"}"#, #"{"b":"x","a":"y"}"#, #"{"a":"1","a":"2"}"#, #"{"":"v"}"#,
    #"{"a":1}"#, "null", "[]", #"{"ké":"v"}"#, #"{"a":"x\ny"}"#, #"{ "city" : "São Paulo" }"#,
    #"{"a":"1",}"#, #"{"a" "1"}"#,
  ]
  static let offsets = [
    "3600", "-18000", "0", "-0", "null", "64800", "-64800", "64801", "01", "1.5", "1e3", "2.0",
    #""3600""#, "true", "-", "99999999999999999999",
  ]
  static let spaces = ["", " ", "\t", "  "]

  /// The pieces above that the reader accepts (escapes and non-ASCII keys included:
  /// valid, but for the general parser).
  static let validTimestamps = Array(timestamps[0..<4])
  static let validUsers = [
    #""alice""#, #""bob""#, #""""#, "null", #""ü-user""#, #""a\"b""#, #""tab\there""#,
  ]
  static let validKinds = [#""Weather""#, #""Music""#, #""Mus\u0069c""#, #""Café""#]
  static let validIntents = [#""ViewForecast""#, #""""#, "null", #""Play""#]
  static let validOffsets = ["3600", "-18000", "0", "-0", "null", "64800", "-64800", "1e3", "2.0"]
  static let validParameters = [
    "{}", #"{"a":"1","b":"2"}"#, #"{"b":"x","a":"y"}"#, "null", #"{"ké":"v"}"#, #"{"a":"x\ny"}"#,
    #"{ "city" : "São Paulo" }"#,
  ]

  /// One random line: a random subset of the fields in random order, sometimes with an
  /// unknown or repeated key, odd spacing, trailing text, CR, or an invalid UTF-8 byte.
  /// With `valid`, only what the reader accepts (so whole logs are compared).
  static func line(_ rng: inout SplitMix64, valid: Bool = false) -> [UInt8] {
    func pick<T>(_ items: [T]) -> T { items[rng.nextInt(below: items.count)] }
    func space() -> String { rng.nextInt(below: 3) == 0 ? pick(spaces) : "" }
    var fields: [(String, String)] = []
    if valid || rng.nextInt(below: 10) != 0 {
      fields.append(("timestamp", pick(valid ? validTimestamps : timestamps)))
    }
    if rng.nextInt(below: 3) != 0 { fields.append(("user", pick(valid ? validUsers : users))) }
    if valid || rng.nextInt(below: 10) != 0 {
      fields.append(("kind", pick(valid ? validKinds : kinds)))
    }
    if rng.nextInt(below: 2) == 0 {
      fields.append(("intent", pick(valid ? validIntents : intents)))
    }
    if rng.nextInt(below: 2) == 0 {
      fields.append(("parameters", pick(valid ? validParameters : parameters)))
    }
    if rng.nextInt(below: 3) == 0 {
      fields.append(("utc_offset", pick(valid ? validOffsets : offsets)))
    }
    if rng.nextInt(below: 12) == 0 { fields.append(("note", pick([#""x""#, "[1]", "null"]))) }
    if !valid, rng.nextInt(below: 15) == 0, let repeated = fields.first { fields.append(repeated) }
    RandomShuffle.shuffle(&fields, using: &rng)
    var text = space() + "{" + space()
    text += fields.map { "\"\($0.0)\"" + space() + ":" + space() + $0.1 }.joined(
      separator: space() + "," + space())
    text += space() + "}" + space()
    if valid { return Array((text + (rng.nextInt(below: 10) == 0 ? "\r" : "")).utf8) }
    switch rng.nextInt(below: 20) {
    case 0: text += "x"
    case 1: text += "\r"
    case 2: text = String(text.dropLast(rng.nextInt(below: 4) + 1))
    default: break
    }
    var bytes = Array(text.utf8)
    if rng.nextInt(below: 25) == 0, !bytes.isEmpty { bytes[rng.nextInt(below: bytes.count)] = 0xFF }
    return bytes
  }

  /// Every third file holds only valid lines (so whole logs of fast and general rows are
  /// compared); the others mostly fail (so diagnostics are compared).
  @Test func randomFilesReadTheSameWithAndWithoutTheFastPath() {
    var fastLines = 0
    var validLogs = 0
    for seed in 0..<400 {
      var rng = SplitMix64(seed: UInt64(seed))
      let valid = seed % 3 == 0
      var bytes: [UInt8] = rng.nextInt(below: 20) == 0 ? [0xEF, 0xBB, 0xBF] : []
      for _ in 0..<(1 + rng.nextInt(below: 12)) {
        let line = rng.nextInt(below: 10) == 0 ? Array("  ".utf8) : Self.line(&rng, valid: valid)
        var row = JSONLinesFastRow()
        if line.withUnsafeBufferPointer({ row.scan($0, from: 0, timeZone: .utc) }) != nil {
          fastLines += 1
        }
        bytes += line
        bytes.append(0x0A)
      }
      if rng.nextInt(below: 2) == 0 { bytes.removeLast() }
      let limit = rng.nextInt(below: 4) == 0 ? 2 : 50
      let (fast, general) = both(bytes, limit: limit)
      #expect(fast.0 == general.0, "seed \(seed): \(String(decoding: bytes, as: UTF8.self))")
      #expect(fast.1 == general.1, "seed \(seed): \(String(decoding: bytes, as: UTF8.self))")
      if fast.0 != nil { validLogs += 1 }
    }
    // Both paths are exercised, and many whole logs compared.
    #expect(fastLines > 300)
    #expect(validLogs > 120)
  }

  @Test func theBenchLogsReadTheSameBothWays() {
    let bytes = BenchWorkload(people: 1, days: 1, ingestRows: 2_000, seed: 11).ingestLog(.jsonl)
    let (fast, general) = both(bytes)
    #expect(fast.0 != nil)
    #expect(fast.0 == general.0)
  }

  /// Flat rows take the fast path; anything unusual is left to the general parser.
  @Test func onlyFlatProblemFreeRowsAreScanned() {
    func scans(_ text: String) -> Bool {
      var row = JSONLinesFastRow()
      let bytes = Array(text.utf8)
      return bytes.withUnsafeBufferPointer { row.scan($0, from: 0, timeZone: .utc) != nil }
    }
    #expect(
      scans(
        #"{"timestamp":"2026-03-02T08:00:05Z","user":"u","kind":"K","intent":null,"parameters":{"a":"b"}}"#
      ))
    #expect(
      scans(
        #" { "kind" : "K" , "timestamp" : "2026-03-02 08:00:05" , "parameters" : null } "# + "\r"))
    // A naive time takes it too, and is noted where the general reader notes it.
    let naive = #"{"user":"ü","timestamp":"2026-03-29 02:30:00","kind":"K"}"#
    #expect(scans(naive))
    func noted(fast: Bool) -> LocalTimeReport? {
      var builder = DonationLogBuilder()
      let bytes = Array((naive + "\n" + naive + "\n").utf8)
      let berlin = ZoneRules(identifier: "Europe/Berlin")!
      do {
        try bytes.withUnsafeBufferPointer {
          try DonationLog.readJSONLines(
            $0, file: "log.jsonl", timeZone: berlin, limit: 50, into: &builder, fastPath: fast)
        }
      } catch { return nil }
      return builder.localTimes
    }
    #expect(noted(fast: true) == noted(fast: false))
    #expect(noted(fast: true)?.gaps == 2)
    #expect(noted(fast: true)?.firstGap == LocalTimeReport.Place(line: 1, column: 25))
    #expect(scans(#"{"timestamp":"2026-03-02T08:00:05Z","kind":"Café","user":"ü"}"#))
    #expect(scans(#"{"timestamp":"2026-03-02T08:00:05Z","kind":"K","utc_offset":-18000}"#))
    #expect(scans(#"{"timestamp":"2026-03-02T08:00:05Z","kind":"K","utc_offset":null}"#))
    #expect(!scans(#"{"timestamp":"2026-03-02T08:00:05Z","kind":"K","utc_offset":1e3}"#))  // general reader's
    #expect(!scans(#"{"timestamp":"2026-03-02T08:00:05Z","kind":"K","utc_offset":64801}"#))  // out of range
    #expect(!scans(#"{"timestamp":"2026-03-02T08:00:05Z","kind":"K","note":"x"}"#))  // unknown key
    #expect(!scans(#"{"timestamp":"2026-03-02T08:00:05Z","kind":"K",xintent":null}"#))  // key without its quote
    #expect(!scans(#"{"timestamp":"2026-03-02T08:00:05Z","kind":"K","kind":"L"}"#))  // repeated key
    #expect(!scans(#"{"timestamp":"2026-03-02T08:00:05Z","kind":"K\u0041"}"#))  // escape
    #expect(!scans(#"{"timestamp":"2026-02-30T08:00:05Z","kind":"K"}"#))  // bad date
    #expect(!scans(#"{"timestamp":"2026-03-02T08:00:05Z","kind":""}"#))  // empty kind
    #expect(!scans(#"{"timestamp":"2026-03-02T08:00:05Z","kind":"K","parameters":{"":"v"}}"#))
    #expect(!scans(#"{"timestamp":"2026-03-02T08:00:05Z","kind":"K","parameters":{"ké":"v"}}"#))
    #expect(!scans(#"{"timestamp":"2026-03-02T08:00:05Z","kind":"K"} x"#))  // trailing text
    #expect(!scans("\u{FEFF}" + #"{"timestamp":"2026-03-02T08:00:05Z","kind":"K"}"#))  // byte order mark
  }

  /// The fast path keeps each distinct `parameters` text with its set id: a repeated text,
  /// the same pairs written in another order or spacing, and texts that differ only in a
  /// value read as the general parser reads them, in sets by content.
  @Test func repeatedParameterTextsReadAsTheGeneralParserReadsThem() throws {
    let texts = [
      #"{"city":"Berlin","unit":"C"}"#, #"{"city":"Berlin","unit":"C"}"#,
      #"{"unit":"C","city":"Berlin"}"#,
      #"{ "city" : "Berlin" , "unit" : "C" }"#, #"{"city":"Paris","unit":"C"}"#, "{}", "null",
      #"{"city":"Berlin","unit":"C"}"#, #"{"city":"Paris","unit":"C"}"#,
    ]
    var log = ""
    for (k, text) in texts.enumerated() {
      log +=
        #"{"timestamp":"2026-03-02T08:00:0\#(k)Z","kind":"Weather","parameters":\#(text)}"# + "\n"
    }
    let (fast, general) = both(Array(log.utf8))
    let read = try #require(fast.0)
    #expect(fast.0 == general.0)
    #expect(read.parameterSets == [1, 1, 1, 1, 2, 0, 0, 1, 2])
    #expect(read.parameters(ofSet: 1).map(\.value) == ["Berlin", "C"])
  }

  /// The string scan of the fast path, eight bytes at a time, against the same scan a
  /// byte at a time (the definition): on random strings of every length from 0 to 40,
  /// starting at every offset of a word, with quotes, backslashes, control characters,
  /// valid and invalid UTF-8 at random places, and buffers that end inside the string.
  @Test func wordAtATimeStringScanEqualsTheByteAtATimeScan() {
    /// The definition: byte by byte, what each byte does to the string.
    func reference(_ b: UnsafeBufferPointer<UInt8>, at quote: Int, asciiOnly: Bool) -> Range<Int>? {
      var i = quote + 1
      while i < b.count {
        switch b[i] {
        case 0x22: return quote + 1..<i  // the closing quote
        case 0x5C, 0x00..<0x20: return nil  // an escape, a control character
        case 0x20..<0x80: i += 1
        default:
          let scanner = JSONScanner(bytes: b, position: i, end: b.count)
          guard !asciiOnly, let length = scanner.utf8SequenceLength(at: i) else { return nil }
          i += length
        }
      }
      return nil
    }
    let pieces: [[UInt8]] = [
      Array("a".utf8), Array("Z".utf8), Array("-".utf8), Array(" ".utf8), Array("~".utf8), [0x7F],
      [0x21], [0x23],
      [0x5B], [0x5D], [0x1F], [0x00], [0x09], [0x0A], Array("\\".utf8), Array("ü".utf8),
      Array("€".utf8),
      Array("😀".utf8), [0xFF], [0xC3], [0xE2, 0x82], [0x80],
    ]
    let plain = Array("abcdefgh-_:.T0123".utf8)
    var rng = SplitMix64(seed: 7)
    var found = 0
    var refused = 0
    for _ in 0..<6_000 {
      let length = rng.nextInt(below: 41)
      var text: [UInt8] = []
      for _ in 0..<length {
        // Mostly plain ASCII, so that long clean runs (whole words) occur.
        text +=
          rng.nextInt(below: 8) == 0
          ? pieces[rng.nextInt(below: pieces.count)] : [plain[rng.nextInt(below: plain.count)]]
      }
      let lead = rng.nextInt(below: 8)
      var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: lead) + [UInt8(ascii: "\"")] + text
      if rng.nextInt(below: 5) != 0 {
        bytes += [UInt8(ascii: "\"")] + Array("tail,\"more\"".utf8).prefix(rng.nextInt(below: 12))
      }
      for asciiOnly in [false, true] {
        let (fast, slow) = bytes.withUnsafeBufferPointer {
          (
            JSONLinesFastRow.string($0, at: lead, asciiOnly: asciiOnly),
            reference($0, at: lead, asciiOnly: asciiOnly)
          )
        }
        #expect(fast == slow, "\(bytes) asciiOnly \(asciiOnly)")
        if slow == nil { refused += 1 } else { found += 1 }
      }
    }
    // Both outcomes are common.
    #expect(found > 2_000)
    #expect(refused > 2_000)
  }

  /// `stops(_:)`: zero exactly when no byte of the word stops a string scan, and its lowest
  /// set bit is bit 7 of the first byte that does, on random words and on every byte value
  /// at every position among plain bytes.
  @Test func stopFlagsMarkExactlyTheFirstByteThatEndsAPlainRun() {
    func isStop(_ c: UInt8) -> Bool { c == 0x22 || c == 0x5C || c < 0x20 || c >= 0x80 }
    func firstStop(_ word: UInt64) -> Int? {
      (0..<8).first { isStop(UInt8(truncatingIfNeeded: word >> (8 * UInt64($0)))) }
    }
    var words: [UInt64] = []
    for value in 0...255 {
      for position in 0..<8 {
        var word: UInt64 = 0x6161_6161_6161_6161
        word &= ~(0xFF << (8 * UInt64(position)))
        word |= UInt64(value) << (8 * UInt64(position))
        words.append(word)
      }
    }
    // Random words, most of whose bytes are plain (so that stops occur at every position).
    var rng = SplitMix64(seed: 3)
    for _ in 0..<50_000 {
      var word: UInt64 = 0
      for k in 0..<8 {
        let byte =
          rng.nextInt(below: 6) == 0
          ? UInt8(truncatingIfNeeded: rng.next()) : UInt8(0x23 + rng.nextInt(below: 0x39))
        word |= UInt64(byte) << (8 * UInt64(k))
      }
      words.append(word)
    }
    for word in words {
      let flags = JSONLinesFastRow.stops(word)
      if let first = firstStop(word) {
        #expect(
          flags != 0 && flags.trailingZeroBitCount == 8 * first + 7, "\(String(word, radix: 16))")
      } else {
        #expect(flags == 0, "\(String(word, radix: 16))")
      }
    }
  }
}
