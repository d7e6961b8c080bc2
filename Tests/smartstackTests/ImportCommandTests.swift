import Foundation
import SmartStackKit
import Testing

/// The bytes of `Tests/Fixtures/importers/NAME`: fixtures shared with the library's
/// importer tests (`ImporterFixtures`, where they are described).
private func fixture(_ name: String) -> Data {
  let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/importers/\(name)")
  return try! Data(contentsOf: url)
}

/// LSApp-style rows in America/New_York around the 2018-03-11 DST change, plain,
/// gzipped and in a tar inside gzip.
private let lsappText = String(decoding: fixture("lsapp.tsv"), as: UTF8.self)
private let lsappGzip = fixture("lsapp.tsv.gz")
private let lsappTarGzip = fixture("lsapp.tar.gz")

private let expectedDonations = """
  timestamp,user,kind,intent,parameters
  2018-03-11T06:58:00Z,1,Gmail,,
  2018-03-11T07:30:00Z,1,Maps,,
  2018-03-11T13:00:05Z,2,Chrome,,
  2018-03-12T12:00:10Z,2,Google Maps,,

  """

private let expectedVisits = """
  timestamp,user
  2018-03-11T06:58:00Z,1
  2018-03-11T07:30:00Z,1
  2018-03-11T13:00:05Z,2
  2018-03-12T12:00:00Z,2

  """

private let appEventsText = String(decoding: fixture("app-events.csv"), as: UTF8.self)

@Suite("smartstack import")
struct ImportCommandTests {
  private func read(_ name: String, in folder: URL) -> String? {
    guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path)
    else {
      return nil
    }
    return String(decoding: data, as: UTF8.self)
  }

  private func exists(_ name: String, in folder: URL) -> Bool {
    FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path)
  }

  private func write(_ data: Data, to name: String, in folder: URL) throws {
    try data.write(to: folder.appendingPathComponent(name))
  }

  /// A gzip file of `count` bytes `x`, in one stored block, made by hand.
  private func storedGzip(count: Int) -> Data {
    storedGzip([UInt8](repeating: UInt8(ascii: "x"), count: count))
  }

  /// A gzip file holding `data` in one stored block (at most 65 535 bytes), made by hand.
  private func storedGzip(_ data: [UInt8]) -> Data {
    let count = data.count
    var bytes: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3, 1]
    bytes +=
      [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8(~count >> 8 & 0xFF)]
      + data
    let crc = CRC32.checksum(data)
    bytes += [UInt8(crc & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 24)]
    bytes += [UInt8(count & 0xFF), UInt8(count >> 8 & 0xFF), 0, 0]
    return Data(bytes)
  }

  /// A POSIX ustar archive of regular files, made by hand.
  private func tar(_ files: [(name: String, text: String)]) -> [UInt8] {
    var bytes: [UInt8] = []
    for file in files {
      let data = Array(file.text.utf8)
      var header = [UInt8](repeating: 0, count: 512)
      func put(_ text: String, at offset: Int) {
        for (k, b) in text.utf8.enumerated() { header[offset + k] = b }
      }
      func octal(_ value: Int, _ width: Int) -> String {
        let digits = String(value, radix: 8)
        return String(repeating: "0", count: width - 1 - digits.count) + digits
      }
      put(file.name, at: 0)
      put("0000644", at: 100)
      put(octal(data.count, 12), at: 124)
      put(octal(0, 12), at: 136)
      put("0", at: 156)
      put("ustar", at: 257)
      put("00", at: 263)
      put("        ", at: 148)
      put(octal(header.reduce(0) { $0 + Int($1) }, 7), at: 148)
      bytes += header + data + [UInt8](repeating: 0, count: (512 - data.count % 512) % 512)
    }
    return bytes + [UInt8](repeating: 0, count: 1024)
  }

  private let arguments = [
    "--out", "lsapp.csv", "--visits-out", "lsapp-visits.csv", "--timezone", "America/New_York",
  ]

  // MARK: Success

  @Test func importsAnLSAppFileAndPrintsEveryCount() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(lsappText, to: "lsapp.tsv", in: folder)
    let r = try CLI.run(["import", "lsapp", "lsapp.tsv"] + arguments, in: folder)
    #expect(r.status == 0)
    #expect(r.stdout == "")
    #expect(
      r.stderr == """
        input:     lsapp.tsv (lsapp, plain)
        time zone: America/New_York
        rows read: 10
        events:    Opened 4, Closed 3, User Interaction 2, Broken 1
        donations: 4
        visits:    4 (sessions)
        counted:   5
        dropped:   broken 1, bad_rows 0
        users:     2
        apps:      4
        wrote:     lsapp.csv (4 donations), lsapp-visits.csv (4 visits)

        """)
    #expect(read("lsapp.csv", in: folder) == expectedDonations)
    #expect(read("lsapp-visits.csv", in: folder) == expectedVisits)
  }

  @Test func gzipAndTarInGzipGiveTheSameLogsAndSayWhatTheyUnpacked() throws {
    let folder = try CLI.temporaryFolder()
    try write(lsappGzip, to: "lsapp.tsv.gz", in: folder)
    try write(lsappTarGzip, to: "lsapp.tar.gz", in: folder)
    for (file, input, container) in [
      ("lsapp.tsv.gz", "lsapp.tsv.gz", "gzip"),
      ("lsapp.tar.gz", "lsapp.tar.gz(lsapp.tsv)", "tar.gz"),
    ] {
      let r = try CLI.run(["import", "lsapp", file, "--json"] + arguments, in: folder)
      #expect(r.status == 0, "\(file): \(r.stderr)")
      #expect(
        r.stdout
          == #"{"format":"lsapp","input":"\#(input)","container":"\#(container)","timezone":"America/New_York","rows":10,"events":{"Opened":4,"Closed":3,"User Interaction":2,"Broken":1},"donations":4,"visits":4,"counted":5,"dropped":{"broken":1,"bad_rows":0},"users":2,"apps":4,"out":"lsapp.csv","visits_out":"lsapp-visits.csv"}"#
          + "\n")
      #expect(r.stderr.hasPrefix("input:     \(input) (lsapp, \(container))\n"))
      #expect(read("lsapp.csv", in: folder) == expectedDonations, "\(file)")
      #expect(read("lsapp-visits.csv", in: folder) == expectedVisits, "\(file)")
    }
  }

  @Test func writesJSONLinesWhenTheLogEndsInJsonl() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(lsappText, to: "lsapp.tsv", in: folder)
    let r = try CLI.run(["import", "lsapp", "lsapp.tsv", "--out", "lsapp.jsonl"], in: folder)
    #expect(r.status == 0)
    #expect(
      read("lsapp.jsonl", in: folder)?.hasPrefix(
        #"{"timestamp":"2018-03-11T01:58:00Z","user":"1","kind":"Gmail","intent":null,"parameters":{}}"#
          + "\n") == true)
    #expect(!exists("lsapp-visits.csv", in: folder))
  }

  @Test func theImportedLogsReplay() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(lsappText, to: "lsapp.tsv", in: folder)
    #expect(try CLI.run(["import", "lsapp", "lsapp.tsv"] + arguments, in: folder).status == 0)
    let r = try CLI.run(
      [
        "replay", "--log", "lsapp.csv", "--visits", "lsapp-visits.csv", "--timezone",
        "America/New_York",
        "--strategy", "mru", "--out", "reports", "--quiet",
      ], in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(read("reports/runs.csv", in: folder)?.contains("mru") == true)
  }

  @Test func appEventsWithLauncherAndSystemApps() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(appEventsText, to: "events.csv", in: folder)
    let r = try CLI.run(
      [
        "import", "app-events", "events.csv", "--out", "log.csv", "--visits-out", "visits.csv",
        "--timezone", "Europe/Berlin", "--launcher", "com.android.launcher3", "--system",
        "com.android.systemui", "--json",
      ], in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stdout
        == #"{"format":"app-events","input":"events.csv","container":"plain","timezone":"Europe/Berlin","rows":9,"events":{"open":3,"resume":2,"unlock":1,"home":1,"close":0,"pause":2},"donations":3,"visits":3,"launcher_visits":1,"counted":2,"dropped":{"system_apps":1,"bad_rows":0},"users":3,"apps":2,"out":"log.csv","visits_out":"visits.csv"}"#
        + "\n")
    #expect(r.stderr.contains("visits:    3 (1 from launcher apps)\n"))
    #expect(
      read("log.csv", in: folder) == """
        timestamp,user,kind,intent,parameters
        2026-03-02T07:00:10Z,alice,com.whatsapp,,
        2026-03-02T07:30:00Z,bob,com.spotify,,
        2026-03-02T09:00:00Z,default,com.whatsapp,,

        """)
    #expect(
      read("visits.csv", in: folder) == """
        timestamp,user
        2026-03-02T07:00:00Z,alice
        2026-03-02T07:00:01Z,alice
        2026-03-02T07:31:00Z,bob

        """)
  }

  @Test func customEventNamesReplaceTheDefaults() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      "timestamp,app,event\n2026-03-02T07:00:00Z,android,SCREEN_ON\n2026-03-02T07:00:02Z,com.maps,FG\n",
      to: "e.csv", in: folder)
    let r = try CLI.run(
      [
        "import", "app-events", "e.csv", "--out", "o.csv", "--visit-events", "screen_on",
        "--donation-events", "fg,resumed", "--counted-events", "", "--json",
      ], in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stdout.contains(#""events":{"fg":1,"resumed":0,"screen_on":1},"donations":1,"visits":1"#))
  }

  // MARK: Bad data: exit 65, nothing written

  @Test func badRowsFailWithEveryProblemAndWriteNothing() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      """
      user_id\tsession_id\ttimestamp\tapp_name\tevent_type
      1\t10\t2018-13-11 01:58:00\tGmail\tOpened
      1\t10\t2018-03-11 01:59:30\tGmail\tLaunched
      1\t11\t2018-03-11 02:30:00\tMaps\tOpened

      """, to: "lsapp.tsv", in: folder)
    try CLI.write("old visits\n", to: "lsapp-visits.csv", in: folder)
    let r = try CLI.run(["import", "lsapp", "lsapp.tsv"] + arguments, in: folder)
    #expect(r.status == 65)
    #expect(r.stdout == "")
    #expect(
      r.stderr == """
        lsapp.tsv:2:11: timestamp: month 13 is out of range 01...12
        lsapp.tsv:3:32: unknown event_type 'Launched' (expected Opened, Closed, User Interaction or Broken)

        """)
    #expect(!exists("lsapp.csv", in: folder))
    #expect(read("lsapp-visits.csv", in: folder) == "old visits\n")
  }

  @Test func skipBadRowsWarnsCountsAndImportsTheRest() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(
      """
      user_id\tsession_id\ttimestamp\tapp_name\tevent_type
      1\t10\t2018-13-11 01:58:00\tGmail\tOpened
      1\t11\t2018-03-11 02:30:00\tMaps\tOpened

      """, to: "lsapp.tsv", in: folder)
    let r = try CLI.run(
      ["import", "lsapp", "lsapp.tsv", "--out", "o.csv", "--skip-bad-rows"], in: folder)
    #expect(r.status == 0)
    #expect(
      r.stderr.hasPrefix(
        "lsapp.tsv:2:11: warning: timestamp: month 13 is out of range 01...12 (row skipped)\n"))
    #expect(r.stderr.contains("dropped:   broken 0, bad_rows 1\n"))
    #expect(
      read("o.csv", in: folder)
        == "timestamp,user,kind,intent,parameters\n2018-03-11T02:30:00Z,1,Maps,,\n")
  }

  @Test func corruptAndTruncatedGzipFilesAreRefusedWithAClearMessage() throws {
    let folder = try CLI.temporaryFolder()
    var corrupt = [UInt8](lsappGzip)
    corrupt[corrupt.count - 6] ^= 0x40
    try write(Data(corrupt), to: "bad-crc.tsv.gz", in: folder)
    try write(lsappGzip.prefix(lsappGzip.count - 20), to: "cut.tsv.gz", in: folder)
    let crc = try CLI.run(["import", "lsapp", "bad-crc.tsv.gz", "--out", "o.csv"], in: folder)
    #expect(crc.status == 65)
    #expect(
      crc.stderr.hasPrefix("bad-crc.tsv.gz: gzip member 1: CRC-32 mismatch: the trailer says 0x"))
    #expect(crc.stderr.hasSuffix("; the file is corrupt\n"))
    let cut = try CLI.run(["import", "lsapp", "cut.tsv.gz", "--out", "o.csv"], in: folder)
    #expect(cut.status == 65)
    #expect(
      cut.stderr
        == "cut.tsv.gz: gzip member 1: deflate: the compressed data ends inside a block (truncated)\n"
    )
    #expect(!exists("o.csv", in: folder))
  }

  @Test func dataExpandingBeyondTheLimitIsRefused() throws {
    let folder = try CLI.temporaryFolder()
    try write(storedGzip(count: 5_000), to: "big.tsv.gz", in: folder)
    let r = try CLI.run(
      ["import", "lsapp", "big.tsv.gz", "--out", "o.csv", "--max-expanded-bytes", "4K"], in: folder)
    #expect(r.status == 65)
    #expect(
      r.stderr
        == "big.tsv.gz: the data expands beyond the limit of 4096 bytes; refusing it as a possible decompression bomb (raise the limit with --max-expanded-bytes if the file is genuine)\n"
    )
    #expect(!exists("o.csv", in: folder))
    // Within the limit it unpacks, and then fails on its content (no header).
    let ok = try CLI.run(
      ["import", "lsapp", "big.tsv.gz", "--out", "o.csv", "--max-expanded-bytes", "5000"],
      in: folder)
    #expect(ok.status == 65)
    #expect(ok.stderr.hasPrefix("big.tsv.gz:1:1: missing required columns"))
  }

  @Test func anArchiveWithSeveralTSVFilesNeedsMember() throws {
    let folder = try CLI.temporaryFolder()
    let archive = tar([("a.tsv", lsappText), ("b.tsv", lsappText), ("README", "notes\n")])
    try write(storedGzip(archive), to: "two.tar.gz", in: folder)
    let r = try CLI.run(["import", "lsapp", "two.tar.gz", "--out", "o.csv"], in: folder)
    #expect(r.status == 65)
    #expect(
      r.stderr
        == "two.tar.gz: several .tsv files in the archive (a.tsv, b.tsv); choose one with --member\n"
    )
    let chosen = try CLI.run(
      [
        "import", "lsapp", "two.tar.gz", "--out", "o.csv", "--member", "b.tsv", "--timezone",
        "America/New_York",
      ],
      in: folder)
    #expect(chosen.status == 0)
    #expect(chosen.stderr.hasPrefix("input:     two.tar.gz(b.tsv) (lsapp, tar.gz)\n"))
    #expect(read("o.csv", in: folder) == expectedDonations)
  }

  // MARK: Files and usage

  @Test func aMissingInputExits66() throws {
    let folder = try CLI.temporaryFolder()
    let r = try CLI.run(["import", "lsapp", "none.tsv", "--out", "o.csv"], in: folder)
    #expect(r.status == 66)
    #expect(r.stderr == "none.tsv: cannot read: no such file\n")
  }

  @Test func anUnwritableOutputExits73AndWritesNeitherFile() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(lsappText, to: "lsapp.tsv", in: folder)
    let r = try CLI.run(
      ["import", "lsapp", "lsapp.tsv", "--out", "o.csv", "--visits-out", "missing/v.csv"],
      in: folder)
    #expect(r.status == 73)
    #expect(r.stderr.hasPrefix("missing/v.csv: cannot write: "))
    #expect(!exists("o.csv", in: folder))
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(leftovers == ["lsapp.tsv"])
  }

  @Test func badUsageExits64() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write(lsappText, to: "lsapp.tsv", in: folder)
    let cases: [([String], String)] = [
      (
        ["import", "lsapp", "lsapp.tsv", "--out", "o.csv", "--timezone", "Mars/Base"],
        "unknown time zone 'Mars/Base'"
      ),
      (
        ["import", "nosuch", "lsapp.tsv", "--out", "o.csv"],
        "unknown dataset format 'nosuch': use lsapp or app-events"
      ),
      (["import", "lsapp"], "Missing expected argument '<input>'"),
      (["import", "lsapp", "lsapp.tsv"], "--out"),
      (
        ["import", "lsapp", "lsapp.tsv", "--out", "o.csv", "--max-expanded-bytes", "2T"],
        "--max-expanded-bytes"
      ),
      (
        ["import", "lsapp", "lsapp.tsv", "--out", "o.csv", "--visits-out", "./o.csv"],
        "the same file"
      ),
      (["import", "lsapp", "lsapp.tsv", "--out", "lsapp.tsv"], "overwrite the input"),
      (["import", "lsapp", "lsapp.tsv", "--out", "o.csv", "--launcher", "x"], "--launcher"),
      (
        ["import", "app-events", "lsapp.tsv", "--out", "o.csv", "--visit-events", "open"],
        "event 'open' is both a donation and a visit event"
      ),
      (
        [
          "import", "app-events", "lsapp.tsv", "--out", "o.csv", "--launcher", "a", "--system", "a",
        ],
        "app 'a' is both a launcher and a system app"
      ),
    ]
    for (arguments, message) in cases {
      let r = try CLI.run(arguments, in: folder)
      #expect(r.status == 64, "\(arguments)")
      #expect(r.stderr.contains(message), "\(arguments): \(r.stderr)")
      // The usage of the command that ran, whether parsing or running found the problem.
      if arguments.count > 2, ["lsapp", "app-events"].contains(arguments[1]) {
        #expect(r.stderr.contains("Usage: smartstack import \(arguments[1]) "), "\(arguments): \(r.stderr)")
      }
    }
    #expect(!exists("o.csv", in: folder))
  }

  @Test func helpListsBothFormats() throws {
    let r = try CLI.run(["import", "--help"])
    #expect(r.status == 0)
    #expect(r.stdout.contains("lsapp"))
    #expect(r.stdout.contains("app-events"))
  }
}
