import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench

@Suite("ISO 8601 parsing")
struct ISO8601ParseTests {
  // Expected milliseconds below were computed with Python's datetime.
  static let accepted: [(String, ISO8601.Timestamp)] = [
    ("2026-03-02T08:01:05Z", .absolute(Instant(milliseconds: 1_772_438_465_000))),
    ("2026-03-02t08:01:05z", .absolute(Instant(milliseconds: 1_772_438_465_000))),
    ("2026-03-02 08:01:05Z", .absolute(Instant(milliseconds: 1_772_438_465_000))),
    ("2026-03-02T08:01:05.123Z", .absolute(Instant(milliseconds: 1_772_438_465_123))),
    ("2026-03-02T08:01:05.5Z", .absolute(Instant(milliseconds: 1_772_438_465_500))),
    ("2026-03-02T08:01:05.123456Z", .absolute(Instant(milliseconds: 1_772_438_465_123))),
    ("2026-03-02T08:01:05.999999999Z", .absolute(Instant(milliseconds: 1_772_438_465_999))),
    ("2026-03-02T08:01:05+01:00", .absolute(Instant(milliseconds: 1_772_434_865_000))),
    ("2026-03-02T08:01:05+0100", .absolute(Instant(milliseconds: 1_772_434_865_000))),
    ("2026-03-02T08:01:05+01", .absolute(Instant(milliseconds: 1_772_434_865_000))),
    ("2026-03-02T08:01:05-05:30", .absolute(Instant(milliseconds: 1_772_458_265_000))),
    ("2026-03-02T08:01:05-0530", .absolute(Instant(milliseconds: 1_772_458_265_000))),
    ("2026-03-02T08:01:05-00:00", .absolute(Instant(milliseconds: 1_772_438_465_000))),
    ("2026-03-02T08:01+09:00", .absolute(Instant(milliseconds: 1_772_406_060_000))),
    ("2026-03-02T08:01Z", .absolute(Instant(milliseconds: 1_772_438_460_000))),
    ("2026-03-02T08:01:05.123+18:00", .absolute(Instant(milliseconds: 1_772_373_665_123))),
    ("2028-02-29T12:00:00Z", .absolute(Instant(milliseconds: 1_835_438_400_000))),
    ("1970-01-01T00:00:00Z", .absolute(Instant(milliseconds: 0))),
    ("1970-01-01T01:00:00+01:00", .absolute(Instant(milliseconds: 0))),
    ("2100-12-31T23:59:59.999Z", .absolute(Instant(milliseconds: 4_133_980_799_999))),
    ("2026-03-02", .local(milliseconds: 1_772_409_600_000)),
    ("2026-03-02 08:01:05", .local(milliseconds: 1_772_438_465_000)),
    ("2026-03-02T08:01:05", .local(milliseconds: 1_772_438_465_000)),
    ("2026-03-02T08:01", .local(milliseconds: 1_772_438_460_000)),
    ("2026-03-02 08:01:05.1", .local(milliseconds: 1_772_438_465_100)),
    ("1970-01-01", .local(milliseconds: 0)),
    ("2100-12-31T23:59:59.999", .local(milliseconds: 4_133_980_799_999)),
  ]

  @Test(arguments: accepted)
  func acceptsEveryDocumentedForm(text: String, expected: ISO8601.Timestamp) {
    #expect(ISO8601.parse(text) == .success(expected), "\(text)")
  }

  static let rejected: [(String, Int, String)] = [
    ("", 0, "empty timestamp"),
    ("2026-13-02T08:01:05Z", 5, "month 13 is out of range 01...12"),
    ("2026-00-02", 5, "month 00 is out of range 01...12"),
    ("2026-02-30", 8, "day 30 does not exist in February 2026"),
    ("2026-02-29T00:00Z", 8, "day 29 does not exist in February 2026"),
    ("2100-02-29", 8, "day 29 does not exist in February 2100"),
    ("2026-04-31", 8, "day 31 does not exist in April 2026"),
    ("2026-01-32", 8, "day 32 is out of range 01...31"),
    ("2026-01-00", 8, "day 00 is out of range 01...31"),
    ("2026-03-02T25:00Z", 11, "hour 25 is out of range 00...23"),
    ("2026-03-02T24:00Z", 11, "hour 24 is out of range 00...23"),
    ("2026-03-02T08:60Z", 14, "minute 60 is out of range 00...59"),
    ("2026-03-02T08:01:60Z", 17, "second 60 is a leap second; leap seconds are not supported"),
    ("2026-03-02T08:01:61Z", 17, "second 61 is out of range 00...59"),
    ("2026-03-02T08:01:05+25:00", 19, "offset +25:00 is out of range -18:00...+18:00"),
    ("2026-03-02T08:01:05-18:01", 19, "offset -18:01 is out of range -18:00...+18:00"),
    ("2026-03-02T08:01:05+05:60", 23, "offset minute 60 is out of range 00...59"),
    ("2026-03-02T08:01:05+0560", 22, "offset minute 60 is out of range 00...59"),
    (
      "2026-03-02T08:01:05+5", 20,
      "expected a 2-digit hour in the UTC offset (+HH, +HHMM or +HH:MM)"
    ),
    ("2026-03-02T08:01:05+05:3", 23, "expected 2-digit minutes in the UTC offset"),
    ("2026-03-02T08:01:05+053", 22, "expected 2-digit minutes in the UTC offset"),
    ("2026-03-02T08:01:05Zjunk", 20, "unexpected text after the timestamp"),
    ("2026-03-02T08:01:05 ", 19, "unexpected text after the timestamp"),
    ("2026-03-02T08:01:05+01:00x", 25, "unexpected text after the timestamp"),
    ("2026-03-02T08:01:05.", 20, "expected digits after '.'"),
    ("2026-03-02T08:01:05.1234567891Z", 29, "more than 9 digits in the fraction of a second"),
    ("2026-03-02T08:01.5Z", 16, "a fraction needs seconds: write HH:MM:SS.fff"),
    ("1969-12-31T23:59:59Z", 0, "year 1969 is out of range 1970...2100"),
    ("2101-01-01", 0, "year 2101 is out of range 1970...2100"),
    ("0000-01-01", 0, "year 0000 is out of range 1970...2100"),
    (
      "1970-01-01T00:30+01:00", 0,
      "the instant is before 1970-01-01T00:00:00Z, the earliest supported"
    ),
    (
      "2100-12-31T23:30-01:00", 0,
      "the instant is at or after 2101-01-01T00:00:00Z, the end of the supported range"
    ),
    ("26-03-02", 0, "expected a 4-digit year"),
    ("２０２６-03-02", 0, "expected a 4-digit year"),
    ("2026/03/02", 4, "expected '-' after the year"),
    ("20260-03-02", 4, "expected '-' after the year"),
    ("2026-3-02", 5, "expected a 2-digit month"),
    ("2026-03/02", 7, "expected '-' after the month"),
    ("2026-03-2", 8, "expected a 2-digit day"),
    ("2026-03-02X08:01", 10, "expected 'T' or a space between the date and the time"),
    ("2026-03-02Z", 10, "expected 'T' or a space between the date and the time"),
    ("2026-03-02T", 11, "expected a 2-digit hour"),
    ("2026-03-02 8:01", 11, "expected a 2-digit hour"),
    ("2026-03-02T08", 13, "expected ':' after the hour"),
    ("2026-03-02T0801", 13, "expected ':' after the hour"),
    ("2026-03-02T08:1", 14, "expected a 2-digit minute"),
    ("2026-03-02T08:01:5", 17, "expected a 2-digit second"),
    (" 2026-03-02", 0, "expected a 4-digit year"),
  ]

  @Test(arguments: rejected)
  func rejectsWithOffsetAndMessage(text: String, offset: Int, message: String) {
    #expect(ISO8601.parse(text) == .failure(ISO8601.ParseError(offset: offset, message: message)))
  }

  @Test func leapDayExistsIn2028ButNotIn2026() {
    #expect((try? ISO8601.parse("2028-02-29").get()) != nil)
    #expect((try? ISO8601.parse("2026-02-29").get()) == nil)
    #expect((try? ISO8601.parse("2000-02-29").get()) != nil)
  }

  @Test func parsesByteSlicesInPlace() {
    let line = Array("x,2026-03-02T08:01:05Z,y".utf8)
    let result = ISO8601.parse(utf8: line[2..<22])
    #expect(result == .success(.absolute(Instant(milliseconds: 1_772_438_465_000))))
    let failure = ISO8601.parse(utf8: line[2..<23])
    #expect(failure == .failure(.init(offset: 20, message: "unexpected text after the timestamp")))
    #expect(
      ISO8601.parse(utf8: "2026-03-02".utf8) == .success(.local(milliseconds: 1_772_409_600_000)))
  }

  static let writtenOffsets: [(String, Int32)] = [
    ("2026-03-02T08:01:05Z", UTCOffset.none),
    ("2026-03-02T08:01:05z", UTCOffset.none),
    ("2026-03-02T08:01:05-00:00", UTCOffset.none),
    ("2026-03-02T08:01:05-0000", UTCOffset.none),
    ("2026-03-02T08:01:05+00:00", 0),
    ("2026-03-02T08:01:05+05", 18_000),
    ("2026-03-02T08:01:05.5+0530", 19_800),
    ("2026-03-02T08:01-05:00", -18_000),
    ("2026-03-02 08:01:05.123456789-09:30", -34_200),
    ("2026-03-02T08:01:05", UTCOffset.none),
    ("2026-03-02", UTCOffset.none),
  ]

  /// The offset the parser reads as it goes (the log readers' one pass) is what the text
  /// writes, and what `UTCOffset.ofTimestamp` answers.
  @Test(arguments: writtenOffsets)
  func readsTheWrittenOffsetInTheSamePass(text: String, expected: Int32) {
    var bytes = Array(text.utf8)
    bytes.withUnsafeBufferPointer { buffer in
      var offset: Int32 = 12_345
      #expect((try? ISO8601.parse(buffer, utcOffset: &offset).get()) != nil)
      #expect(offset == expected, "\(text)")
      #expect(UTCOffset.ofTimestamp(buffer) == expected)
    }
    bytes = Array("2026-13-02T08:01:05+01:00".utf8)
    #expect(bytes.withUnsafeBufferPointer { UTCOffset.ofTimestamp($0) } == UTCOffset.none)
  }

  /// On thousands of accepted texts near the grammar's edges, the offset read in the
  /// parse equals the one a second scan from the end finds (the readers' former way).
  @Test func writtenOffsetAgreesWithAScanFromTheEnd() {
    func scanned(_ text: [UInt8]) -> Int32 {
      if let last = text.last, last == UInt8(ascii: "Z") || last == UInt8(ascii: "z") { return UTCOffset.none }
      var k = text.count - 1
      while k > 10 && text[k] != UInt8(ascii: "+") && text[k] != UInt8(ascii: "-") { k -= 1 }
      guard k > 10 else { return UTCOffset.none }
      var (hours, minutes, n): (Int32, Int32, Int) = (0, 0, 0)
      for i in (k + 1)..<text.count where text[i] != UInt8(ascii: ":") && n < 4 {
        let digit = Int32(text[i] &- UInt8(ascii: "0"))
        if n < 2 { hours = hours * 10 + digit } else { minutes = minutes * 10 + digit }
        n += 1
      }
      let seconds = hours * 3_600 + minutes * 60
      if seconds == 0 && text[k] == UInt8(ascii: "-") { return UTCOffset.none }
      return text[k] == UInt8(ascii: "-") ? -seconds : seconds
    }
    let alphabet = Array("0123456789-:+Zz .0123456789".utf8)
    var g = Xoshiro256StarStar(seed: 78)
    var accepted = 0
    let seeds = ["2026-03-02T08:01:05.123+01:00", "2026-03-02T08:01-0530", "2026-03-02 08:01:05+09", "2026-03-02T08:01:05Z"]
    for round in 0..<20_000 {
      var bytes = Array(seeds[round % seeds.count].utf8)
      for _ in 0..<g.nextInt(in: 0...2) {
        let position = g.nextInt(below: bytes.count)
        if g.nextInt(below: 2) == 0 { bytes[position] = alphabet[g.nextInt(below: alphabet.count)] } else { bytes.remove(at: position) }
        if bytes.isEmpty { break }
      }
      var offset: Int32 = 0
      guard case .success = bytes.withUnsafeBufferPointer({ ISO8601.parse($0, utcOffset: &offset) }) else { continue }
      accepted += 1
      if offset != scanned(bytes) { Issue.record("\(String(decoding: bytes, as: UTF8.self)): \(offset), expected \(scanned(bytes))") }
    }
    #expect(accepted > 5_000)
  }

  /// The word-at-a-time reading of the common forms gives `parseAnyForm`'s result
  /// and offset whenever it gives one, and gives none for every text `parseAnyForm`
  /// refuses: over texts one or two edits away from each form, and every boundary value.
  @Test func commonFormsReadAsTheByteByByteParserReadsThem() {
    var texts: [String] = []
    for (date, zone) in [("1970-01-01T00:00:00", "Z"), ("2100-12-31T23:59:59", "+00:00"), ("2028-02-29T12:30:45", "-05:30"),
      ("2026-03-02T08:01:05", ""), ("2026-03-02T08:01:05", "+18:00"), ("2026-03-02T08:01:05", "-00:00"), ("1970-01-01T05:00:00", "+05:01")] {
      texts.append(date + zone)
      // The same with milliseconds (the common form reads exactly three digits).
      texts.append(date + ".123" + zone)
      texts.append(date + ".999" + zone)
    }
    let alphabet = Array("0123456789-:+TZtz .\u{0}\u{FF}/;".utf8)
    var g = Xoshiro256StarStar(seed: 79)
    var agreed = 0
    var common = 0
    for round in 0..<60_000 {
      var bytes = Array(texts[round % texts.count].utf8)
      for _ in 0..<g.nextInt(in: 0...2) {
        let position = g.nextInt(below: bytes.count)
        switch g.nextInt(below: 4) {
        case 0: bytes[position] = alphabet[g.nextInt(below: alphabet.count)]
        case 1: bytes[position] = bytes[position] &+ 1
        case 2: bytes[position] = bytes[position] &- 1
        default: bytes.remove(at: position)
        }
        if bytes.isEmpty { break }
      }
      bytes.withUnsafeBufferPointer { buffer in
        var anyOffset: Int32 = 1
        let any = ISO8601.parseAnyForm(buffer, utcOffset: &anyOffset)
        var fastOffset: Int32 = 2
        if let fast = ISO8601.parseCommonForm(buffer, utcOffset: &fastOffset) {
          common += 1
          if any != .success(fast) || anyOffset != fastOffset {
            Issue.record("\(String(decoding: bytes, as: UTF8.self)): \(fast) \(fastOffset), expected \(any) \(anyOffset)")
          }
        }
        var offset: Int32 = 3
        if ISO8601.parse(buffer, utcOffset: &offset) == any, case .success = any, offset != anyOffset {
          Issue.record("offset of \(String(decoding: bytes, as: UTF8.self))")
        }
        if ISO8601.parse(buffer, utcOffset: &offset) == any { agreed += 1 }
      }
    }
    #expect(agreed == 60_000)
    #expect(common > 15_000, "many texts take the common form's way")
  }

  @Test func parserNeverCrashesOnRandomBytes() {
    // Bytes drawn mostly from the timestamp alphabet, so that many get deep into the grammar.
    let alphabet = Array("0123456789-:+TZtz .,0123456789".utf8) + [0, 0xFF, 0xC3]
    var g = Xoshiro256StarStar(seed: 77)
    var accepted = 0
    for _ in 0..<20_000 {
      var bytes = Array("2026-03-02T08:01:05.123+01:00".utf8)
      let mutations = g.nextInt(in: 1...4)
      for _ in 0..<mutations {
        let position = g.nextInt(below: bytes.count)
        switch g.nextInt(below: 3) {
        case 0: bytes[position] = alphabet[g.nextInt(below: alphabet.count)]
        case 1: bytes.remove(at: position)
        default: bytes.insert(alphabet[g.nextInt(below: alphabet.count)], at: position)
        }
        if bytes.isEmpty { break }
      }
      switch ISO8601.parse(utf8: bytes) {
      case .success: accepted += 1
      case .failure(let error):
        #expect(error.offset >= 0 && error.offset <= bytes.count, "\(bytes)")
        #expect(!error.message.isEmpty)
      }
    }
    #expect(accepted > 0)
  }
}
