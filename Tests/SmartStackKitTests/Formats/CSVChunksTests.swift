import Testing
@testable import SmartStackBase
@testable import SmartStackData

/// Reading a visit log in windows of parts on several threads (`CSVChunks`,
/// `VisitLog.chunked`) gives the one-pass reader's log, or nothing when a part meets a
/// problem (the one-pass reader then reports it).
@Suite("CSV chunks")
struct CSVChunksTests {
  /// A random visit log: 3 people, LF or CRLF line ends, optional offsets column, naive or
  /// offset timestamps, epoch columns, trailing blank lines, and sometimes a quoted field.
  static func log(seed: UInt64) -> (text: String, quoted: Bool) {
    var rng = SplitMix64(seed: seed)
    let end = rng.nextInt(below: 2) == 0 ? "\n" : "\r\n"
    let offsets = rng.nextInt(below: 2) == 0
    let epoch = rng.nextInt(below: 5) == 0
    var text = (epoch ? "epoch_ms" : "timestamp") + ",user" + (offsets ? ",utc_offset" : "") + end
    var quoted = false
    for i in 0..<(20 + rng.nextInt(below: 200)) {
      let t = 1_772_438_400_000 + Int64(rng.nextInt(below: 86_400)) * 1000
      let time =
        epoch
        ? "\(t)" : ISO8601.format(Instant(milliseconds: t)).replacingOccurrences(of: "Z", with: rng.nextInt(below: 3) == 0 ? "+02:00" : "Z")
      var user = ["ana", "ben", "çé"][rng.nextInt(below: 3)]
      if rng.nextInt(below: 40) == 0 {
        // Quoted, with a comma, an escaped quote and a line end inside.
        user = "\"\(user), \"\"q\"\"\(end)r\""
        quoted = true
      }
      if rng.nextInt(below: 50) == 0 && i > 0 { user = "" }
      text += time + "," + user + (offsets ? "," + (rng.nextInt(below: 2) == 0 ? "3600" : "") : "") + end
    }
    text += String(repeating: end, count: rng.nextInt(below: 3))
    return (text, quoted)
  }

  /// Counting a byte eight at a time (and `memchr` by `memchr`) gives the byte-by-byte count, for every start and
  /// end alignment and bytes near the counted one (0x09, 0x0B; 0x0A with the high bit).
  @Test func countingABytesAgreesWithCountingOneByOne() {
    var rng = SplitMix64(seed: 7)
    let alphabet: [UInt8] = [0x0A, 0x0A, 0x09, 0x0B, 0x8A, 0x22, 0x00, 0xFF, 0x2C, 0x41]
    let bytes = (0..<300).map { _ in alphabet[rng.nextInt(below: alphabet.count)] }
    bytes.withUnsafeBufferPointer { buffer in
      for target: UInt8 in [0x0A, 0x22, 0x00, 0xFF] {
        for start in 0..<20 {
          for end in [start, start + 1, start + 7, start + 8, start + 9, 150, 283, 300] where end >= start && end <= 300 {
            let expected = bytes[start..<end].filter { $0 == target }.count
            #expect(CSVChunks.denseCount(target, in: buffer, start..<end) == expected, "byte \(target), \(start)..<\(end)")
            #expect(CSVChunks.count(target, in: buffer, start..<end) == expected)
          }
        }
      }
    }
    #expect([UInt8]().withUnsafeBufferPointer { CSVChunks.denseCount(0x0A, in: $0, 0..<0) } == 0)
  }

  @Test func partsAndWindowsReadTheOnePassLog() throws {
    var quotedSeen = 0
    for seed in UInt64(1)...120 {
      let (text, quoted) = Self.log(seed: seed)
      if quoted { quotedSeen += 1 }
      let bytes = Array(text.utf8)
      let onePass = try VisitLog.read(bytes: bytes, file: "v.csv")
      for (window, parts) in [(40, 3), (100, 2), (1000, 4), (1 << 20, 2), (7, 5)] {
        let chunked = bytes.withUnsafeBufferPointer {
          VisitLog.chunked($0, file: "v.csv", zone: .utc, mapped: nil, windowBytes: window, parts: parts)
        }
        #expect(chunked == onePass, "seed \(seed), window \(window), parts \(parts)")
      }
    }
    #expect(quotedSeen > 20, "most logs hold quoted fields with line ends inside")
  }

  /// `read` cuts at line ends first and checks each part's quotes afterwards; the cuts it
  /// joins are exactly those that counting quotes first gives (`window` and `parts` with
  /// `quoted`), on logs with quoted line ends, for several window sizes and part counts,
  /// and the windows where cutting at line ends alone cuts elsewhere (read again) are
  /// many.
  @Test func readJoinsTheCutsThatCountingQuotesFirstGives() {
    var cutElsewhere = 0
    for seed in UInt64(1)...120 {
      let bytes = Array(Self.log(seed: seed).text.utf8)
      bytes.withUnsafeBufferPointer { buffer in
        for (window, parts) in [(40, 3), (100, 2), (1000, 4), (7, 5)] {
          var expected: [Range<Int>] = []
          var start = 0
          while start < buffer.count {
            let counted = CSVChunks.window(in: buffer, from: start, size: window, quoted: true)
            let cuts = CSVChunks.parts(of: counted, in: buffer, count: parts, quoted: true)
            let uncounted = CSVChunks.window(in: buffer, from: start, size: window, quoted: false)
            if CSVChunks.parts(of: uncounted, in: buffer, count: parts, quoted: false) != cuts { cutElsewhere += 1 }
            expected += cuts
            start = counted.upperBound
          }
          var joined: [Range<Int>] = []
          let read = CSVChunks.read(
            buffer, from: 0, mapped: nil, windowBytes: window, parts: parts, readPart: { _ in 0 },
            join: { _, range in joined.append(range) })
          #expect(read)
          #expect(joined == expected, "seed \(seed), window \(window), parts \(parts)")
        }
      }
    }
    #expect(cutElsewhere > 20, "line ends inside quoted fields move cuts: \(cutElsewhere)")
  }

  /// A part with any problem gives nil, so that the one-pass reader reports it with its
  /// own positions: a bad time, an empty line in the middle, a lone CR, a wrong field count.
  @Test(arguments: [
    "timestamp,user\n2026-03-02T08:00:00Z,a\nnot a time,b\n",
    "timestamp,user\n2026-03-02T08:00:00Z,a\n\n2026-03-02T09:00:00Z,b\n",
    "timestamp,user\n2026-03-02T08:00:00Z,a\r2026-03-02T09:00:00Z,b\n",
    "timestamp,user\n2026-03-02T08:00:00Z,a,extra\n",
  ])
  func aPartWithAProblemLeavesItToTheOnePassReader(text: String) {
    let bytes = Array((text + String(repeating: "2026-03-02T10:00:00Z,c\n", count: 20)).utf8)
    #expect((try? VisitLog.read(bytes: bytes, file: "v.csv")) == nil)
    let chunked = bytes.withUnsafeBufferPointer {
      VisitLog.chunked($0, file: "v.csv", zone: .utc, mapped: nil, windowBytes: 16, parts: 3)
    }
    #expect(chunked == nil)
  }

  /// Cuts are made only after a line end that ends a non-empty line.
  @Test func cutsNeverFollowABlankLine() {
    let text = Array("a\n\nb\r\n\r\nc\nd\n".utf8)
    text.withUnsafeBufferPointer { bytes in
      var cuts: [Int] = []
      for from in 0..<bytes.count {
        if let cut = CSVChunks.safeLineEnd(in: bytes, from: from) { cuts.append(cut) }
      }
      #expect(Set(cuts) == [2, 6, 10, 12])
    }
  }
}

/// Reading a donation log in windows of parts (`DonationLog.chunked`) gives the one-pass
/// reader's log and naive-local-time report, in both formats.
@Suite("Donation logs in parts")
struct DonationLogChunksTests {
  /// A random log in CSV or JSON Lines: naive local times (some in Berlin's spring gap and
  /// autumn fold), times with offsets, intents, parameters, users and kinds out of order.
  static func log(seed: UInt64, jsonl: Bool) -> String {
    var rng = SplitMix64(seed: seed)
    let stamps = [
      "2026-03-29T02:30:00", "2026-10-25T02:30:00", "2026-03-02T08:01:05", "2026-03-02T09:00:00+01:00",
      "2026-03-02T07:00:00Z", "2026-03-03T10:15:30.250",
    ]
    var text = jsonl ? "" : "timestamp,user,kind,intent,parameters\n"
    for _ in 0..<(30 + rng.nextInt(below: 150)) {
      let t = stamps[rng.nextInt(below: stamps.count)]
      var user = ["ana", "ben", "cy"][rng.nextInt(below: 3)]
      if !jsonl && rng.nextInt(below: 10) == 0 { user = "\"\(user), \"\"x\"\"\ny\"" }
      let kind = ["News", "Transit", "Weather", "Mail"][rng.nextInt(below: 4)]
      let intent = rng.nextInt(below: 2) == 0 ? "" : "View\(kind)"
      let parameters = rng.nextInt(below: 3) == 0 ? "" : "line=U\(rng.nextInt(below: 3));stop=S\(rng.nextInt(below: 2))"
      if jsonl {
        let params = parameters.isEmpty ? "{}" : "{" + parameters.split(separator: ";").map {
          let kv = $0.split(separator: "=")
          return "\"\(kv[0])\":\"\(kv[1])\""
        }.joined(separator: ",") + "}"
        text += "{\"timestamp\":\"\(t)\",\"user\":\"\(user)\",\"kind\":\"\(kind)\",\"intent\":"
          + (intent.isEmpty ? "null" : "\"\(intent)\"") + ",\"parameters\":\(params)}\n"
        if rng.nextInt(below: 20) == 0 { text += "   \n" }
      } else {
        text += "\(t),\(user),\(kind),\(intent),\(parameters)\n"
      }
    }
    return text
  }

  @Test(arguments: [false, true])
  func partsGiveTheOnePassLog(jsonl: Bool) throws {
    let zone = try #require(ZoneRules(identifier: "Europe/Berlin"))
    let format: DonationLogFormat = jsonl ? .jsonl : .csv
    for seed in UInt64(1)...60 {
      let bytes = Array(Self.log(seed: seed, jsonl: jsonl).utf8)
      var expectedTimes = LocalTimeReport()
      let expected = try DonationLog.read(
        bytes: bytes, file: "log", format: format, timeZone: zone, localTimes: &expectedTimes)
      #expect(!expectedTimes.isEmpty)
      for (window, parts) in [(60, 3), (300, 2), (1 << 20, 4), (9, 5)] {
        let builder = bytes.withUnsafeBufferPointer {
          DonationLog.chunked($0, file: "log", format: format, timeZone: zone, mapped: nil, windowBytes: window, parts: parts)
        }
        let read = try #require(builder, "seed \(seed), window \(window)")
        #expect(read.localTimes == expectedTimes, "seed \(seed), window \(window), parts \(parts)")
        #expect(read.build() == expected, "seed \(seed), window \(window), parts \(parts)")
      }
    }
  }

  /// Any problem in a part leaves the file to the one-pass reader.
  @Test(arguments: [false, true])
  func aProblemGivesNil(jsonl: Bool) {
    var text = Self.log(seed: 7, jsonl: jsonl)
    text += jsonl ? "{\"timestamp\":\"bad\",\"kind\":\"K\"}\n" : "bad,ana,K,,\n"
    text += Self.log(seed: 8, jsonl: jsonl).split(separator: "\n").dropFirst(jsonl ? 0 : 1).joined(separator: "\n") + "\n"
    let bytes = Array(text.utf8)
    let builder = bytes.withUnsafeBufferPointer {
      DonationLog.chunked($0, file: "log", format: jsonl ? .jsonl : .csv, timeZone: .utc, mapped: nil, windowBytes: 50, parts: 3)
    }
    #expect(builder == nil)
  }
}
