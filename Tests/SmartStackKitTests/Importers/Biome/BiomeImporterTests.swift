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

@Suite("Biome importer")
struct BiomeImporterTests {
  typealias R = SEGBWriter.Record
  /// 2026-03-02T08:00:00Z in Cocoa seconds (Unix 1772438400 - 978307200).
  static let t0 = 794_131_200.0

  private func read(
    _ bytes: [UInt8], _ stream: BiomeStream, skip: Bool = false
  ) throws -> BiomeImporter.Output {
    try BiomeImporter(skipBadRows: skip).read(bytes: bytes, file: "f", stream: stream)
  }

  private func lines(_ log: DonationLog) -> [String] { log.donations.map(\.description) }

  private func visits(_ log: VisitLog) -> [String] {
    log.times.map { ISO8601.format(Instant(milliseconds: $0)) }
  }

  @Test(arguments: [false, true])
  func inFocusForegroundRecordsAreDonationsAndSpringBoardsAreVisits(v2: Bool) throws {
    let records = [
      R(payload: BiomePayload.inFocus("com.apple.mobilesafari", starting: 1, time: Self.t0 + 60)),
      R(payload: BiomePayload.inFocus("com.apple.mobilesafari", starting: 0, time: Self.t0 + 90)),
      R(payload: BiomePayload.inFocus("com.apple.springboard", starting: 1, time: Self.t0 + 90.25)),
      R(payload: BiomePayload.inFocus("com.apple.MobileSMS", starting: 1, time: Self.t0)),
      R(payload: BiomePayload.inFocus("com.apple.Maps", starting: 7, time: Self.t0)),
      R(payload: BiomePayload.inFocus("com.apple.Maps", starting: nil, time: Self.t0)),
      R(payload: BiomePayload.inFocus(nil, starting: 1, time: Self.t0)),
      R(payload: [], state: 3),
    ]
    let out = try read(v2 ? SEGBWriter.v2(records) : SEGBWriter.v1(records), .inFocus)
    let r = out.result
    #expect(
      lines(r.donations) == [
        "2026-03-02T08:00:00Z default com.apple.MobileSMS",
        "2026-03-02T08:01:00Z default com.apple.mobilesafari",
      ])
    #expect(visits(r.visits) == ["2026-03-02T08:01:30.250Z"])
    let c = r.counts
    #expect(c.rows == 8)
    #expect(
      c.events == [
        NamedCount("App.InFocus foreground", 3), NamedCount("App.InFocus background", 1),
        NamedCount("App.InFocus other", 2), NamedCount("App.Intent", 0),
        NamedCount("interactions not decoded", 0),
      ])
    #expect(
      c.dropped == [
        NamedCount("deleted", 1), NamedCount("other_state", 0), NamedCount("no_bundle_id", 1),
        NamedCount("bad_rows", 0),
      ])
    #expect((c.donations, c.visits, c.counted, c.users, c.apps) == (2, 1, 3, 1, 2))
    #expect(c.rows == c.donations + c.visits + c.counted + c.dropped.reduce(0) { $0 + $1.count })
  }

  @Test func intentRecordsAreDonationsWithClassVerbAndTheInteractionsDirectionAndGroup() throws {
    let archive = BiomePayload.interaction(direction: 1, group: "chat;42")
    let records = [
      R(payload: BiomePayload.intent(
        "com.apple.MobileSMS", intentClass: "INSendMessageIntent", verb: "SendMessage",
        time: Self.t0, interaction: archive)),
      R(payload: BiomePayload.intent(
        "com.example.coffee", intentClass: "OrderCoffeeIntent", verb: nil, time: nil,
        interaction: Array("not a plist".utf8)), time: Self.t0 + 5),
      R(payload: BiomePayload.intent("com.example.notes", intentClass: nil, verb: nil, time: Self.t0 + 9)),
    ]
    let r = try read(SEGBWriter.v2(records), .intent).result
    #expect(
      lines(r.donations) == [
        "2026-03-02T08:00:00Z default com.apple.MobileSMS INSendMessageIntent direction=outgoing;group=chat%3B42;verb=SendMessage",
        "2026-03-02T08:00:05Z default com.example.coffee OrderCoffeeIntent",
        "2026-03-02T08:00:09Z default com.example.notes",
      ])
    #expect(r.counts.events("App.Intent") == 3)
    #expect(r.counts.events("interactions not decoded") == 1)
    #expect(r.visits.count == 0)
  }

  @Test func cocoaTimeIsUnixTimeMinus978307200AndIsTruncatedToMilliseconds() {
    #expect(BiomeImporter.milliseconds(cocoa: 0) == 978_307_200_000)
    #expect(BiomeImporter.milliseconds(cocoa: 0.0019) == 978_307_200_001)
    #expect(BiomeImporter.milliseconds(cocoa: -0.0005) == 978_307_199_999)
    #expect(BiomeImporter.milliseconds(cocoa: -978_307_200) == 0)
    #expect(BiomeImporter.milliseconds(cocoa: -978_307_201) == nil)
    #expect(BiomeImporter.milliseconds(cocoa: .nan) == nil)
    #expect(BiomeImporter.milliseconds(cocoa: .infinity) == nil)
    #expect(BiomeImporter.milliseconds(cocoa: 4_133_980_800 - 978_307_200) == nil)
  }

  @Test func aCRCMismatchFailsNamingTheFileAndOffsetUnlessSkipped() throws {
    let records = [
      R(payload: BiomePayload.inFocus("a.b", starting: 1, time: Self.t0)),
      R(payload: BiomePayload.inFocus("c.d", starting: 1, time: Self.t0), crc: 0x1234_5678),
    ]
    let bytes = SEGBWriter.v1(records)
    let offset = try SEGBFile(bytes: bytes).records[1].offset
    do {
      _ = try read(bytes, .inFocus)
      Issue.record("expected a failure")
    } catch let error as ArchiveError {
      #expect(error.description.hasPrefix("f: offset \(offset): CRC-32 mismatch: the record header says 0x12345678"))
    }
    let out = try read(bytes, .inFocus, skip: true)
    #expect(out.result.counts.dropped("bad_rows") == 1)
    #expect(out.result.donations.count == 1)
    #expect(out.warnings.count == 1 && out.warnings[0].hasPrefix("f: offset \(offset): CRC-32 mismatch"))
  }

  @Test func payloadsThatAreNotProtobufAndImpossibleTimesAreBadRows() throws {
    let records = [
      R(payload: [0xFF, 0xFF, 0xFF]),
      R(payload: BiomePayload.inFocus("a.b", starting: 1, time: .nan)),
    ]
    let out = try read(SEGBWriter.v2(records), .inFocus, skip: true)
    #expect(out.result.counts.dropped("bad_rows") == 2)
    #expect(out.warnings[0].hasSuffix("is not a protobuf message of the App.InFocus stream"))
    #expect(out.warnings[1].hasSuffix("is not an instant in 1970...2100"))
  }

  @Test func aTruncatedFileIsRefusedNamingTheFile() throws {
    let bytes = SEGBWriter.v1([R(payload: BiomePayload.inFocus("a.b", starting: 1, time: Self.t0))])
    #expect {
      try read(Array(bytes.dropLast(3)), .inFocus)
    } throws: { error in
      guard let error = error as? ArchiveError else { return false }
      return error.kind == .truncated && error.description.hasPrefix("f: offset 0: ")
    }
  }

  @Test func anEmptyFileImportsNothing() throws {
    let r = try read([], .intent).result
    #expect((r.counts.rows, r.donations.count, r.visits.count, r.counts.users) == (0, 0, 0, 0))
  }
}
