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

@Suite("LSApp importer")
struct LSAppImporterTests {
  private static let newYork = ZoneRules(identifier: "America/New_York")!

  private func read(_ text: String, zone: ZoneRules = .utc, skip: Bool = false, limit: Int = 50)
    throws
    -> ImportResult
  {
    let bytes = Array(text.utf8)
    return try bytes.withUnsafeBufferPointer {
      try LSAppImporter(timeZone: zone, skipBadRows: skip, limit: limit).read($0, file: "f.tsv")
    }
  }

  private func instant(_ text: String) -> Instant {
    guard case .success(.absolute(let instant)) = ISO8601.parse(text) else { fatalError(text) }
    return instant
  }

  private func visits(_ log: VisitLog) -> [String] {
    (0..<log.count).map {
      "\(ISO8601.format(Instant(milliseconds: log.times[$0]))) \(log.users[$0])"
    }
  }

  // MARK: Mapping

  @Test func mapsOpenedToDonationsAndSessionsToVisitsAcrossTheSpringForwardGap() throws {
    let result = try read(ImporterFixtures.lsappText, zone: Self.newYork)
    // 01:58 EST = 06:58Z; 02:30 does not exist and is read as EST (07:30Z); 09:00:05 EDT = 13:00:05Z.
    #expect(
      result.donations.donations == [
        Donation(timestamp: instant("2018-03-11T06:58:00Z"), user: "1", kind: "Gmail"),
        Donation(timestamp: instant("2018-03-11T07:30:00Z"), user: "1", kind: "Maps"),
        Donation(timestamp: instant("2018-03-11T13:00:05Z"), user: "2", kind: "Chrome"),
        Donation(timestamp: instant("2018-03-12T12:00:10Z"), user: "2", kind: "Google Maps"),
      ])
    // Session (2, 10) starts at its first row that is not Broken; (2, 12) at a User Interaction.
    #expect(
      visits(result.visits) == [
        "2018-03-11T06:58:00Z 1", "2018-03-11T07:30:00Z 1", "2018-03-11T13:00:05Z 2",
        "2018-03-12T12:00:00Z 2",
      ])
    let c = result.counts
    #expect(c.rows == 10)
    #expect(
      c.events == [
        NamedCount("Opened", 4), NamedCount("Closed", 3), NamedCount("User Interaction", 2),
        NamedCount("Broken", 1),
      ])
    #expect((c.donations, c.visits, c.counted, c.users, c.apps) == (4, 4, 5, 2, 4))
    #expect(c.dropped == [NamedCount("broken", 1), NamedCount("bad_rows", 0)])
    #expect(c.launcherVisits == 0)
    #expect(result.skippedRows.diagnostics.isEmpty)
  }

  @Test func naiveTimesDefaultToUTCAndExplicitOffsetsAreHonoured() throws {
    let text = """
      user_id\tsession_id\ttimestamp\tapp_name\tevent_type
      1\t1\t2018-11-04 01:30:00\tGmail\tOpened
      1\t1\t2018-11-04 01:30:00-05:00\tGmail\tOpened

      """
    let utc = try read(text)
    #expect(
      utc.donations.donations.map(\.timestamp) == [
        instant("2018-11-04T01:30:00Z"), instant("2018-11-04T06:30:00Z"),
      ])
    // In New York 01:30 happens twice on 2018-11-04; the earlier (EDT) one is taken.
    let ny = try read(text, zone: Self.newYork)
    #expect(
      ny.donations.donations.map(\.timestamp) == [
        instant("2018-11-04T05:30:00Z"), instant("2018-11-04T06:30:00Z"),
      ])
  }

  @Test func sessionsStartAtTheirEarliestRowAndAreKeyedPerUser() throws {
    let text = """
      user_id\tsession_id\ttimestamp\tapp_name\tevent_type
      a\t5\t2018-01-16 06:10:00\tGmail\tOpened
      a\t5\t2018-01-16 06:00:00\tGmail\tClosed
      b\t5\t2018-01-16 06:00:00\tMaps\tUser Interaction
      a\t6\t2018-01-16 07:00:00\tMaps\tBroken
      a\t5\t2018-01-16 06:05:00\tMaps\tOpened

      """
    let result = try read(text)
    // a's session 5 starts at 06:00 (a Closed row, out of order); b's session 5 is another
    // session at the same instant, after it in first-appearance order; a's session 6 has
    // only a Broken row and no visit.
    #expect(visits(result.visits) == ["2018-01-16T06:00:00Z a", "2018-01-16T06:00:00Z b"])
    #expect(result.donations.donations.map(\.kind) == ["Maps", "Gmail"])
    #expect(result.counts.users == 2)
  }

  @Test func quotesAreOrdinaryCharactersAndNamesRoundTripThroughBothLogFormats() throws {
    let text = """
      user_id\tsession_id\ttimestamp\tapp_name\tevent_type
      u,1\t1\t2018-01-16 06:01:05\t"Quoted" App, Inc\tOpened
      u,1\t1\t2018-01-16 06:01:06\tCafé ☕\tOpened

      """
    let result = try read(text)
    #expect(result.donations.donations.map(\.kind) == ["\"Quoted\" App, Inc", "Café ☕"])
    #expect(result.donations.donations.map(\.user) == ["u,1", "u,1"])
    let csv = Array(result.donations.csvText().utf8)
    #expect(try DonationLog.read(bytes: csv, file: "o.csv") == result.donations)
    let jsonl = Array(result.donations.jsonlText().utf8)
    #expect(try DonationLog.read(bytes: jsonl, file: "o.jsonl") == result.donations)
    let visitLog = try VisitLog.read(bytes: Array(result.visits.csvText().utf8), file: "v.csv")
    #expect(visitLog.users == result.visits.users)
    #expect(visitLog.times == result.visits.times)
  }

  @Test func theFixtureRoundTripsThroughTheLogReaders() throws {
    let result = try read(ImporterFixtures.lsappText, zone: Self.newYork)
    #expect(
      result.visits.csvText() == """
        timestamp,user
        2018-03-11T06:58:00Z,1
        2018-03-11T07:30:00Z,1
        2018-03-11T13:00:05Z,2
        2018-03-12T12:00:00Z,2

        """)
    #expect(
      try DonationLog.read(bytes: Array(result.donations.csvText().utf8), file: "o.csv")
        == result.donations)
    let visitLog = try VisitLog.read(bytes: Array(result.visits.csvText().utf8), file: "v.csv")
    #expect(visitLog.times == result.visits.times)
    #expect(visitLog.users == result.visits.users)
  }

  @Test func gzipAndTarInGzipGiveTheSameResultAsThePlainFile() throws {
    let importer = LSAppImporter(timeZone: Self.newYork)
    let plain = try read(ImporterFixtures.lsappText, zone: Self.newYork)
    for bytes in [ImporterFixtures.lsappGzip, ImporterFixtures.lsappTarGzip] {
      let result = try importer.read(
        ImportSource.unpack(bytes, file: "lsapp", extensions: [".tsv"]))
      #expect(result.donations == plain.donations)
      #expect(result.visits.times == plain.visits.times)
      #expect(result.visits.users == plain.visits.users)
      #expect(result.counts == plain.counts)
    }
  }

  @Test func byteOrderMarkCRLFColumnOrderAndExtraColumnsAreAccepted() throws {
    let text =
      "\u{FEFF}event_type\tapp_name\tnote\ttimestamp\tsession_id\tuser_id\r\n"
      + "Opened\tGmail\tx\t2018-01-16 06:01:05\t1\t0\r\n\r\n\r\n"
    let result = try read(text)
    #expect(
      result.donations.donations == [
        Donation(timestamp: instant("2018-01-16T06:01:05Z"), user: "0", kind: "Gmail")
      ])
  }

  // MARK: Problems

  private static let badText = """
    user_id\tsession_id\ttimestamp\tapp_name\tevent_type
    1\t10\t2018-13-11 01:58:00\tGmail\tOpened
    1\t10\t2018-03-11 01:59:30\tGmail\tLaunched
    1\t10\t2018-03-11 03:01:00\tGmail
    \t11\t2018-03-11 02:30:00\t\tOpened

    2\t10\t2018-03-11 09:00:00\tChrome\tBroken\textra
    2\t10\t2018-03-11 25:00:05\tChröme\topened
    2\t12\tnot a time\t\tBroken
    3\t\t2018-03-12 08:00:00\tGmail\tClosed
    3\t13\t2018-03-12 09:00:00\tSlack\tOpened

    """

  private static let badDiagnostics = [
    "f.tsv:2:11: timestamp: month 13 is out of range 01...12",
    "f.tsv:3:32: unknown event_type 'Launched' (expected Opened, Closed, User Interaction or Broken)",
    "f.tsv:4:31: expected 5 tab-separated fields as in the header, found 4",
    "f.tsv:5:1: user_id is empty",
    "f.tsv:5:25: app_name is empty",
    "f.tsv:6:1: empty line",
    "f.tsv:7:40: expected 5 tab-separated fields as in the header, found 6",
    "f.tsv:8:17: timestamp: hour 25 is out of range 00...23",
    "f.tsv:8:33: unknown event_type 'opened' (expected Opened, Closed, User Interaction or Broken)",
    "f.tsv:10:3: session_id is empty",
  ]

  @Test func everyBadRowIsReportedAtItsLineAndColumn() {
    let list = diagnostics { _ = try read(Self.badText) }
    #expect(list?.lines == Self.badDiagnostics)
    #expect(list?.truncated == false)
  }

  @Test func reportingStopsAtTheLimitAndSaysSo() {
    let list = diagnostics { _ = try read(Self.badText, limit: 3) }
    #expect(list?.lines == Array(Self.badDiagnostics.prefix(3)))
    #expect(list?.truncated == true)
  }

  @Test func skippingBadRowsCountsAndListsThemAndKeepsTheRest() throws {
    let result = try read(Self.badText, skip: true)
    #expect(result.skippedRows.lines == Self.badDiagnostics)
    let c = result.counts
    #expect(c.rows == 10)
    #expect(c.dropped == [NamedCount("broken", 1), NamedCount("bad_rows", 8)])
    #expect(
      c.events == [
        NamedCount("Opened", 1), NamedCount("Closed", 0), NamedCount("User Interaction", 0),
        NamedCount("Broken", 1),
      ])
    #expect((c.donations, c.visits, c.counted, c.users, c.apps) == (1, 1, 0, 1, 1))
    #expect(
      result.donations.donations == [
        Donation(timestamp: instant("2018-03-12T09:00:00Z"), user: "3", kind: "Slack")
      ])
  }

  @Test func headerProblemsAreReportedEvenWhenSkippingBadRows() {
    let commas = diagnostics {
      _ = try read(
        "user_id,session_id,timestamp,app_name,event_type\n1,1,2018-01-16 06:01:05,Gmail,Opened\n",
        skip: true)
    }
    #expect(
      commas?.lines == [
        "f.tsv:1:1: missing required columns 'user_id', 'session_id', 'timestamp', 'app_name', 'event_type' (columns found: 'user_id,session_id,timestamp,app_name,event_type'); the first line must be the header user_id<TAB>session_id<TAB>timestamp<TAB>app_name<TAB>event_type; the columns must be separated by tabs, not commas"
      ])
    let missing = diagnostics { _ = try read("user_id\tsession_id\ttimestamp\tapp\tevent_type\n") }
    #expect(
      missing?.lines == [
        "f.tsv:1:1: missing required column 'app_name' (columns found: 'user_id', 'session_id', 'timestamp', 'app', 'event_type'); the first line must be the header user_id<TAB>session_id<TAB>timestamp<TAB>app_name<TAB>event_type"
      ])
    let duplicate = diagnostics {
      _ = try read("user_id\tuser_id\tsession_id\ttimestamp\tapp_name\tevent_type\n")
    }
    #expect(duplicate?.lines == ["f.tsv:1:9: duplicate column 'user_id' in the header"])
    let empty = diagnostics { _ = try read("") }
    #expect(
      empty?.lines == [
        "f.tsv:1:1: empty file: expected a header row naming the columns user_id<TAB>session_id<TAB>timestamp<TAB>app_name<TAB>event_type"
      ])
  }

  @Test func invalidUTF8IsReportedAtItsByte() {
    var bytes = Array(
      "user_id\tsession_id\ttimestamp\tapp_name\tevent_type\n1\t1\t2018-01-16 06:01:05\tCaf".utf8)
    bytes += [0xC3, 0x28] + Array("\tOpened\n".utf8)
    let list = diagnostics {
      _ = try bytes.withUnsafeBufferPointer { try LSAppImporter().read($0, file: "f.tsv") }
    }
    #expect(list?.lines == ["f.tsv:2:28: invalid UTF-8"])
  }

  @Test func headerOnlyIsAnEmptyImport() throws {
    let result = try read("user_id\tsession_id\ttimestamp\tapp_name\tevent_type\n")
    #expect(result.donations.isEmpty)
    #expect(result.visits.count == 0)
    #expect(result.counts.rows == 0)
  }

  /// Random damage to a valid file only ever produces diagnostics, and with skipping the
  /// counts always add up.
  @Test func damagedInputOnlyEverProducesDiagnosticsAndCountsAddUp() throws {
    let original = Array(ImporterFixtures.lsappText.utf8)
    let specials = Array("\t\n\r 0:-Z".utf8) + [0xFF, 0xC3, 0x00]
    var random = SplitMix64(seed: 2021)
    for seed in 0..<800 {
      var bytes = original
      for _ in 0..<(1 + Int(random.next() % 4)) {
        let at = Int(random.next() % UInt64(bytes.count + 1))
        switch random.next() % 3 {
        case 0: bytes.insert(specials[Int(random.next() % UInt64(specials.count))], at: at)
        case 1: if at < bytes.count { bytes.remove(at: at) }
        default:
          if at < bytes.count { bytes[at] = specials[Int(random.next() % UInt64(specials.count))] }
        }
      }
      for skip in [false, true] {
        do {
          let result = try bytes.withUnsafeBufferPointer {
            try LSAppImporter(skipBadRows: skip).read($0, file: "f.tsv")
          }
          let c = result.counts
          let total = c.donations + c.counted + c.dropped.reduce(0) { $0 + $1.count }
          #expect(total == c.rows, "seed \(seed) skip \(skip)")
          #expect(
            c.events.reduce(0) { $0 + $1.count } == c.rows - c.dropped("bad_rows"), "seed \(seed)")
        } catch let list as DiagnosticList {
          #expect(!list.diagnostics.isEmpty, "seed \(seed)")
        } catch {
          Issue.record("seed \(seed): unexpected \(error)")
        }
      }
    }
  }
}
